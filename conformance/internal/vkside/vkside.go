// Package vkside runs virtual-kubelet v1.14.1's own pod environment code (internal/podutils,
// which another module cannot import) for the side-by-side benchmark and checks: the functions
// are reached with go:linkname, as internal/kubeletside reaches kubelet's, so the tests and
// benchmarks that use it are built with -ldflags=-checklinkname=0. Nothing of virtual-kubelet is
// copied: its package node, imported for its side effect, links the code in.
package vkside

import (
	"context"
	"fmt"
	"unsafe"

	v1 "k8s.io/api/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/record"

	// node calls podutils.PopulateEnvironmentVariables, so the linker keeps it.
	_ "github.com/virtual-kubelet/virtual-kubelet/node"
)

// A virtual-kubelet version that renames or changes these fails to link, not at run time.

// newResourceManager is manager.NewResourceManager; its *manager.ResourceManager is opaque here.
//
//go:linkname newResourceManager github.com/virtual-kubelet/virtual-kubelet/internal/manager.NewResourceManager
func newResourceManager(pods corelisters.PodLister, secrets corelisters.SecretLister, configMaps corelisters.ConfigMapLister,
	services corelisters.ServiceLister) (unsafe.Pointer, error)

// populateEnvironmentVariables is podutils.PopulateEnvironmentVariables, the call virtual-kubelet's
// PodController makes on a copy of every pod before handing it to the provider.
//
//go:linkname populateEnvironmentVariables github.com/virtual-kubelet/virtual-kubelet/internal/podutils.PopulateEnvironmentVariables
func populateEnvironmentVariables(ctx context.Context, pod *v1.Pod, rm unsafe.Pointer, recorder record.EventRecorder) error

// Populator is virtual-kubelet's environment population over one set of listers, as its
// PodController holds it.
type Populator struct {
	rm       unsafe.Pointer
	recorder record.EventRecorder
}

// New returns a Populator reading the listers, recording its events in recorder.
func New(secrets corelisters.SecretLister, configMaps corelisters.ConfigMapLister, services corelisters.ServiceLister,
	recorder record.EventRecorder) (*Populator, error) {
	rm, err := newResourceManager(nil, secrets, configMaps, services)
	if err != nil {
		return nil, err
	}
	if rm == nil {
		return nil, fmt.Errorf("virtual-kubelet returned no resource manager")
	}
	return &Populator{rm: rm, recorder: recorder}, nil
}

// Populate writes the environment of every init, regular and ephemeral container into pod, as
// virtual-kubelet does: env becomes plain values and envFrom is emptied.
func (p *Populator) Populate(ctx context.Context, pod *v1.Pod) error {
	return populateEnvironmentVariables(ctx, pod, p.rm, p.recorder)
}
