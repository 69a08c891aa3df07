package resources

// Helpers the package's own calls are made of, exported for its external tests only.
var (
	DetectNode                   = detectNode
	GetContainerOOMScoreAdjust   = getContainerOOMScoreAdjust
	HugePageSizeKeysFromDirNames = hugePageSizeKeysFromDirNames
	HugePageUnitSizeFromByteSize = hugePageUnitSizeFromByteSize
	IsCriticalPod                = isCriticalPod
	IsMirrorPod                  = isMirrorPod
	IsNodeCriticalPod            = isNodeCriticalPod
	IsPodLevelRequestsSet        = isPodLevelRequestsSet
	MilliCPUToQuota              = milliCPUToQuota
	MilliCPUToShares             = milliCPUToShares
	PodRequests                  = podRequestList
)

// HostFiles is hostFiles, for the external tests.
type HostFiles = hostFiles
