package configgen

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
