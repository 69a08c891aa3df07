// Package resources computes the CRI Linux resources of a container and of a pod sandbox, as kubelet v1.37 does.
//
// Build a Calculator once per node with New, from a Config that holds the node facts (cgroup
// version, memory and swap capacity, hugepage sizes), the kubelet settings that change the output
// (cpuCFSQuota, cpuCFSQuotaPeriod, memoryThrottlingFactor, memoryReservationPolicy,
// singleProcessOOMKill, swap behaviour) and the feature gates involved. DefaultConfig gives
// kubelet's defaults; HostNode (Linux) reads the node facts from the host, offline rendering
// fills Node by hand.
//
// Output order: HugepageLimits follow Node.HugePageSizes (HostNode lists them in the order the
// kernel lists /sys/kernel/mm/hugepages, as kubelet does); Unified is a map.
//
// Current limitations:
//   - DRA node-allocatable resources (gate DRANodeAllocatableResources, alpha and off in v1.37)
//     are not added: output is kubelet's with that gate off, and ContainerResources warns when
//     the gate is on and a claim names the container.
//   - Windows resources are out of scope.
package resources
