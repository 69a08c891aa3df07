package defaults

import (
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podconfig/podconfig/internal/resourcelist"
)

// milliScale is the precision the API server keeps in a resource list (SetDefaults_ResourceList).
const milliScale = resource.Milli

// roundResourceList mirrors SetDefaults_ResourceList: every quantity is rounded up to milli
// precision, so 0.0001 cpu becomes 1m.
func roundResourceList(list v1.ResourceList) {
	for name, q := range list {
		q.RoundUp(milliScale)
		list[name] = q
	}
}

// requestsFromLimits is SetDefaults_Pod's first rule: a container with limits gets a request equal
// to the limit for each resource it has no request for. A non-nil Limits, even empty, makes
// Requests non-nil, as upstream.
func requestsFromLimits(r *v1.ResourceRequirements) {
	if r.Limits == nil {
		return
	}
	if r.Requests == nil {
		r.Requests = make(v1.ResourceList, len(r.Limits))
	}
	for name, limit := range r.Limits {
		if _, ok := r.Requests[name]; !ok {
			r.Requests[name] = limit.DeepCopy()
		}
	}
}

// isSupportedPodLevelResource mirrors component-helpers' IsSupportedPodLevelResource: cpu, memory
// and hugepages can be set at pod level.
func isSupportedPodLevelResource(name v1.ResourceName) bool {
	return name == v1.ResourceCPU || name == v1.ResourceMemory || isHugePages(name)
}

func isHugePages(name v1.ResourceName) bool {
	return strings.HasPrefix(string(name), v1.ResourceHugePagesPrefix)
}

// isOvercommitAllowed mirrors the API's IsOvercommitAllowed: a native resource (no domain, or a
// kubernetes.io one) other than hugepages.
func isOvercommitAllowed(name v1.ResourceName) bool {
	s := string(name)
	native := !strings.Contains(s, "/") || strings.Contains(s, v1.ResourceDefaultNamespacePrefix)
	return native && !isHugePages(name)
}

// aggregateContainers mirrors component-helpers' AggregateContainerRequests and
// AggregateContainerLimits on a pod's spec alone (no status, no overhead, no DRA claims): the sum
// over regular containers and sidecars, raised to what any init container needs while it runs
// beside the sidecars started before it.
func aggregateContainers(pod *v1.Pod, pick func(*v1.ResourceRequirements) v1.ResourceList) v1.ResourceList {
	total := v1.ResourceList{}
	for i := range pod.Spec.Containers {
		resourcelist.Add(total, pick(&pod.Spec.Containers[i].Resources))
	}
	sidecars := v1.ResourceList{}
	initPeak := v1.ResourceList{}
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		own := pick(&c.Resources)
		var running v1.ResourceList
		if c.RestartPolicy != nil && *c.RestartPolicy == v1.ContainerRestartPolicyAlways {
			resourcelist.Add(total, own)
			resourcelist.Add(sidecars, own)
			running = sidecars
		} else {
			running = v1.ResourceList{}
			resourcelist.Add(running, own)
			resourcelist.Add(running, sidecars)
		}
		resourcelist.Max(initPeak, running)
	}
	resourcelist.Max(total, initPeak)
	return total
}

func requestsOf(r *v1.ResourceRequirements) v1.ResourceList { return r.Requests }
func limitsOf(r *v1.ResourceRequirements) v1.ResourceList   { return r.Limits }

// objectDefaultHugePagePodLimits mirrors defaultHugePagePodLimits, run by SetDefaults_Pod when
// PodLevelResources is on and PodLevelResourcesFixDefaulting is off: when the pod sets pod-level
// resources, a hugepage size that the containers limit and the pod neither requests nor limits
// gets the containers' aggregated limit as its pod-level limit.
func objectDefaultHugePagePodLimits(pod *v1.Pod) {
	res := pod.Spec.Resources
	if res == nil || (len(res.Limits) == 0 && len(res.Requests) == 0) {
		return
	}
	createDefaultHugePageLimits(pod)
}

// objectDefaultPodRequests mirrors defaultPodRequests, run by SetDefaults_Pod when
// PodLevelResources is on and PodLevelResourcesFixDefaulting is off: when the pod sets pod-level
// limits, a missing pod-level request of cpu or memory is the containers' aggregated request,
// and any other missing pod-level request of a supported resource equals the pod-level limit.
func objectDefaultPodRequests(pod *v1.Pod) {
	res := pod.Spec.Resources
	if res == nil || len(res.Limits) == 0 {
		return
	}
	createDefaultPodRequests(pod)
}

// DefaultPodLevelResources applies the pod-level resource defaulting of the v1.37 API server's pod
// create strategy (pkg/api/pod.DefaultPodLevelResources, called from PrepareForCreate when
// PodLevelResources and PodLevelResourcesFixDefaulting are on, as by default). When the pod sets
// spec.resources, in this order:
//   - a hugepage size the containers limit, and the pod neither requests nor limits, gets the
//     containers' aggregated limit as pod-level limit;
//   - a missing pod-level cpu or memory request becomes the containers' aggregated request;
//     any other missing pod-level request of cpu, memory or hugepages becomes its pod-level limit;
//   - a pod-level request with no pod-level limit gets one when every container (init, sidecar,
//     regular and ephemeral) has a limit for it: the containers' aggregated limit, raised to the
//     pod-level request if that is higher.
//
// Containers' requests must already have been defaulted from their limits; SetObjectDefaultsPod
// calls it last. It ignores feature gates: call it only where they are on.
func DefaultPodLevelResources(pod *v1.Pod) {
	if pod == nil {
		return
	}
	res := pod.Spec.Resources
	if res == nil || (len(res.Requests) == 0 && len(res.Limits) == 0) {
		return
	}
	createDefaultHugePageLimits(pod)
	createDefaultPodRequests(pod)
	createDefaultPodLimits(pod)
}

func createDefaultHugePageLimits(pod *v1.Pod) {
	res := pod.Spec.Resources
	podLimits := res.Limits
	if podLimits == nil {
		podLimits = v1.ResourceList{}
	}
	for name, q := range aggregateContainers(pod, limitsOf) {
		if !isSupportedPodLevelResource(name) || !isHugePages(name) {
			continue
		}
		if _, ok := res.Requests[name]; ok {
			continue
		}
		if _, ok := podLimits[name]; !ok {
			podLimits[name] = q
		}
	}
	if len(podLimits) > 0 {
		res.Limits = podLimits
	}
}

func createDefaultPodRequests(pod *v1.Pod) {
	res := pod.Spec.Resources
	podRequests := res.Requests
	if podRequests == nil {
		podRequests = v1.ResourceList{}
	}
	for name, q := range aggregateContainers(pod, requestsOf) {
		if _, ok := podRequests[name]; !ok && isSupportedPodLevelResource(name) && isOvercommitAllowed(name) {
			podRequests[name] = q
		}
	}
	for name, q := range res.Limits {
		if _, ok := podRequests[name]; !ok && isSupportedPodLevelResource(name) {
			podRequests[name] = q.DeepCopy()
		}
	}
	if len(podRequests) > 0 {
		res.Requests = podRequests
	}
}

func createDefaultPodLimits(pod *v1.Pod) {
	res := pod.Spec.Resources
	var candidates []v1.ResourceName
	for name := range res.Requests {
		if !isSupportedPodLevelResource(name) {
			continue
		}
		if _, ok := res.Limits[name]; !ok && everyContainerLimits(&pod.Spec, name) {
			candidates = append(candidates, name)
		}
	}
	if len(candidates) == 0 {
		return
	}
	aggregated := aggregateContainers(pod, limitsOf)
	for _, name := range candidates {
		limit, ok := aggregated[name]
		if !ok {
			continue
		}
		// A pod-level limit below the pod-level request would make the pod invalid.
		if request := res.Requests[name]; request.Cmp(limit) > 0 {
			limit = request
		}
		if res.Limits == nil {
			res.Limits = v1.ResourceList{}
		}
		res.Limits[name] = limit
	}
}

// everyContainerLimits reports whether every init, regular and ephemeral container of spec limits
// the resource.
func everyContainerLimits(spec *v1.PodSpec, name v1.ResourceName) bool {
	for i := range spec.InitContainers {
		if _, ok := spec.InitContainers[i].Resources.Limits[name]; !ok {
			return false
		}
	}
	for i := range spec.Containers {
		if _, ok := spec.Containers[i].Resources.Limits[name]; !ok {
			return false
		}
	}
	for i := range spec.EphemeralContainers {
		if _, ok := spec.EphemeralContainers[i].Resources.Limits[name]; !ok {
			return false
		}
	}
	return true
}
