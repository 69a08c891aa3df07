package blockdev

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/internal/errkind"
	"github.com/podconfig/podconfig/mounts"
)

// DeviceInfo is one device the container gets (kubelet: kubecontainer.DeviceInfo).
type DeviceInfo struct {
	// PathOnHost is the host path of the device, here the pod's symlink to the block device.
	PathOnHost string
	// PathInContainer is where the device appears in the container.
	PathInContainer string
	// Permissions are cgroup device permissions: "r" for a read-only volume, else "mrw".
	Permissions string
}

// SymlinkChecker tells whether the pod's symlink to a block device exists (kubelet:
// BlockVolumePathHandler.IsSymlinkExist). OS is the host implementation; offline.BlockDevices is
// the offline node's, and blockdevtest's double injects errors.
type SymlinkChecker interface {
	// IsSymlinkExist reports whether path exists and is a symlink. A path that does not exist, or
	// is not a symlink, is (false, nil).
	IsSymlinkExist(path string) (bool, error)
}

// ErrInvalidDevicePath: a volumeDevice's devicePath is not absolute.
var ErrInvalidDevicePath = errkind.Sentinel(errkind.InvalidPod, "invalid devicePath")

// MakeBlockVolumes maps a container's volumeDevices to devices, in volumeDevices order, as
// kubelet's makeBlockVolumes (pkg/kubelet/kubelet_pods.go) does. A device whose symlink does not
// exist is skipped, as in kubelet, and reported in the warnings. A volume that is missing or not a
// block volume is an error matching mounts.ErrVolumeNotFound.
func MakeBlockVolumes(container *v1.Container, volumes mounts.VolumeMap, links SymlinkChecker) (devices []DeviceInfo, warnings []string, err error) {
	if container == nil {
		return nil, nil, fmt.Errorf("MakeBlockVolumes: container must not be nil: %w", mounts.ErrMissingDependency)
	}
	for _, d := range container.VolumeDevices {
		if !strings.HasPrefix(d.DevicePath, "/") {
			return nil, warnings, &deviceError{kind: ErrInvalidDevicePath, msg: fmt.Sprintf("error DevicePath `%s` must be an absolute path", d.DevicePath)}
		}
		vol, ok := volumes[d.Name]
		if !ok || vol.BlockDevicePath == "" {
			return nil, warnings, &deviceError{kind: mounts.ErrVolumeNotFound, msg: fmt.Sprintf("cannot find volume %q to pass into container %q", d.Name, container.Name)}
		}
		if links == nil {
			return nil, warnings, fmt.Errorf("container %q has volumeDevices but MakeBlockVolumes has no SymlinkChecker: %w", container.Name, mounts.ErrMissingDependency)
		}
		exists, err := links.IsSymlinkExist(vol.BlockDevicePath)
		if err != nil {
			return nil, warnings, err
		}
		if !exists {
			warnings = append(warnings, fmt.Sprintf("block device symlink %q of volume %q for container %q does not exist; device %q skipped", vol.BlockDevicePath, d.Name, container.Name, d.DevicePath))
			continue
		}
		perm := "mrw"
		if vol.ReadOnly {
			perm = "r"
		}
		devices = append(devices, DeviceInfo{PathOnHost: vol.BlockDevicePath, PathInContainer: d.DevicePath, Permissions: perm})
	}
	return devices, warnings, nil
}

// ToCRIDevices converts devices to CRI devices in the same order (kubelet: kuberuntime's makeDevices).
func ToCRIDevices(devices []DeviceInfo) []*runtimeapi.Device {
	out := make([]*runtimeapi.Device, len(devices))
	for i, d := range devices {
		out[i] = &runtimeapi.Device{HostPath: d.PathOnHost, ContainerPath: d.PathInContainer, Permissions: d.Permissions}
	}
	return out
}

// deviceError keeps kubelet's text while matching its category with errors.Is.
type deviceError struct {
	kind error
	msg  string
}

func (e *deviceError) Error() string { return e.msg }
func (e *deviceError) Unwrap() error { return e.kind }
