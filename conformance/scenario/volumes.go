package scenario

import (
	"path/filepath"
	"strings"

	v1 "k8s.io/api/core/v1"
)

// MountedVolume is one pod volume as the node mounted it, given to both sides.
type MountedVolume struct {
	Name string
	// Path is the mount path; empty for image and block volumes and for EmptyPath.
	Path string
	// EmptyPath says the volume is mounted but its path is empty.
	EmptyPath       bool
	ReadOnly        bool
	SELinuxRelabel  bool
	SELinuxLabeled  bool
	BlockDevice     string
	InnerVolumeName string
	// Image is the image reference of an image volume.
	Image string
}

// MountedVolumes returns the pod's mounted volumes under root (kubelet's --root-dir), in the
// pod's order, without those listed in Missing.
func (s *Scenario) MountedVolumes(root string) []MountedVolume {
	pod := s.Pod
	podVolumes := filepath.Join(root, "pods", string(pod.UID), "volumes")
	missing := map[string]bool{}
	for _, m := range s.Missing {
		missing[m] = true
	}
	var out []MountedVolume
	for _, vol := range pod.Spec.Volumes {
		if missing[vol.Name] {
			continue
		}
		v := MountedVolume{Name: vol.Name}
		plugin := ""
		switch src := vol.VolumeSource; {
		case src.EmptyDir != nil:
			plugin, v.SELinuxRelabel = "kubernetes.io~empty-dir", true
		case src.ConfigMap != nil:
			plugin, v.ReadOnly, v.SELinuxRelabel = "kubernetes.io~configmap", true, true
		case src.Secret != nil:
			plugin, v.ReadOnly, v.SELinuxRelabel = "kubernetes.io~secret", true, true
		case src.DownwardAPI != nil:
			plugin, v.ReadOnly, v.SELinuxRelabel = "kubernetes.io~downward-api", true, true
		case src.Projected != nil:
			plugin, v.ReadOnly, v.SELinuxRelabel = "kubernetes.io~projected", true, true
		case src.HostPath != nil:
			v.Path = src.HostPath.Path
		case src.PersistentVolumeClaim != nil:
			v.Path = filepath.Join(podVolumes, "kubernetes.io~csi", src.PersistentVolumeClaim.ClaimName, "mount")
			v.InnerVolumeName = src.PersistentVolumeClaim.ClaimName
			v.ReadOnly = src.PersistentVolumeClaim.ReadOnly
			v.SELinuxRelabel = !v.ReadOnly
		case src.Ephemeral != nil:
			v.Path = filepath.Join(podVolumes, "kubernetes.io~csi", "pvc-"+pod.Name+"-"+vol.Name, "mount")
			v.SELinuxRelabel = true
		case src.Image != nil:
			// Kubelet's image plugin reports its volumes read-only.
			v.Image, v.ReadOnly = src.Image.Reference, true
		default:
			plugin = "kubernetes.io~other"
		}
		if plugin != "" {
			v.Path = filepath.Join(podVolumes, plugin, vol.Name)
		}
		if o, ok := s.Volumes[vol.Name]; ok {
			if o.HostPath != "" {
				v.Path = o.HostPath
			}
			if o.EmptyPath {
				v.Path, v.EmptyPath = "", true
			}
			if o.ReadOnly != nil {
				v.ReadOnly = *o.ReadOnly
			}
			if o.SELinuxRelabel != nil {
				v.SELinuxRelabel = *o.SELinuxRelabel
			}
			v.SELinuxLabeled = o.SELinuxLabeled
			if o.BlockDevice != "" {
				v.BlockDevice, v.Path = filepath.Join(root, "pods", string(pod.UID), "volumeDevices", "kubernetes.io~csi", o.BlockDevice), ""
			}
			if o.InnerVolumeName != "" {
				v.InnerVolumeName = o.InnerVolumeName
			}
		}
		out = append(out, v)
	}
	return out
}

// ExistingPaths returns the directories that exist on the node: every mounted volume's path and
// the Paths entries, resolved against their volume.
func (s *Scenario) ExistingPaths(volumes []MountedVolume) []string {
	byName := map[string]string{}
	var out []string
	for _, v := range volumes {
		if v.Path != "" {
			byName[v.Name] = v.Path
			out = append(out, v.Path)
		}
	}
	for _, p := range s.Paths {
		name, rest, _ := strings.Cut(p, "/")
		if base, ok := byName[name]; ok {
			for d := filepath.Join(base, rest); d != base && d != "/" && d != "."; d = filepath.Dir(d) {
				out = append(out, d)
			}
		}
	}
	return out
}

// HasImageVolume reports whether the pod has an image volume.
func HasImageVolume(pod *v1.Pod) bool {
	for _, v := range pod.Spec.Volumes {
		if v.Image != nil {
			return true
		}
	}
	return false
}

// FilePaths returns the host path of every entry of Files, resolved against its volume; entries
// whose volume is not mounted are left out.
func (s *Scenario) FilePaths(volumes []MountedVolume) map[string]string {
	byName := map[string]string{}
	for _, v := range volumes {
		if v.Path != "" {
			byName[v.Name] = v.Path
		}
	}
	out := map[string]string{}
	for p, content := range s.Files {
		name, rest, _ := strings.Cut(p, "/")
		if base, ok := byName[name]; ok {
			out[filepath.Join(base, rest)] = content
		}
	}
	return out
}
