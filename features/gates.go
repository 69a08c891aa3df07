package features

// Gates are kubelet's feature gates that change container-config generation. The zero value is
// not kubelet's default: start from Default and change what your node changes. Gates that are
// locked on in v1.37 (ImageVolume, RecursiveReadOnlyMounts, UserNamespacesSupport, NodeSwap,
// DisableCPUQuotaWithExclusiveCPUs) are not settable: podconfig always behaves as if on.
type Gates struct {
	// EnvFiles enables env values from files in volumes (fileKeyRef). Beta, on by default.
	EnvFiles bool
	// PodLevelResources enables pod-level requests and limits. Beta, on by default.
	PodLevelResources bool
	// MemoryQoS enables memory.min/memory.low/memory.high (cgroup v2 only). Beta since 1.37, on
	// by default.
	MemoryQoS bool
	// CustomCPUCFSQuotaPeriod lets the kubelet's cpuCFSQuotaPeriod set the CFS period. On by default.
	CustomCPUCFSQuotaPeriod bool
	// ContainerStopSignals sets ContainerConfig.StopSignal from lifecycle.stopSignal. Alpha, off.
	ContainerStopSignals bool
	// DefaultPodSysctls lets the kubelet's default sysctls (security.Config.DefaultPodSysctls)
	// reach sandboxes; configgen.New refuses those defaults without it. Alpha, off.
	DefaultPodSysctls bool
	// DRANodeAllocatableResources (alpha, off) makes kubelet add DRA-allocated cpu, memory and
	// hugepages. That is not modelled: with the gate on, a container that a node-allocatable
	// claim names gets a warning and kubelet's gate-off output.
	DRANodeAllocatableResources bool
}

// Default returns the gates as kubelet v1.37 has them by default.
func Default() Gates {
	return Gates{
		EnvFiles:                true,
		PodLevelResources:       true,
		MemoryQoS:               true,
		CustomCPUCFSQuotaPeriod: true,
	}
}
