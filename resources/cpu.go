package resources

const (
	// minShares is the smallest cpu.shares kubelet writes; it matches the kernel's minimum.
	minShares = 2
	// maxShares is the largest cpu.shares the kernel accepts.
	maxShares     = 262144
	sharesPerCPU  = 1024
	milliCPUToCPU = 1000

	// quotaPeriod is the CFS period in microseconds (100ms) when no custom period applies.
	quotaPeriod = 100000
	// minQuotaPeriod is the smallest CFS quota in microseconds the kernel accepts (1ms).
	minQuotaPeriod = 1000
)

// milliCPUToShares converts a CPU request in millicores to cpu.shares, as kubelet's
// cm.MilliCPUToShares does: 0 gives 2, the kernel's minimum; other values are scaled by 1024 per
// CPU and clamped to [2, 262144].
func milliCPUToShares(milliCPU int64) int64 {
	if milliCPU == 0 {
		return minShares
	}
	shares := (milliCPU * sharesPerCPU) / milliCPUToCPU
	if shares < minShares {
		return minShares
	}
	if shares > maxShares {
		return maxShares
	}
	return shares
}

// milliCPUToQuota converts a CPU limit in millicores to a CFS quota in microseconds over period,
// as kubelet's milliCPUToQuota does: 0 (no limit) gives 0; otherwise the quota is at least 1000.
// Without the CustomCPUCFSQuotaPeriod gate the period is always 100000.
func milliCPUToQuota(milliCPU, period int64, customPeriod bool) int64 {
	if milliCPU == 0 {
		return 0
	}
	if !customPeriod {
		period = quotaPeriod
	}
	quota := (milliCPU * period) / milliCPUToCPU
	if quota < minQuotaPeriod {
		quota = minQuotaPeriod
	}
	return quota
}
