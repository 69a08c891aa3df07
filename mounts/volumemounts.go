package mounts

import (
	"fmt"
	"path/filepath"
	"strings"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// VolumeMount is a container's volumeMount resolved as kubelet's makeMounts resolves it, but with
// no host path: what a provider that mounts the pod's volumes itself (a virtual-kubelet provider,
// a remote runtime) needs to know.
type VolumeMount struct {
	// Volume is the pod volume's name.
	Volume string
	// MountPath is the absolute path inside the container.
	MountPath string
	// SubPath is the path inside the volume to mount: subPath, or subPathExpr expanded against
	// the container's environment; checked to be relative with no "..". Empty is the volume's
	// root.
	SubPath string
	// ReadOnly is the volumeMount's readOnly, or true for a volume kubelet always mounts
	// read-only (configMap, secret, downwardAPI, projected, image, a read-only PVC).
	ReadOnly bool
	// RecursiveReadOnly is the resolved recursiveReadOnly: submounts are read-only too.
	RecursiveReadOnly bool
	// Propagation is the mount propagation mode.
	Propagation runtimeapi.MountPropagation
}

// VolumeMountsInput is what ContainerVolumeMounts reads.
type VolumeMountsInput struct {
	// Pod declares the volumes; Container mounts them.
	Pod       *v1.Pod
	Container *v1.Container
	// Env is the container's environment for subPathExpr, a later duplicate winning.
	Env map[string]string
	// SupportsRecursiveReadOnly says whether the runtime supports recursive read-only mounts.
	SupportsRecursiveReadOnly bool
}

// ContainerVolumeMounts resolves a container's volumeMounts with kubelet's rules and errors
// (makeMounts' checks that need no host): the volume must be declared by the pod, subPathExpr is
// expanded and the subPath checked, the propagation mode translated and recursiveReadOnly
// resolved. It needs no host paths and touches nothing; unlike MakeMounts it adds no /etc/hosts
// mount, and it cannot check what a subPath resolves to on the host. The order is the
// volumeMounts'.
func ContainerVolumeMounts(in VolumeMountsInput) ([]VolumeMount, error) {
	if in.Pod == nil || in.Container == nil {
		return nil, newError(ErrMissingDependency, "ContainerVolumeMounts: pod and container must not be nil", nil)
	}
	ctr := in.Container
	if len(ctr.VolumeMounts) == 0 {
		return nil, nil
	}
	out := make([]VolumeMount, len(ctr.VolumeMounts))
	for i := range ctr.VolumeMounts {
		vm := &ctr.VolumeMounts[i]
		vol := podVolume(in.Pod, vm.Name)
		if vol == nil {
			return nil, newError(ErrVolumeNotFound, fmt.Sprintf("cannot find volume %q to mount into container %q", vm.Name, ctr.Name), nil)
		}
		subPath := vm.SubPath
		if vm.SubPathExpr != "" {
			var err error
			if subPath, err = expandSubPathExpr(vm.Name, vm.SubPathExpr, in.Env); err != nil {
				return nil, err
			}
		}
		if subPath != "" {
			if err := ValidateSubPath(subPath); err != nil {
				return nil, err
			}
		}
		m := VolumeMount{Volume: vm.Name, MountPath: vm.MountPath, SubPath: subPath, ReadOnly: vm.ReadOnly || alwaysReadOnly(vol)}
		if !strings.HasPrefix(m.MountPath, "/") {
			m.MountPath = filepath.Clean("/" + m.MountPath)
		}
		var err error
		if m.Propagation, err = TranslateMountPropagation(vm.MountPropagation); err != nil {
			return nil, err
		}
		if vm.RecursiveReadOnly != nil {
			rro, err := ResolveRecursiveReadOnly(*vm, in.SupportsRecursiveReadOnly)
			if err != nil {
				return nil, fmt.Errorf("failed to resolve recursive read-only mode: %w", err)
			}
			m.RecursiveReadOnly = rro
		}
		out[i] = m
	}
	return out, nil
}

func podVolume(pod *v1.Pod, name string) *v1.Volume {
	for i := range pod.Spec.Volumes {
		if pod.Spec.Volumes[i].Name == name {
			return &pod.Spec.Volumes[i]
		}
	}
	return nil
}

// alwaysReadOnly reports whether kubelet's volume plugin mounts the volume read-only whatever the
// volumeMount says (its mounter's attributes): the API-data volumes, image volumes, and a PVC the
// pod claims read-only.
func alwaysReadOnly(vol *v1.Volume) bool {
	s := vol.VolumeSource
	switch {
	case s.ConfigMap != nil, s.Secret != nil, s.DownwardAPI != nil, s.Projected != nil, s.Image != nil:
		return true
	case s.PersistentVolumeClaim != nil:
		return s.PersistentVolumeClaim.ReadOnly
	}
	return false
}
