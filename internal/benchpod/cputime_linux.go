package benchpod

import (
	"syscall"
	"testing"
	"time"
)

// ReportCPU starts measuring the process's CPU time (user + system, garbage collection
// included); the returned function reports it per iteration as "cpu-ns/op". On a machine whose
// cores are shared, wall time per op also counts waiting for a core; CPU time does not. Both
// podconfig's benchmarks and the side-by-side ones against kubelet use it, so their figures
// compare.
func ReportCPU(b *testing.B) func() {
	if b == nil {
		return func() {}
	}
	start := processCPU()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

// ProcessCPU is the CPU time (user + system) the process has used so far.
func ProcessCPU() time.Duration { return processCPU() }

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
