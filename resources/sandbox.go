package resources

import (
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// SandboxResources returns the sandbox's resources and overhead, as kubelet's
// applySandboxResources does (calculateSandboxResources and convertOverheadToLinuxResources).
//
// Resources come from the pod's aggregated requests and limits without overhead (see podRequestList
// and PodLimits): cpu shares from the cpu request, or from the cpu limit when no container and no
// pod-level request names cpu; CFS quota from the cpu limit (-1 when the pod has exclusive CPUs);
// the memory limit; memory.oom.group on cgroup v2 as for containers.
//
// Overhead is spec.overhead treated as Guaranteed (request = limit); a pod without overhead gets
// an empty, non-nil struct.
func (c *Calculator) SandboxResources(pod *v1.Pod) (resources, overhead *runtimeapi.LinuxContainerResources, err error) {
	if pod == nil {
		return nil, nil, ErrNilArgument
	}
	podLevel := c.cfg.Gates.PodLevelResources
	req := podRequests(pod, podLevel)
	lim := podLimits(pod, podLevel)
	shares := req.cpu
	if !req.hasCPU {
		shares = lim.cpu
	}
	disableCPUQuota := c.cfg.CPUs != nil && c.cfg.CPUs.PodHasExclusiveCPUs(pod)
	resources, overhead = &runtimeapi.LinuxContainerResources{}, &runtimeapi.LinuxContainerResources{}
	c.linuxResources(resources, shares.MilliValue(), lim.cpu.MilliValue(), lim.mem.Value(), disableCPUQuota)
	if pod.Spec.Overhead != nil {
		cpu := pod.Spec.Overhead[v1.ResourceCPU]
		mem := pod.Spec.Overhead[v1.ResourceMemory]
		c.linuxResources(overhead, cpu.MilliValue(), cpu.MilliValue(), mem.Value(), false)
	}
	return resources, overhead, nil
}
