package offline

import (
	"os"
	"path/filepath"
	"strings"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/mounts"
)

// Volumes returns the pod's volumes mounted where kubelet mounts them (MountedVolume), and
// creates their directories in Files and HostUtils, empty; a nil Files or HostUtils, or a nil
// Node, is skipped.
func (n *Node) Volumes(pod *v1.Pod) mounts.VolumeMap {
	if pod == nil {
		return mounts.VolumeMap{}
	}
	if n == nil {
		n = &Node{}
	}
	vm := make(mounts.VolumeMap, len(pod.Spec.Volumes))
	for i := range pod.Spec.Volumes {
		vol := &pod.Spec.Volumes[i]
		v := MountedVolume(n.Options.RootDir, pod, vol)
		if v.HostPath != "" && n.Files != nil {
			_ = n.Files.MkdirAll(v.HostPath, 0o777)
		}
		if v.HostPath != "" && n.HostUtils != nil {
			n.HostUtils.AddPath(v.HostPath, os.ModeDir|0o777)
		}
		vm[vol.Name] = v
	}
	return vm
}

// MountedVolume returns vol of pod as kubelet's volume manager reports it mounted under rootDir
// (kubelet's --root-dir; empty means configgen.DefaultRootDir): at
// <rootDir>/pods/<uid>/volumes/<plugin>/<name>, read-only and relabelled as its plugin reports.
// A hostPath volume is its own path; a persistentVolumeClaim or ephemeral volume is a CSI mount
// whose PersistentVolume is named as the claim (pvc-<pod>-<volume> for an ephemeral one); an
// image volume is Volume.Image; a block-mode claim is not modelled (set BlockDevicePath
// yourself). It touches nothing; a nil pod or volume is the zero Volume.
func MountedVolume(rootDir string, pod *v1.Pod, vol *v1.Volume) mounts.Volume {
	var v mounts.Volume
	if pod == nil || vol == nil {
		return v
	}
	if rootDir == "" {
		rootDir = configgen.DefaultRootDir
	}
	podVolumes := filepath.Join(rootDir, "pods", string(pod.UID), "volumes")
	plugin := ""
	switch src := vol.VolumeSource; {
	case src.EmptyDir != nil:
		plugin = "kubernetes.io~empty-dir"
		v.SELinuxRelabel = true
	case src.ConfigMap != nil:
		plugin, v.ReadOnly, v.SELinuxRelabel = "kubernetes.io~configmap", true, true
	case src.Secret != nil:
		plugin, v.ReadOnly, v.SELinuxRelabel = "kubernetes.io~secret", true, true
	case src.DownwardAPI != nil:
		plugin, v.ReadOnly, v.SELinuxRelabel = "kubernetes.io~downward-api", true, true
	case src.Projected != nil:
		plugin, v.ReadOnly, v.SELinuxRelabel = "kubernetes.io~projected", true, true
	case src.HostPath != nil:
		v.HostPath = src.HostPath.Path
	case src.PersistentVolumeClaim != nil:
		v.HostPath = filepath.Join(podVolumes, "kubernetes.io~csi", src.PersistentVolumeClaim.ClaimName, "mount")
		v.InnerVolumeName = src.PersistentVolumeClaim.ClaimName
		v.ReadOnly = src.PersistentVolumeClaim.ReadOnly
		v.SELinuxRelabel = !v.ReadOnly // kubelet's CSI mounter is managed only when writable
	case src.Ephemeral != nil:
		v.HostPath = filepath.Join(podVolumes, "kubernetes.io~csi", "pvc-"+pod.Name+"-"+vol.Name, "mount")
		v.SELinuxRelabel = true
	case src.Image != nil:
		// Read-only, as kubelet's image plugin reports its volumes.
		v.Image = &runtimeapi.ImageSpec{Image: src.Image.Reference, UserSpecifiedImage: src.Image.Reference}
		v.ReadOnly = true
	default:
		plugin = "kubernetes.io~" + strings.ToLower(volumeKind(src))
	}
	if plugin != "" {
		v.HostPath = filepath.Join(podVolumes, plugin, vol.Name)
	}
	return v
}

// volumeKind names an uncommon volume source for its directory.
func volumeKind(src v1.VolumeSource) string {
	switch {
	case src.NFS != nil:
		return "nfs"
	case src.CSI != nil:
		return "csi"
	case src.ISCSI != nil:
		return "iscsi"
	case src.FC != nil:
		return "fc"
	default:
		return "volume"
	}
}
