package resources_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/resources"
)

func TestComputePodQOS(t *testing.T) {
	guaranteed := ctr("g", rl("cpu", "1", "memory", "1Gi"), rl("cpu", "1", "memory", "1Gi"))
	bestEffort := ctr("be", nil, nil)
	withInit := func(p *v1.Pod, inits ...v1.Container) *v1.Pod {
		p.Spec.InitContainers = inits
		return p
	}
	withPodLevel := func(p *v1.Pod, r *v1.ResourceRequirements) *v1.Pod {
		p.Spec.Resources = r
		return p
	}
	withEphemeral := podOf(guaranteed)
	withEphemeral.Spec.EphemeralContainers = []v1.EphemeralContainer{{EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: "debug"}}}

	tests := []struct {
		name        string
		pod         *v1.Pod
		podLevelOff bool
		want        v1.PodQOSClass
	}{
		{name: "a pod without containers is BestEffort", pod: &v1.Pod{}, want: v1.PodQOSBestEffort},
		{name: "containers without requests or limits are BestEffort", pod: podOf(bestEffort, bestEffort), want: v1.PodQOSBestEffort},
		{name: "only non-compute resources still count as BestEffort", pod: podOf(ctr("gpu", rl("example.com/gpu", "1"), rl("example.com/gpu", "1"))), want: v1.PodQOSBestEffort},
		{name: "equal cpu and memory requests and limits are Guaranteed", pod: podOf(guaranteed, guaranteed), want: v1.PodQOSGuaranteed},
		{name: "limits alone make requests differ: Burstable", pod: podOf(ctr("l", nil, rl("cpu", "1", "memory", "1Gi"))), want: v1.PodQOSBurstable},
		{name: "cpu set but memory not is Burstable", pod: podOf(ctr("c", rl("cpu", "1"), rl("cpu", "1"))), want: v1.PodQOSBurstable},
		{name: "a Guaranteed and a BestEffort container make the pod Burstable", pod: podOf(guaranteed, bestEffort), want: v1.PodQOSBurstable},
		{name: "init containers count", pod: withInit(podOf(guaranteed), ctr("i", rl("memory", "1Gi"), nil)), want: v1.PodQOSBurstable},
		{name: "ephemeral containers do not count", pod: withEphemeral, want: v1.PodQOSGuaranteed},
		{
			name: "pod-level resources alone decide the class",
			pod:  withPodLevel(podOf(bestEffort), &v1.ResourceRequirements{Requests: rl("cpu", "1", "memory", "1Gi"), Limits: rl("cpu", "1", "memory", "1Gi")}),
			want: v1.PodQOSGuaranteed,
		},
		{
			name: "an empty pod-level resources struct makes the pod BestEffort",
			pod:  withPodLevel(podOf(guaranteed), &v1.ResourceRequirements{}),
			want: v1.PodQOSBestEffort,
		},
		{
			name:        "pod-level resources are ignored without the PodLevelResources gate",
			pod:         withPodLevel(podOf(guaranteed), &v1.ResourceRequirements{}),
			podLevelOff: true,
			want:        v1.PodQOSGuaranteed,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, resources.ComputePodQOS(tt.pod, !tt.podLevelOff))
			assert.Equal(t, tt.want, resources.GetPodQOS(tt.pod, !tt.podLevelOff))
		})
	}
}

func TestGetPodQOSUsesStatus(t *testing.T) {
	pod := podOf(ctr("be", nil, nil))
	pod.Status.QOSClass = v1.PodQOSGuaranteed
	assert.Equal(t, v1.PodQOSGuaranteed, resources.GetPodQOS(pod, true), "status.qosClass wins")
	assert.Equal(t, v1.PodQOSBestEffort, resources.ComputePodQOS(pod, true), "ComputePodQOS ignores the status")
}

func TestCriticalPods(t *testing.T) {
	prio := func(p int32) *int32 { return &p }
	tests := []struct {
		name                       string
		annotations                map[string]string
		priority                   *int32
		class                      string
		wantCritical, wantNodeCrit bool
	}{
		{name: "an ordinary pod is not critical"},
		{name: "a static pod is critical", annotations: map[string]string{"kubernetes.io/config.source": "file"}, wantCritical: true},
		{name: "an API-server pod is not static", annotations: map[string]string{"kubernetes.io/config.source": "api"}},
		{name: "a mirror pod is critical", annotations: map[string]string{"kubernetes.io/config.mirror": ""}, wantCritical: true},
		{name: "priority 2000000000 is critical", priority: prio(2000000000), wantCritical: true},
		{name: "priority 1999999999 is not critical", priority: prio(1999999999)},
		{name: "system-node-critical with critical priority is node-critical", priority: prio(2000001000), class: "system-node-critical", wantCritical: true, wantNodeCrit: true},
		{name: "system-node-critical without critical priority is not node-critical", priority: prio(1000), class: "system-node-critical"},
		{name: "system-cluster-critical is critical but not node-critical", priority: prio(2000000000), class: "system-cluster-critical", wantCritical: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := podOf(ctr("app", nil, nil))
			pod.Annotations = tt.annotations
			pod.Spec.Priority = tt.priority
			pod.Spec.PriorityClassName = tt.class
			assert.Equal(t, tt.wantCritical, resources.IsCriticalPod(pod))
			assert.Equal(t, tt.wantNodeCrit, resources.IsNodeCriticalPod(pod))
		})
	}
}

func TestPodLevelResourcesSet(t *testing.T) {
	tests := []struct {
		name                   string
		res                    *v1.ResourceRequirements
		wantSet, wantRequested bool
	}{
		{name: "nil pod-level resources are not set"},
		{name: "empty pod-level resources are not set", res: &v1.ResourceRequirements{}},
		{name: "unsupported names do not count", res: &v1.ResourceRequirements{Requests: rl("ephemeral-storage", "1Gi")}},
		{name: "a cpu request sets both", res: &v1.ResourceRequirements{Requests: rl("cpu", "1")}, wantSet: true, wantRequested: true},
		{name: "a hugepage limit sets resources but not requests", res: &v1.ResourceRequirements{Limits: rl("hugepages-2Mi", "2Mi")}, wantSet: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := podOf()
			pod.Spec.Resources = tt.res
			assert.Equal(t, tt.wantSet, resources.IsPodLevelResourcesSet(pod))
			assert.Equal(t, tt.wantRequested, resources.IsPodLevelRequestsSet(pod))
		})
	}
}
