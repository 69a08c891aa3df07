package mounts

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"path/filepath"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/internal/pathelem"
)

// ToCRIMounts converts mounts to CRI mounts in the same order (kubelet: the first half of
// kuberuntime's makeMounts). SELinux relabelling is requested only when the host has SELinux
// enabled (kubelet asks selinux.GetEnabled(); here it is an input).
//
// The messages share one allocation; the returned slice has room for one more mount (the
// termination message's).
func ToCRIMounts(ms []Mount, selinuxEnabled bool) []*runtimeapi.Mount {
	out, _ := toCRIMounts(ms, selinuxEnabled, false)
	return out
}

// toCRIMounts is ToCRIMounts; withSpare also returns a spare message from the same allocation,
// for the termination message's mount.
func toCRIMounts(ms []Mount, selinuxEnabled, withSpare bool) ([]*runtimeapi.Mount, *runtimeapi.Mount) {
	n := len(ms)
	if withSpare {
		n++
	}
	out := make([]*runtimeapi.Mount, len(ms), len(ms)+1)
	cri := make([]runtimeapi.Mount, n)
	for i := range ms {
		m, c := &ms[i], &cri[i]
		c.HostPath = m.HostPath
		c.ContainerPath = m.ContainerPath
		c.Readonly = m.ReadOnly
		c.SelinuxRelabel = m.SELinuxRelabel && selinuxEnabled
		c.Propagation = m.Propagation
		c.RecursiveReadOnly = m.RecursiveReadOnly
		c.Image = m.Image
		c.ImageSubPath = m.ImageSubPath
		c.MountOptions = m.BindMountOptions
		out[i] = c
	}
	if withSpare {
		return out, &cri[len(ms)]
	}
	return out, nil
}

// FileCreator creates the termination-message file. hostfs.OS and *hostfs.Memory implement it.
type FileCreator interface {
	// Create creates or truncates an empty file.
	Create(path string) error
	// Chmod sets the file's mode.
	Chmod(path string, perm fs.FileMode) error
}

// TerminationMessage describes the container's termination-message file.
type TerminationMessage struct {
	// PodContainerDir is <podDir>/containers/<container name>; empty means no termination file.
	PodContainerDir string
	// Path is the container's terminationMessagePath; empty means no termination file.
	Path string
	// Files creates the file on the host.
	Files FileCreator
	// Rand names the file; nil means math/rand/v2.Uint32. A fixed source makes offline output
	// deterministic.
	Rand func() uint32
}

// MakeTerminationMessageMount creates the termination-message file <PodContainerDir>/<8 hex
// digits> with mode 0666 and returns its mount (kubelet: the second half of kuberuntime's
// makeMounts). It returns no mount when there is no file to make. Kubelet only reports failures
// here and starts the container anyway, so they come back as warnings: when the file cannot be
// created there is no mount; when it cannot be made world-writable the mount stays.
func MakeTerminationMessageMount(tm TerminationMessage, selinuxEnabled bool) (*runtimeapi.Mount, []string) {
	if !tm.wanted() {
		return nil, nil
	}
	return makeTerminationMessageMount(tm, selinuxEnabled, &runtimeapi.Mount{})
}

// wanted reports whether there is a termination-message file to make.
func (tm *TerminationMessage) wanted() bool { return tm.PodContainerDir != "" && tm.Path != "" }

// makeTerminationMessageMount is MakeTerminationMessageMount for a wanted file; it fills m and
// returns it, or nil when the file cannot be created.
func makeTerminationMessageMount(tm TerminationMessage, selinuxEnabled bool, m *runtimeapi.Mount) (*runtimeapi.Mount, []string) {
	if tm.Files == nil {
		return nil, []string{fmt.Sprintf("error on creating termination-log file in %q: no FileCreator", tm.PodContainerDir)}
	}
	rnd := tm.Rand
	if rnd == nil {
		rnd = rand.Uint32
	}
	// filepath.Join(dir, fmt.Sprintf("%08x", n)) without the formatting's allocations.
	const hex = "0123456789abcdef"
	var name [8]byte
	n := rnd()
	for i := len(name) - 1; i >= 0; i-- {
		name[i] = hex[n&0xf]
		n >>= 4
	}
	file := tm.PodContainerDir + "/" + string(name[:])
	// A clean directory other than the root gives a clean path; Clean would only copy it.
	if tm.PodContainerDir == "/" || !pathelem.IsPlain(tm.PodContainerDir) {
		file = filepath.Clean(file)
	}
	if err := tm.Files.Create(file); err != nil {
		return nil, []string{fmt.Sprintf("error on creating termination-log file %q: %v", file, err)}
	}
	var warnings []string
	if err := tm.Files.Chmod(file, 0o666); err != nil {
		warnings = append(warnings, fmt.Sprintf("unable to set termination-log file permissions %q: %v", file, err))
	}
	m.HostPath = file
	m.ContainerPath = absClean(tm.Path)
	m.SelinuxRelabel = selinuxEnabled
	return m, warnings
}

// absClean is filepath.Clean("/" + p), without the concatenation and Clean's copy when p is an
// absolute, clean path already, as a terminationMessagePath usually is.
func absClean(p string) string {
	if p != "" && p[0] == '/' && pathelem.IsPlain(p) {
		return p
	}
	return filepath.Clean("/" + p)
}

// MakeCRIMounts is kuberuntime's makeMounts: the container's mounts converted to CRI, in order,
// followed by the termination-message mount when there is one.
func MakeCRIMounts(ms []Mount, tm TerminationMessage, selinuxEnabled bool) ([]*runtimeapi.Mount, []string) {
	if !tm.wanted() {
		return ToCRIMounts(ms, selinuxEnabled), nil
	}
	// The termination message's mount shares the other messages' allocation.
	out, spare := toCRIMounts(ms, selinuxEnabled, true)
	tmMount, warnings := makeTerminationMessageMount(tm, selinuxEnabled, spare)
	if tmMount != nil {
		out = append(out, tmMount)
	}
	return out, warnings
}
