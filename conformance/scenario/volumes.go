package scenario

import (
	"path/filepath"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/offline"
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
	missing := map[string]bool{}
	for _, m := range s.Missing {
		missing[m] = true
	}
	var out []MountedVolume
	for _, vol := range pod.Spec.Volumes {
		if missing[vol.Name] {
			continue
		}
		// Where and how the offline node takes kubelet to mount it, before the scenario's own word.
		m := offline.MountedVolume(root, pod, &vol)
		v := MountedVolume{Name: vol.Name, Path: m.HostPath, ReadOnly: m.ReadOnly, SELinuxRelabel: m.SELinuxRelabel, InnerVolumeName: m.InnerVolumeName}
		if m.Image != nil {
			v.Image = m.Image.Image
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
