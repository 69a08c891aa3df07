package configgen

import (
	"path"
	"strings"

	v1 "k8s.io/api/core/v1"
)

// CgroupDriver is how the node names cgroups: kubelet's --cgroup-driver.
type CgroupDriver string

// The cgroup drivers kubelet knows.
const (
	CgroupDriverCgroupfs CgroupDriver = "cgroupfs"
	CgroupDriverSystemd  CgroupDriver = "systemd"
)

// NodeCgroups is the node's cgroup layout, as kubelet's --cgroup-driver, --cgroup-root and
// --cgroups-per-qos set it.
type NodeCgroups struct {
	// Driver names the cgroups; empty means cgroupfs.
	Driver CgroupDriver
	// Root is kubelet's --cgroup-root; empty means "/".
	Root string
	// NoCgroupsPerQOS turns off QoS-class parents (--cgroups-per-qos=false); pods then get no
	// cgroup parent from kubelet.
	NoCgroupsPerQOS bool
}

// PodCgroupParent returns the sandbox's cgroup parent for a pod of the given QoS class (kubelet's
// GetPodCgroupParent): <root>/kubepods[/burstable|/besteffort]/pod<uid> in cgroupfs form, or the
// expanded slice path (/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid>.slice,
// dashes in names becoming underscores) with the systemd driver. A qos that is none of the three
// classes is placed as Guaranteed: kubelet would place the pod at the cgroup root.
func PodCgroupParent(pod *v1.Pod, qos v1.PodQOSClass, node NodeCgroups) string {
	pod = orEmptyPod(pod)
	if node.NoCgroupsPerQOS {
		return ""
	}
	if node.Driver != CgroupDriverSystemd && (node.Root == "" || node.Root == "/") && !strings.Contains(string(pod.UID), "/") {
		// The usual layout: path.Join has nothing to clean, so one concatenation gives its result.
		switch qos {
		case v1.PodQOSBurstable:
			return "/kubepods/burstable/pod" + string(pod.UID)
		case v1.PodQOSBestEffort:
			return "/kubepods/besteffort/pod" + string(pod.UID)
		}
		return "/kubepods/pod" + string(pod.UID)
	}
	if node.Driver == CgroupDriverSystemd {
		return systemdCgroupParent(node.Root, qos, string(pod.UID))
	}
	return cgroupfsParent(node.Root, qos, string(pod.UID))
}

// cgroupfsParent is PodCgroupParent's cgroupfs form under a cgroup root: "/" and the path.Join of
// the root's elements, kubepods, the QoS class's (none for Guaranteed) and pod<uid>. When no
// element is "." or ".." and the UID has no slash, the join has nothing to clean and is written
// in one buffer.
func cgroupfsParent(root string, qos v1.PodQOSClass, uid string) string {
	var space [256]byte
	b := space[:0]
	plain := !strings.Contains(uid, "/")
	for rest := root; rest != "" && plain; {
		var part string
		part, rest, _ = strings.Cut(rest, "/")
		switch part {
		case "":
		case ".", "..":
			plain = false
		default:
			b = append(append(b, '/'), part...)
		}
	}
	if plain {
		b = append(b, "/kubepods"...)
		switch qos {
		case v1.PodQOSBurstable:
			b = append(b, "/burstable"...)
		case v1.PodQOSBestEffort:
			b = append(b, "/besteffort"...)
		}
		return string(append(append(b, "/pod"...), uid...))
	}
	var parts []string
	for _, p := range strings.Split(root, "/") {
		if p != "" {
			parts = append(parts, p)
		}
	}
	parts = append(parts, "kubepods")
	switch qos {
	case v1.PodQOSBurstable:
		parts = append(parts, "burstable")
	case v1.PodQOSBestEffort:
		parts = append(parts, "besteffort")
	}
	parts = append(parts, "pod"+uid)
	return "/" + path.Join(parts...)
}

// systemdCgroupParent is PodCgroupParent's systemd form. A systemd slice name lists its ancestors
// joined by dashes, so dashes inside a name become underscores, and the cgroupfs path nests every
// prefix: /a.slice/a-b.slice/a-b-c.slice. The names are the cgroup root's non-empty elements,
// kubepods, the QoS class's (none for Guaranteed) and pod<uid>; the path is written in one buffer.
func systemdCgroupParent(root string, qos v1.PodQOSClass, uid string) string {
	var nameSpace, outSpace [256]byte
	name, out := nameSpace[:0], outSpace[:0]
	// add appends the slice of the next name, prefix+"-"+name.
	add := func(prefix, part string) {
		if len(name) > 0 {
			name = append(name, '-')
		}
		name = append(name, prefix...)
		for i := 0; i < len(part); i++ {
			c := part[i]
			if c == '-' {
				c = '_'
			}
			name = append(name, c)
		}
		out = append(out, '/')
		out = append(out, name...)
		out = append(out, ".slice"...)
	}
	for rest := root; rest != ""; {
		var part string
		part, rest, _ = strings.Cut(rest, "/")
		if part != "" {
			add("", part)
		}
	}
	add("", "kubepods")
	switch qos {
	case v1.PodQOSBurstable:
		add("", "burstable")
	case v1.PodQOSBestEffort:
		add("", "besteffort")
	}
	add("pod", uid)
	return string(out)
}
