package mounts

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// TranslateMountPropagation converts a volumeMount's propagation mode to CRI (kubelet:
// translateMountPropagation on Linux). Nil and None are private. Bidirectional is not limited to
// privileged containers here; that is API validation's job, as in kubelet.
func TranslateMountPropagation(mode *v1.MountPropagationMode) (runtimeapi.MountPropagation, error) {
	if mode == nil {
		return runtimeapi.MountPropagation_PROPAGATION_PRIVATE, nil
	}
	switch *mode {
	case v1.MountPropagationHostToContainer:
		return runtimeapi.MountPropagation_PROPAGATION_HOST_TO_CONTAINER, nil
	case v1.MountPropagationBidirectional:
		return runtimeapi.MountPropagation_PROPAGATION_BIDIRECTIONAL, nil
	case v1.MountPropagationNone:
		return runtimeapi.MountPropagation_PROPAGATION_PRIVATE, nil
	}
	return 0, newError(ErrInvalidPropagation, fmt.Sprintf("invalid MountPropagation mode: %q", *mode), nil)
}

// ResolveRecursiveReadOnly decides whether a volumeMount gets a recursive read-only mount
// (kubelet: resolveRecursiveReadOnly). runtimeSupportsRRO says whether the container runtime
// handler supports it.
func ResolveRecursiveReadOnly(m v1.VolumeMount, runtimeSupportsRRO bool) (bool, error) {
	if m.RecursiveReadOnly == nil || *m.RecursiveReadOnly == v1.RecursiveReadOnlyDisabled {
		return false, nil
	}
	if !m.ReadOnly {
		return false, newError(ErrRecursiveReadOnly, fmt.Sprintf("volume %q requested recursive read-only mode, but it is not read-only", m.Name), nil)
	}
	if m.MountPropagation != nil && *m.MountPropagation != v1.MountPropagationNone {
		return false, newError(ErrRecursiveReadOnly, fmt.Sprintf("volume %q requested recursive read-only mode, but it is not compatible with propagation %q", m.Name, *m.MountPropagation), nil)
	}
	switch *m.RecursiveReadOnly {
	case v1.RecursiveReadOnlyIfPossible:
		return runtimeSupportsRRO, nil
	case v1.RecursiveReadOnlyEnabled:
		if !runtimeSupportsRRO {
			return false, newError(ErrRecursiveReadOnly, fmt.Sprintf("volume %q requested recursive read-only mode, but it is not supported by the runtime", m.Name), nil)
		}
		return true, nil
	}
	return false, newError(ErrRecursiveReadOnly, fmt.Sprintf("unknown recursive read-only mode %q", *m.RecursiveReadOnly), nil)
}
