package mounts

import (
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// imageMounterType is how kubelet's errors name the image volume plugin's mounter, whose path is
// always empty.
const imageMounterType = "*image.imagePlugin"

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
	// Kubelet's image plugin reports its volumes read-only: set ReadOnly with it (containerd
	// 2.x refuses an image mount that is not read-only).
	Image *runtimeapi.ImageSpec
	// MounterType names the volume plugin's mounter as kubelet's errors print it, the Go type of
	// its volume.Mounter (e.g. "*emptydir.emptyDir"). Setting it says the volume is mounted even
	// when HostPath is empty: a volumeMount of such a volume then fails with kubelet's
	// "path is empty <MounterType>" (ErrEmptyVolumePath) instead of "cannot find volume".
	// Empty for image volumes means "*image.imagePlugin".
	MounterType string
}

// VolumeMap holds the pod's prepared volumes by pod volume name (kubelet: kubecontainer.VolumeMap).
type VolumeMap map[string]Volume

// Mountable reports whether the volume is mounted for the pod (kubelet: a VolumeInfo with a
// non-nil Mounter): it has a host path, is an image volume, or names its mounter.
func (v Volume) Mountable() bool { return v.HostPath != "" || v.Image != nil || v.MounterType != "" }

// GetPath returns the volume's host path, or kubelet's volumeutil.GetPath error,
// "path is empty <mounter type>" (ErrEmptyVolumePath), when it has none.
func (v Volume) GetPath() (string, error) {
	if v.HostPath != "" {
		return v.HostPath, nil
	}
	mounter := v.MounterType
	if mounter == "" && v.Image != nil {
		mounter = imageMounterType
	}
	return "", newError(ErrEmptyVolumePath, "path is empty "+mounter, nil)
}
