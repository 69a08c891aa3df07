package configgen

// FeatureGates holds the Kubernetes feature gates that change container-config generation. The zero
// value is not kubelet's default: start from DefaultFeatureGates and change what your node changes.
// Gates that are locked on in v1.37 (ImageVolume, RecursiveReadOnlyMounts, UserNamespacesSupport,
// NodeSwap, DisableCPUQuotaWithExclusiveCPUs) are not settable: podconfig always behaves as if on.
type FeatureGates struct {
	// EnvFiles enables env values from files in volumes (fileKeyRef). Beta, on by default.
	EnvFiles bool
	// PodLevelResources enables pod-level requests and limits. Beta, on by default.
	PodLevelResources bool
	// MemoryQoS enables memory.min/memory.low (cgroup v2 only). Beta since 1.37, on by default.
	MemoryQoS bool
	// CustomCPUCFSQuotaPeriod lets the kubelet's cpuCFSQuotaPeriod set the CFS period. On by default.
	CustomCPUCFSQuotaPeriod bool
	// ContainerStopSignals sets ContainerConfig.StopSignal from lifecycle.stopSignal. Alpha, off.
	ContainerStopSignals bool
	// DefaultPodSysctls lets Options.Security.DefaultPodSysctls, the kubelet's default sysctls,
	// reach sandboxes; New refuses those defaults without it. Alpha, off.
	DefaultPodSysctls bool
	// DRANodeAllocatableResources adds DRA-allocated cpu, memory and hugepages. Alpha, off.
	DRANodeAllocatableResources bool
}

// DefaultFeatureGates returns the gates as kubelet v1.37 has them by default.
func DefaultFeatureGates() FeatureGates {
	return FeatureGates{
		EnvFiles:                true,
		PodLevelResources:       true,
		MemoryQoS:               true,
		CustomCPUCFSQuotaPeriod: true,
	}
}
