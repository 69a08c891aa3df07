package resources

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// cpuMem is the cpu and memory part of a ResourceList, with key presence kept: kubelet treats a
// missing cpu request differently from a zero one.
type cpuMem struct {
	cpu, mem       resource.Quantity
	hasCPU, hasMem bool
}

func fromList(list v1.ResourceList) cpuMem {
	var r cpuMem
	r.cpu, r.hasCPU = list[v1.ResourceCPU]
	r.mem, r.hasMem = list[v1.ResourceMemory]
	return r
}

// add is component-helpers' addResourceList restricted to cpu and memory.
func (r *cpuMem) add(o cpuMem) {
	if o.hasCPU {
		r.cpu.Add(o.cpu)
		r.hasCPU = true
	}
	if o.hasMem {
		r.mem.Add(o.mem)
		r.hasMem = true
	}
}

// max is component-helpers' maxResourceList restricted to cpu and memory.
func (r *cpuMem) max(o cpuMem) {
	if o.hasCPU && (!r.hasCPU || o.cpu.Cmp(r.cpu) > 0) {
		r.cpu, r.hasCPU = o.cpu.DeepCopy(), true
	}
	if o.hasMem && (!r.hasMem || o.mem.Cmp(r.mem) > 0) {
		r.mem, r.hasMem = o.mem.DeepCopy(), true
	}
}

// override replaces what list sets (component-helpers: applyPodLevelResources).
func (r *cpuMem) override(list v1.ResourceList) {
	if q, ok := list[v1.ResourceCPU]; ok {
		r.cpu, r.hasCPU = q.DeepCopy(), true
	}
	if q, ok := list[v1.ResourceMemory]; ok {
		r.mem, r.hasMem = q.DeepCopy(), true
	}
}

func isRestartableInitContainer(c *v1.Container) bool {
	return c.RestartPolicy != nil && *c.RestartPolicy == v1.ContainerRestartPolicyAlways
}

// aggregate sums what pick returns for the regular containers and folds in the init containers
// the way the sidecar KEP defines it: a regular init container needs its own resources plus the
// restartable init containers started before it; restartable init containers add to the total;
// the pod needs the larger of the running total and the largest init-phase need.
func aggregate(pod *v1.Pod, pick func(*v1.Container) v1.ResourceList) cpuMem {
	var total cpuMem
	for i := range pod.Spec.Containers {
		total.add(fromList(pick(&pod.Spec.Containers[i])))
	}
	var sidecars, initPeak cpuMem
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		own := fromList(pick(c))
		if isRestartableInitContainer(c) {
			total.add(own)
			sidecars.add(own)
			initPeak.max(sidecars)
			continue
		}
		need := cpuMem{}
		need.add(own)
		need.add(sidecars)
		initPeak.max(need)
	}
	total.max(initPeak)
	return total
}

func requestsOf(c *v1.Container) v1.ResourceList { return c.Resources.Requests }
func limitsOf(c *v1.Container) v1.ResourceList   { return c.Resources.Limits }

// podRequests is component-helpers' PodRequests for cpu and memory with ExcludeOverhead, no
// status resources and no DRA: the aggregated container requests, replaced by the pod-level
// requests when podLevelResources is on and the pod sets them.
func podRequests(pod *v1.Pod, podLevelResources bool) cpuMem {
	r := aggregate(pod, requestsOf)
	if podLevelResources && isPodLevelRequestsSet(pod) {
		r.override(pod.Spec.Resources.Requests)
	}
	return r
}

// podLimits is component-helpers' PodLimits for cpu and memory with ExcludeOverhead.
func podLimits(pod *v1.Pod, podLevelResources bool) cpuMem {
	r := aggregate(pod, limitsOf)
	if podLevelResources && IsPodLevelResourcesSet(pod) {
		r.override(pod.Spec.Resources.Limits)
	}
	return r
}

// podRequestList returns the pod's effective cpu and memory requests without overhead, as kubelet's
// sandbox code gets them from resourcehelper.PodRequests (ExcludeOverhead, SkipPodLevelResources
// = !podLevelResources). A resource no container and no pod-level request names is absent.
func podRequestList(pod *v1.Pod, podLevelResources bool) v1.ResourceList {
	pod = orEmptyPod(pod)
	return podRequests(pod, podLevelResources).list()
}

// PodLimits returns the pod's effective cpu and memory limits without overhead, as kubelet's
// sandbox code gets them from resourcehelper.PodLimits.
func PodLimits(pod *v1.Pod, podLevelResources bool) v1.ResourceList {
	pod = orEmptyPod(pod)
	return podLimits(pod, podLevelResources).list()
}

func (r cpuMem) list() v1.ResourceList {
	l := v1.ResourceList{}
	if r.hasCPU {
		l[v1.ResourceCPU] = r.cpu
	}
	if r.hasMem {
		l[v1.ResourceMemory] = r.mem
	}
	return l
}
