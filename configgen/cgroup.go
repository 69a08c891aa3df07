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
	var parts []string
	for _, p := range strings.Split(node.Root, "/") {
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
	parts = append(parts, "pod"+string(pod.UID))

	if node.Driver != CgroupDriverSystemd {
		return "/" + path.Join(parts...)
	}
	// A systemd slice name lists its ancestors joined by dashes, so dashes inside a name become
	// underscores, and the cgroupfs path nests every prefix: /a.slice/a-b.slice/a-b-c.slice.
	var b strings.Builder
	prefix := ""
	for _, p := range parts {
		p = strings.ReplaceAll(p, "-", "_")
		if prefix != "" {
			prefix += "-"
		}
		prefix += p
		b.WriteString("/" + prefix + ".slice")
	}
	return b.String()
}
