package volumes

import (
	"fmt"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/internal/errkind"
)

// Error categories, matched with errors.Is.
var (
	// ErrNotSupported: the volume's type is not one this package fills or sets up.
	ErrNotSupported = errkind.Sentinel(errkind.InvalidOptions, "volume type not supported")
	// ErrMissingDependency: a getter the volume needs is nil in Sources.
	ErrMissingDependency = errkind.Sentinel(errkind.InvalidOptions, "missing dependency")
	// ErrInvalidName: a pod UID or volume name cannot be a host path element.
	ErrInvalidName = errkind.Sentinel(errkind.InvalidPod, "invalid name")
	// ErrPayloadTooLarge: a volume's files would take more bytes than Sources.MaxPayloadBytes.
	ErrPayloadTooLarge = errkind.Sentinel(errkind.InvalidPod, "volume files too large")
)

// Operations a VolumeError names.
const (
	opSetUp    = "MountVolume.SetUp"
	opTearDown = "UnmountVolume.TearDown"
)

// VolumeError is the error of one volume's set-up or teardown. Err has kubelet's text; Error
// adds the operation, volume and pod, as kubelet's events do.
type VolumeError struct {
	// Op is "MountVolume.SetUp" or "UnmountVolume.TearDown".
	Op string
	// Pod is the pod whose volume failed.
	Pod *v1.Pod
	// Volume is the pod's name for the volume.
	Volume string
	// Err is kubelet's error.
	Err error
}

// Error reads like kubelet's event: `MountVolume.SetUp failed for volume "cfg" of pod ns/name: ...`.
func (e *VolumeError) Error() string {
	if e == nil || e.Pod == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%s failed for volume %q of pod %s/%s: %v", e.Op, e.Volume, e.Pod.Namespace, e.Pod.Name, e.Err)
}

// Unwrap returns kubelet's error.
func (e *VolumeError) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}
