package resources_test

import (
	"testing"

	"github.com/podconfig/podconfig/internal/benchpod"
)

// BenchmarkContainerResources renders the sample Burstable container on a cgroup v2 node
// with kubelet's defaults and no pod-level resources.
func BenchmarkContainerResources(b *testing.B) {
	c := newCalc(b, nil)
	pod := samplePod()
	ctr := &pod.Spec.Containers[0]
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if _, _, err := c.ContainerResources(pod, ctr); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSandboxResources(b *testing.B) {
	c := newCalc(b, nil)
	pod := samplePod()
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if _, _, err := c.SandboxResources(pod); err != nil {
			b.Fatal(err)
		}
	}
}
