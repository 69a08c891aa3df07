package conformance

import (
	"syscall"
	"testing"
	"time"
)

// reportCPU starts measuring the process's CPU time (user + system, garbage collection
// included); the returned function reports it per iteration as "cpu-ns/op". On a machine whose
// cores are shared, wall time per op also counts waiting for a core; CPU time does not.
func reportCPU(b *testing.B) func() {
	start := processCPU()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
