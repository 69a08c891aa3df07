package mounts

import (
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// Volume is what the node has prepared for one pod volume: kubelet's VolumeInfo reduced to the facts
// that container-config generation reads.
type Volume struct {
	// HostPath is where the volume is mounted on the host (kubelet: Mounter.GetPath()). Empty for
	// block volumes and image volumes.
	HostPath string
	// ReadOnly says the volume must be mounted read-only whatever the volumeMount says
	// (kubelet: Mounter.GetAttributes().ReadOnly).
	ReadOnly bool
	// SELinuxRelabel says the runtime should relabel the volume
	// (kubelet: attrs.Managed && attrs.SELinuxRelabel && !SELinuxLabeled).
	SELinuxRelabel bool
	// BlockDevicePath is the host path of the block device's symlink for this pod (kubelet: the
	// BlockVolumeMapper's GetPodDeviceMapPath, joined). Empty when the volume is not a block volume.
	BlockDevicePath string
	// InnerVolumeName names the volume's directory under <podDir>/volume-subpaths (kubelet:
	// InnerVolumeSpecName, the PV name for a PVC). Empty means the VolumeMap key.
	InnerVolumeName string
	// Image is set for image volumes: the runtime mounts the image, and HostPath is unused.
	Image *runtimeapi.ImageSpec
}

// VolumeMap holds the pod's prepared volumes by pod volume name (kubelet: kubecontainer.VolumeMap).
type VolumeMap map[string]Volume

// Mountable reports whether the volume can back a volumeMount: it has a host path or is an image
// volume (kubelet: a VolumeInfo with a non-nil Mounter).
func (v Volume) Mountable() bool { return v.HostPath != "" || v.Image != nil }
