package configgen

import (
	"testing"

	"github.com/podconfig/podconfig/internal/benchpod"
)

// BenchmarkValidateContainer is the node-side validation of the benchmark pod's pod-level fields
// and its main container: one pass over each string, and no allocation when the spec is valid.
func BenchmarkValidateContainer(b *testing.B) {
	pod := benchpod.Pod()
	c := benchpod.Container(pod)
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if err := validateContainer(pod, c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidatePod is the node-side validation of the whole benchmark pod, every container.
func BenchmarkValidatePod(b *testing.B) {
	pod := benchpod.Pod()
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if err := ValidatePod(pod); err != nil {
			b.Fatal(err)
		}
	}
}
