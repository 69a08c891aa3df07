package resources

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/internal/errkind"
)

// ErrNilArgument is returned when the pod or the container is nil.
var ErrNilArgument = errkind.Sentinel(errkind.InvalidPod, "resources: nil pod or container")

// cgroup v2 interface files kubelet writes through LinuxContainerResources.Unified.
const (
	memoryOOMGroup = "memory.oom.group"
	memoryMin      = "memory.min"
	memoryLow      = "memory.low"
	memoryHigh     = "memory.high"
	memorySwapMax  = "memory.swap.max"
)

// ContainerResources returns the CRI Linux resources of container in pod, as kubelet's
// generateLinuxContainerResources does: cpu shares from the cpu request (or the limit when no
// request is set), CFS quota and period from the cpu limit, the memory limit (both falling back to
// the pod-level limit when the container sets none), the OOM score adjustment, one hugepage limit
// per node page size, swap settings, and on cgroup v2 memory.oom.group and the MemoryQoS files.
// Warnings carry what kubelet only logs, in this order: a DRA claim it would have applied (see
// Gates.DRANodeAllocatableResources), hugepage limits it ignored (pod-level first, each list by
// resource name), a swap amount it could not compute. HugepageLimits follow Node.HugePageSizes.
// The pod is only read.
func (c *Calculator) ContainerResources(pod *v1.Pod, container *v1.Container) (*runtimeapi.LinuxContainerResources, []Warning, error) {
	if pod == nil || container == nil {
		return nil, nil, ErrNilArgument
	}
	var warnings []Warning
	cfg := &c.cfg
	if cfg.Gates.DRANodeAllocatableResources && hasDRAAllocations(pod, container.Name) {
		warnings = append(warnings, Warning{Kind: WarningDRANotApplied,
			Message: fmt.Sprintf("container %q: DRA node-allocatable resources are not applied", container.Name)})
	}
	node := &cfg.Node
	podLevel := cfg.Gates.PodLevelResources
	podLevelSet := podLevel && IsPodLevelResourcesSet(pod)
	qos := GetPodQOS(pod, podLevel)
	enforceMemoryQoS := cfg.Gates.MemoryQoS && node.CgroupV2

	cpuLimit := containerLimit(pod, container, v1.ResourceCPU, podLevelSet)
	memLimit := containerLimit(pod, container, v1.ResourceMemory, podLevelSet)
	cpuRequest, ok := container.Resources.Requests[v1.ResourceCPU]
	if !ok {
		cpuRequest = cpuLimit
	}
	disableCPUQuota := cfg.CPUs != nil && cfg.CPUs.ContainerHasExclusiveCPUs(pod, container)

	lcr := &runtimeapi.LinuxContainerResources{}
	c.linuxResources(lcr, cpuRequest.MilliValue(), cpuLimit.MilliValue(), memLimit.Value(), disableCPUQuota)
	lcr.OomScoreAdj = oomScoreAdjust(pod, container, node.MemoryCapacity, podLevel, qos)

	var podHugepages v1.ResourceList
	if podLevel && pod.Spec.Resources != nil {
		podHugepages = pod.Spec.Resources.Limits
	}
	lcr.HugepageLimits, warnings = hugepageLimits(node.HugePageSizes, podHugepages, container.Resources.Limits, container.Name, warnings)

	warnings = c.configureSwap(lcr, pod, container, qos, warnings)

	switch {
	case enforceMemoryQoS:
		c.applyMemoryQoS(lcr, pod, container, qos)
	case node.CgroupV2:
		setUnified(lcr, memoryHigh, "max")
	}
	return lcr, warnings, nil
}

// hasDRAAllocations reports whether a node-allocatable resource claim of pod names the container.
func hasDRAAllocations(pod *v1.Pod, name string) bool {
	for i := range pod.Status.NodeAllocatableResourceClaimStatuses {
		if slices.Contains(pod.Status.NodeAllocatableResourceClaimStatuses[i].Containers, name) {
			return true
		}
	}
	return false
}

// containerLimit is kubelet's getCPULimit/getMemoryLimit: the container's limit, or the pod-level
// one when pod-level resources are set and the container's is zero. Missing limits are zero.
func containerLimit(pod *v1.Pod, container *v1.Container, name v1.ResourceName, podLevelSet bool) resource.Quantity {
	q := container.Resources.Limits[name]
	if podLevelSet && q.IsZero() {
		return pod.Spec.Resources.Limits[name]
	}
	return q
}

// linuxResources is kubelet's calculateLinuxResources with the quantities already reduced to
// millicores and bytes: sharesMilli is the cpu request (or the limit standing in for it). It
// fills lcr.
func (c *Calculator) linuxResources(lcr *runtimeapi.LinuxContainerResources, sharesMilli, cpuLimitMilli, memLimit int64, disableCPUQuota bool) {
	lcr.CpuShares = milliCPUToShares(sharesMilli)
	if memLimit != 0 {
		lcr.MemoryLimitInBytes = memLimit
	}
	if c.cfg.Kubelet.CPUCFSQuota {
		lcr.CpuQuota = milliCPUToQuota(cpuLimitMilli, c.period, c.cfg.Gates.CustomCPUCFSQuotaPeriod)
		if disableCPUQuota {
			lcr.CpuQuota = -1
		}
		// Kubelet sets the period even without a limit, so the runtime resets a stale one.
		lcr.CpuPeriod = c.period
	}
	if c.oomGroup {
		setUnified(lcr, memoryOOMGroup, "1")
	}
}

func setUnified(lcr *runtimeapi.LinuxContainerResources, key, value string) {
	if lcr.Unified == nil {
		lcr.Unified = make(map[string]string)
	}
	lcr.Unified[key] = value
}

// GetContainerSwapBehavior returns the swap behaviour of container, as kubelet's
// GetContainerSwapBehavior does: LimitedSwap only when the kubelet is configured for it, the node
// has a swap controller and cgroup v2, the pod is not critical and is Burstable, and the container
// requests or limits memory with request different from limit; NoSwap otherwise.
func (c *Calculator) GetContainerSwapBehavior(pod *v1.Pod, container *v1.Container) SwapBehavior {
	pod, container = orEmptyPod(pod), orEmptyContainer(container)
	return c.swapBehavior(pod, container, GetPodQOS(pod, c.cfg.Gates.PodLevelResources))
}

func (c *Calculator) swapBehavior(pod *v1.Pod, container *v1.Container, qos v1.PodQOSClass) SwapBehavior {
	node := &c.cfg.Node
	if c.cfg.Kubelet.SwapBehavior != LimitedSwap || !node.SwapControllerAvailable || !node.CgroupV2 ||
		isCriticalPod(pod) || qos != v1.PodQOSBurstable {
		return NoSwap
	}
	req := container.Resources.Requests[v1.ResourceMemory]
	lim := container.Resources.Limits[v1.ResourceMemory]
	if (req.IsZero() && lim.IsZero()) || req.Cmp(lim) == 0 {
		return NoSwap
	}
	return LimitedSwap
}

// configureSwap is kubelet's configureContainerSwapResources: nothing without a swap controller;
// NoSwap pins swap to the memory limit on cgroup v1 and to zero on v2; LimitedSwap gives the
// container swap in proportion to its memory request, or NoSwap with a warning when that cannot
// be computed.
func (c *Calculator) configureSwap(lcr *runtimeapi.LinuxContainerResources, pod *v1.Pod, container *v1.Container, qos v1.PodQOSClass, warnings []Warning) []Warning {
	node := &c.cfg.Node
	if !node.SwapControllerAvailable {
		return warnings
	}
	if c.swapBehavior(pod, container, qos) == LimitedSwap {
		swap, err := calcSwapForBurstablePods(memoryValue(container.Resources.Requests), node.MemoryCapacity, node.SwapCapacity)
		if err == nil {
			setUnified(lcr, memorySwapMax, strconv.FormatInt(swap, 10))
			return warnings
		}
		warnings = append(warnings, Warning{Kind: WarningSwapDisallowed,
			Message: fmt.Sprintf("container %q: cannot calculate swap allocation amount; disallowing swap: %v", container.Name, err)})
	}
	if !node.CgroupV2 {
		// memory+swap equal to memory leaves no swap above the limit.
		lcr.MemorySwapLimitInBytes = lcr.MemoryLimitInBytes
		return warnings
	}
	setUnified(lcr, memorySwapMax, "0")
	return warnings
}

// calcSwapForBurstablePods gives a container the share of the node's swap that its memory request
// is of the node's memory, as kubelet's function of that name does.
func calcSwapForBurstablePods(containerMemoryRequest, nodeTotalMemory, totalPodsSwapAvailable int64) (int64, error) {
	if nodeTotalMemory <= 0 {
		return 0, fmt.Errorf("total node memory is 0")
	}
	if containerMemoryRequest > nodeTotalMemory {
		return 0, fmt.Errorf("container request %d is larger than total node memory %d", containerMemoryRequest, nodeTotalMemory)
	}
	proportion := float64(containerMemoryRequest) / float64(nodeTotalMemory)
	return int64(proportion * float64(totalPodsSwapAvailable)), nil
}

// applyMemoryQoS writes the MemoryQoS files of a container on cgroup v2 from its own memory
// request and limit: memory.min (Guaranteed) or memory.low (others) equal to the request under
// TieredReservation, both "0" otherwise; memory.high only with a memoryThrottlingFactor, for
// containers whose request differs from their limit, between request and limit (or node
// allocatable memory when there is no limit), rounded down to the page size.
func (c *Calculator) applyMemoryQoS(lcr *runtimeapi.LinuxContainerResources, pod *v1.Pod, container *v1.Container, qos v1.PodQOSClass) {
	cfg := &c.cfg
	req := memoryValue(container.Resources.Requests)
	lim := memoryValue(container.Resources.Limits)
	switch {
	case req != 0 && cfg.Kubelet.MemoryReservationPolicy == TieredReservation && qos == v1.PodQOSGuaranteed:
		setUnified(lcr, memoryMin, strconv.FormatInt(req, 10))
	case req != 0 && cfg.Kubelet.MemoryReservationPolicy == TieredReservation:
		setUnified(lcr, memoryLow, strconv.FormatInt(req, 10))
	default:
		setUnified(lcr, memoryMin, "0")
		setUnified(lcr, memoryLow, "0")
	}

	factor := cfg.Kubelet.MemoryThrottlingFactor
	if factor == nil || (req == lim && req != 0) {
		return
	}
	// The pod cgroup already throttles a container that only the pod-level limit bounds.
	if lim == 0 && cfg.Gates.PodLevelResources && pod.Spec.Resources != nil && memoryValue(pod.Spec.Resources.Limits) != 0 {
		return
	}
	var high int64
	switch {
	case lim != 0:
		high = throttledHigh(req, lim, *factor, c.pageSize)
	case cfg.Node.AllocatableMemory > 0:
		high = throttledHigh(req, cfg.Node.AllocatableMemory, *factor, c.pageSize)
	}
	if high != 0 && high > req {
		setUnified(lcr, memoryHigh, strconv.FormatInt(high, 10))
	}
}

// throttledHigh is kubelet's memory.high formula, with its float64 arithmetic:
// floor(request + factor*(limit-request)) rounded down to a whole number of pages.
func throttledHigh(req, limit int64, factor float64, pageSize int64) int64 {
	return int64(math.Floor(float64(req)+(float64(limit)-float64(req))*factor)/float64(pageSize)) * pageSize
}
