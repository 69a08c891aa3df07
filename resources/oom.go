package resources

import (
	"math"
	"math/bits"

	v1 "k8s.io/api/core/v1"
)

const (
	guaranteedOOMScoreAdj = -997
	besteffortOOMScoreAdj = 1000
)

// getContainerOOMScoreAdjust returns the oom_score_adj of container in pod on a node with
// memoryCapacity bytes, as kubelet's qos.GetContainerOOMScoreAdjust does:
//   - node-critical pods (isNodeCriticalPod) and Guaranteed pods get -997, BestEffort pods 1000;
//   - a Burstable container gets 1000 - 1000*request/capacity, where request is its memory
//     request plus, with podLevelResources and pod-level requests, an equal share of the pod's
//     memory request that no container claims (none when the containers claim more than the pod);
//   - a restartable init container (sidecar) never scores above the regular container with the
//     smallest memory request;
//   - the result is at least 3 (so Guaranteed stays below) and 1000 becomes 999 (so BestEffort
//     dies first).
//
// Unlike kubelet, the product 1000*request cannot overflow, and negative requests (which the API
// server rejects) score 999 rather than above 1000; for every valid pod the result is kubelet's.
//
// A non-positive memoryCapacity, which kubelet never has, gives 999 for Burstable containers
// instead of kubelet's division by zero.
func getContainerOOMScoreAdjust(pod *v1.Pod, container *v1.Container, memoryCapacity int64, podLevelResources bool) int64 {
	pod, container = orEmptyPod(pod), orEmptyContainer(container)
	return oomScoreAdjust(pod, container, memoryCapacity, podLevelResources, GetPodQOS(pod, podLevelResources))
}

func oomScoreAdjust(pod *v1.Pod, container *v1.Container, memoryCapacity int64, podLevelResources bool, qos v1.PodQOSClass) int64 {
	if isNodeCriticalPod(pod) {
		return guaranteedOOMScoreAdj
	}
	switch qos {
	case v1.PodQOSGuaranteed:
		return guaranteedOOMScoreAdj
	case v1.PodQOSBestEffort:
		return besteffortOOMScoreAdj
	}
	if memoryCapacity <= 0 {
		return besteffortOOMScoreAdj - 1
	}

	memReq := memoryValue(container.Resources.Requests)
	var share int64
	podLevel := podLevelResources && isPodLevelRequestsSet(pod)
	if podLevel {
		share = remainingPodMemReqPerContainer(pod)
	}
	adj := 1000 - memoryScore(saturatingAdd(memReq, share), memoryCapacity)

	if isSidecarContainer(pod, container) && len(pod.Spec.Containers) > 0 {
		minReq := minRegularContainerMemory(pod)
		if podLevel {
			minReq = saturatingAdd(minReq, share)
		}
		if capAdj := 1000 - memoryScore(minReq, memoryCapacity); adj > capAdj {
			adj = capAdj
		}
	}

	if adj < 1000+guaranteedOOMScoreAdj {
		return 1000 + guaranteedOOMScoreAdj
	}
	// Only a negative request, which the API server rejects, can score above 1000.
	if adj >= besteffortOOMScoreAdj {
		return besteffortOOMScoreAdj - 1
	}
	return adj
}

// memoryScore is 1000*request/capacity truncated toward zero, computed in 128 bits: kubelet's
// int64 product overflows for requests above about 9.2 PB and then yields scores outside
// [-1000, 1000] that runtimes reject. Results that do not fit are saturated.
func memoryScore(request, capacity int64) int64 {
	neg := request < 0
	abs := uint64(request)
	if neg {
		abs = -abs
	}
	hi, lo := bits.Mul64(abs, 1000)
	if hi >= uint64(capacity) {
		if neg {
			return math.MinInt64 / 2
		}
		return math.MaxInt64 / 2
	}
	q, _ := bits.Div64(hi, lo, uint64(capacity))
	q = min(q, math.MaxInt64/2)
	if neg {
		return -int64(q)
	}
	return int64(q)
}

// saturatingAdd adds without wrapping around.
func saturatingAdd(a, b int64) int64 {
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && s >= 0:
		return math.MinInt64
	}
	return s
}

// memoryValue is list's memory in bytes, 0 when absent.
func memoryValue(list v1.ResourceList) int64 {
	q, ok := list[v1.ResourceMemory]
	if !ok {
		return 0
	}
	return q.Value()
}

// isSidecarContainer reports whether container is a restartable init container of pod.
func isSidecarContainer(pod *v1.Pod, container *v1.Container) bool {
	if !isRestartableInitContainer(container) {
		return false
	}
	for i := range pod.Spec.InitContainers {
		if pod.Spec.InitContainers[i].Name == container.Name {
			return true
		}
	}
	return false
}

// minRegularContainerMemory is the smallest memory request among the regular containers; the
// caller makes sure there is at least one.
func minRegularContainerMemory(pod *v1.Pod) int64 {
	m := memoryValue(pod.Spec.Containers[0].Resources.Requests)
	for i := 1; i < len(pod.Spec.Containers); i++ {
		m = min(m, memoryValue(pod.Spec.Containers[i].Resources.Requests))
	}
	return m
}

// remainingPodMemReqPerContainer divides the part of the pod-level memory request that the
// containers' aggregated requests leave unclaimed equally among all init and regular containers.
// A pod-level request below the containers' total leaves nothing to share: the share is never
// negative, as in kubelet's helper of the same name.
func remainingPodMemReqPerContainer(pod *v1.Pod) int64 {
	podReq, ok := pod.Spec.Resources.Requests[v1.ResourceMemory]
	if !ok || podReq.IsZero() {
		return 0
	}
	n := int64(len(pod.Spec.Containers) + len(pod.Spec.InitContainers))
	if n == 0 {
		return 0
	}
	agg := aggregate(pod, requestsOf)
	return max(podReq.Value()-agg.mem.Value(), 0) / n
}
