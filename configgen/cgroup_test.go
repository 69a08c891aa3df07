package configgen

import (
	"path"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func TestPodCgroupParent(t *testing.T) {
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{UID: "1234-abcd-5678-efgh"}}
	tests := []struct {
		name string
		qos  v1.PodQOSClass
		node NodeCgroups
		want string
	}{
		{"cgroupfs Guaranteed pods sit directly under kubepods", v1.PodQOSGuaranteed, NodeCgroups{}, "/kubepods/pod1234-abcd-5678-efgh"},
		{"cgroupfs Burstable", v1.PodQOSBurstable, NodeCgroups{Driver: CgroupDriverCgroupfs}, "/kubepods/burstable/pod1234-abcd-5678-efgh"},
		{"cgroupfs BestEffort", v1.PodQOSBestEffort, NodeCgroups{}, "/kubepods/besteffort/pod1234-abcd-5678-efgh"},
		{"cgroupfs with a cgroup root", v1.PodQOSBurstable, NodeCgroups{Root: "/custom/"}, "/custom/kubepods/burstable/pod1234-abcd-5678-efgh"},
		{"systemd expands the slice and turns dashes into underscores", v1.PodQOSBurstable, NodeCgroups{Driver: CgroupDriverSystemd},
			"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1234_abcd_5678_efgh.slice"},
		{"systemd Guaranteed", v1.PodQOSGuaranteed, NodeCgroups{Driver: CgroupDriverSystemd},
			"/kubepods.slice/kubepods-pod1234_abcd_5678_efgh.slice"},
		{"cgroups-per-qos off gives no parent", v1.PodQOSBurstable, NodeCgroups{NoCgroupsPerQOS: true}, ""},
		{"a class that is no QoS class stays inside kubepods, placed as Guaranteed", "Bogus", NodeCgroups{}, "/kubepods/pod1234-abcd-5678-efgh"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, PodCgroupParent(pod, tt.qos, tt.node))
		})
	}
}

// referenceSystemdParent is the systemd expansion written plainly: the names' parts with dashes
// turned into underscores, each slice named by its ancestors' parts joined by dashes.
func referenceSystemdParent(root string, qos v1.PodQOSClass, uid string) string {
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
	out, prefix := "", ""
	for _, p := range parts {
		if prefix != "" {
			prefix += "-"
		}
		prefix += strings.ReplaceAll(p, "-", "_")
		out += "/" + prefix + ".slice"
	}
	return out
}

func TestPodCgroupParentSystemdMatchesItsDefinition(t *testing.T) {
	for _, root := range []string{"", "/", "/custom", "custom-root/", "//a-b//c/", strings.Repeat("/long-name", 40)} {
		for _, qos := range []v1.PodQOSClass{v1.PodQOSGuaranteed, v1.PodQOSBurstable, v1.PodQOSBestEffort, "Bogus"} {
			for _, uid := range []string{"", "1234-abcd-5678-efgh", "--", strings.Repeat("u-", 100)} {
				pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{UID: types.UID(uid)}}
				assert.Equal(t, referenceSystemdParent(root, qos, uid),
					PodCgroupParent(pod, qos, NodeCgroups{Driver: CgroupDriverSystemd, Root: root}), "root %q, qos %q, uid %q", root, qos, uid)
			}
		}
	}
}

// referenceCgroupfsParent is the cgroupfs path as kubelet's cgroupfs driver names it: "/" and the
// path.Join of every part.
func referenceCgroupfsParent(root string, qos v1.PodQOSClass, uid string) string {
	parts := strings.Split(root, "/")
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

func TestPodCgroupParentCgroupfsMatchesItsDefinition(t *testing.T) {
	for _, root := range []string{"", "/", "/custom", "custom/", "//a-b//c/", "/a/./b", "/a/../..", "..", ".", "/.hidden/..x",
		strings.Repeat("/long-name", 40)} {
		for _, qos := range []v1.PodQOSClass{v1.PodQOSGuaranteed, v1.PodQOSBurstable, v1.PodQOSBestEffort, "Bogus"} {
			for _, uid := range []string{"", "1234-abcd-5678-efgh", "a/../../b", "/x/", ".."} {
				pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{UID: types.UID(uid)}}
				assert.Equal(t, referenceCgroupfsParent(root, qos, uid),
					PodCgroupParent(pod, qos, NodeCgroups{Root: root}), "root %q, qos %q, uid %q", root, qos, uid)
			}
		}
	}
}

func BenchmarkPodCgroupParent(b *testing.B) {
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{UID: "3f0d6b8e-5a8c-4d7e-9b1a-2c4e6f8a0b1c"}}
	for _, node := range []NodeCgroups{{}, {Driver: CgroupDriverSystemd}, {Root: "/custom"}} {
		b.Run(string(node.Driver)+node.Root, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if PodCgroupParent(pod, v1.PodQOSBurstable, node) == "" {
					b.Fatal("no parent")
				}
			}
		})
	}
}
