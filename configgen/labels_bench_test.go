package configgen

import (
	"testing"

	"github.com/podconfig/podconfig/internal/benchpod"
)

// sink keeps the benchmarks' results on the heap, as a config's are.
var sink map[string]string

// BenchmarkContainerAnnotations builds benchpod's container annotations: the hash, the restart
// count, the termination-message keys, the grace period, the preStop handler and the ports.
func BenchmarkContainerAnnotations(b *testing.B) {
	pod := benchpod.Pod()
	c := benchpod.Container(pod)
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		sink, _ = containerAnnotations(pod, c, 1, nil)
	}
}

// BenchmarkContainerLabels builds benchpod's container labels.
func BenchmarkContainerLabels(b *testing.B) {
	pod := benchpod.Pod()
	c := benchpod.Container(pod)
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		sink = containerLabels(pod, c)
	}
}

// BenchmarkPodLabelsAndAnnotations builds benchpod's sandbox labels and annotations.
func BenchmarkPodLabelsAndAnnotations(b *testing.B) {
	pod := benchpod.Pod()
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		sink = podLabels(pod)
		sink = podAnnotations(pod)
	}
}

// BenchmarkHashContainer hashes benchpod's container as kubelet's HashContainer does.
func BenchmarkHashContainer(b *testing.B) {
	pod := benchpod.Pod()
	c := benchpod.Container(pod)
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if HashContainer(c) == 0 {
			b.Fatal("zero hash")
		}
	}
}
