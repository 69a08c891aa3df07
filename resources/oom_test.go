package resources_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/resources"
)

// standardMemory is the node size kubelet's own OOM-score tests use.
const standardMemory = int64(8000000000)

func TestGetContainerOOMScoreAdjust(t *testing.T) {
	burstable := func(memReq string) *v1.Pod {
		return podOf(ctr("app", rl("memory", memReq), rl("memory", "9G")))
	}
	nodeCritical := burstable("1G")
	nodeCritical.Spec.Priority = ptr.To(int32(2000001000))
	nodeCritical.Spec.PriorityClassName = "system-node-critical"
	clusterCritical := burstable("1G")
	clusterCritical.Spec.Priority = ptr.To(int32(2000000000))
	clusterCritical.Spec.PriorityClassName = "system-cluster-critical"
	nodeCriticalNameOnly := burstable("1G")
	nodeCriticalNameOnly.Spec.PriorityClassName = "system-node-critical"
	staticNodeCritical := burstable("1G")
	staticNodeCritical.Annotations = map[string]string{"kubernetes.io/config.source": "file"}
	staticNodeCritical.Spec.PriorityClassName = "system-node-critical"
	apiSourced := burstable("1G")
	apiSourced.Annotations = map[string]string{"kubernetes.io/config.source": "api"}
	apiSourced.Spec.PriorityClassName = "system-node-critical"
	mirrorNodeCritical := burstable("1G")
	mirrorNodeCritical.Annotations = map[string]string{"kubernetes.io/config.mirror": "abc"}
	mirrorNodeCritical.Spec.PriorityClassName = "system-node-critical"
	statusGuaranteed := burstable("1G")
	statusGuaranteed.Status.QOSClass = v1.PodQOSGuaranteed

	// Sidecar pods: a 1G regular container (875), init containers of several sizes.
	withInit := func(inits ...v1.Container) *v1.Pod {
		p := podOf(ctr("main", rl("memory", "1G"), rl("memory", "9G")))
		p.Spec.InitContainers = inits
		return p
	}
	bigSidecar := withInit(ctr("init", rl("memory", "1G"), rl("memory", "9G")), sidecar("side", rl("memory", "4G"), rl("memory", "9G")))
	smallSidecar := withInit(sidecar("side", rl("memory", "400M"), rl("memory", "9G")))
	plainInit := withInit(ctr("init", rl("memory", "400M"), rl("memory", "9G")))
	onlySidecars := &v1.Pod{Spec: v1.PodSpec{InitContainers: []v1.Container{sidecar("side", rl("memory", "400M"), rl("memory", "9G"))}}}

	// Pod-level requests of 2G; containers claim 1G, so each of the 2 containers gets 500M more.
	podLevel := podOf(
		ctr("big", rl("cpu", "3m", "memory", "1G"), rl("cpu", "5m", "memory", "1G")),
		ctr("none", nil, nil),
	)
	podLevel.Spec.Resources = &v1.ResourceRequirements{
		Requests: rl("cpu", "5m", "memory", "2G"),
		Limits:   rl("cpu", "5m", "memory", "2000001000"),
	}
	podLevelWithSidecar := podLevel.DeepCopy()
	podLevelWithSidecar.Spec.InitContainers = []v1.Container{sidecar("side", rl("memory", "1G"), nil)}
	podLevelWithSidecar.Spec.Resources.Requests = rl("cpu", "5m", "memory", "3500M")
	podLevelGuaranteed := podOf(ctr("a", nil, nil), ctr("b", nil, nil))
	podLevelGuaranteed.Spec.Resources = &v1.ResourceRequirements{
		Requests: rl("cpu", "5m", "memory", "2G"),
		Limits:   rl("cpu", "5m", "memory", "2G"),
	}
	// Pod-level request of 200M below the containers' 250M: nothing is left to share.
	podLevelBelowContainers := podOf(ctr("a", rl("memory", "250M"), nil), ctr("b", nil, nil))
	podLevelBelowContainers.Spec.InitContainers = []v1.Container{sidecar("side", rl("memory", "400M"), nil)}
	podLevelBelowContainers.Spec.Resources = &v1.ResourceRequirements{Requests: rl("memory", "200M")}
	podLevelLimitsOnly := podOf(ctr("a", rl("memory", "1G"), nil))
	podLevelLimitsOnly.Spec.Resources = &v1.ResourceRequirements{Limits: rl("memory", "4G")}

	tests := []struct {
		name        string
		pod         *v1.Pod
		container   string
		capacity    int64
		podLevelOff bool
		want        int64
	}{
		{name: "Guaranteed pods get -997", pod: podOf(ctr("app", rl("cpu", "5m", "memory", "10G"), rl("cpu", "5m", "memory", "10G"))), want: -997},
		{name: "BestEffort pods get 1000", pod: podOf(ctr("app", nil, nil)), want: 1000},
		{name: "a cpu limit alone makes the pod Burstable with no memory request: 999", pod: podOf(ctr("app", nil, rl("cpu", "10"))), want: 999},
		{name: "Burstable score falls with the memory request", pod: burstable("4G"), want: 500},
		{name: "Burstable score is truncated, not rounded", pod: burstable("999999999"), want: 876},
		{name: "Burstable score is clamped to at least 3", pod: burstable("7999999999"), want: 3},
		{name: "a request above node memory is clamped to 3", pod: burstable("20G"), want: 3},
		{name: "a tiny request scores 999, never 1000", pod: burstable("1"), want: 999},
		{name: "node-critical pods get -997 whatever their QoS", pod: nodeCritical, want: -997},
		{name: "system-cluster-critical pods are not node-critical", pod: clusterCritical, want: 875},
		{name: "the system-node-critical class name alone is not enough", pod: nodeCriticalNameOnly, want: 875},
		{name: "a static pod with the system-node-critical class is node-critical", pod: staticNodeCritical, want: -997},
		{name: "an API-server pod is not static", pod: apiSourced, want: 875},
		{name: "a mirror pod with the system-node-critical class is node-critical", pod: mirrorNodeCritical, want: -997},
		{name: "status.qosClass takes precedence over the spec", pod: statusGuaranteed, want: -997},
		{name: "a sidecar never scores above the smallest regular container", pod: bigSidecar, container: "side", want: 500},
		{name: "a small sidecar is capped at the regular container's score", pod: smallSidecar, container: "side", want: 875},
		{name: "a regular init container is not capped", pod: plainInit, container: "init", want: 950},
		{name: "a pod without regular containers leaves its sidecar uncapped", pod: onlySidecars, container: "side", want: 950},
		{name: "pod-level requests spread over the containers", pod: podLevel, container: "big", want: 813},
		{name: "pod-level requests give a container without requests a share", pod: podLevel, container: "none", want: 938},
		{name: "pod-level requests are ignored without the PodLevelResources gate", pod: podLevel, container: "big", podLevelOff: true, want: 875},
		{name: "a sidecar gets its share of the pod-level request too", pod: podLevelWithSidecar, container: "side", want: 813},
		{name: "pod-level Guaranteed resources make every container -997", pod: podLevelGuaranteed, container: "b", want: -997},
		{name: "a pod-level request below the containers' total gives no negative share", pod: podLevelBelowContainers, container: "a", want: 969},
		{name: "a pod-level request below the containers' total leaves a container without requests at 999", pod: podLevelBelowContainers, container: "b", want: 999},
		{name: "a sidecar gets no negative share of a pod-level request below the containers' total", pod: podLevelBelowContainers, container: "side", want: 950},
		{name: "pod-level limits without requests do not change the formula", pod: podLevelLimitsOnly, container: "a", want: 875},
		{name: "a request too large for 1000*request in int64 still scores 3", pod: burstable("10P"), want: 3},
		{name: "a negative request scores 999, not above 1000", pod: burstable("-1G"), want: 999},
		{name: "kubelet's 16GB-node Burstable example scores 970", pod: podOf(ctr("c1", rl("cpu", "250m", "memory", "500Mi"), rl("cpu", "500m", "memory", "750Mi"))), capacity: 17179860387, want: 970},
		{name: "a non-positive capacity scores 999 instead of dividing by zero", pod: burstable("1G"), capacity: -1, want: 999},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			capacity := tt.capacity
			if capacity == 0 {
				capacity = standardMemory
			}
			c := findContainer(tt.pod, tt.container)
			got := resources.GetContainerOOMScoreAdjust(tt.pod, c, capacity, !tt.podLevelOff)
			assert.Equal(t, tt.want, got)
		})
	}
}

// findContainer returns the named init or regular container, or the first regular one.
func findContainer(pod *v1.Pod, name string) *v1.Container {
	for _, list := range [][]v1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range list {
			if list[i].Name == name {
				return &list[i]
			}
		}
	}
	return &pod.Spec.Containers[0]
}
