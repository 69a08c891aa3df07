package configgen_test

import (
	"testing"

	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/internal/benchpod"
)

// BenchmarkMakePodDataDirs finds the pod's data directories there already, as every call after a
// pod's first does.
func BenchmarkMakePodDataDirs(b *testing.B) {
	node := configgentest.NewNode()
	gen, err := node.Generator()
	if err != nil {
		b.Fatal(err)
	}
	pod := benchpod.Pod()
	if err := gen.MakePodDataDirs(pod); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if err := gen.MakePodDataDirs(pod); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMakePodDataDirsNewPod makes the directories of a pod the node has not seen (its first
// call), and removes them again.
func BenchmarkMakePodDataDirsNewPod(b *testing.B) {
	node := configgentest.NewNode()
	files := hostfs.NewMemory()
	node.Options.Files = files
	gen, err := node.Generator()
	if err != nil {
		b.Fatal(err)
	}
	pod := benchpod.Pod()
	if err := files.MkdirAll("/var/lib/kubelet/pods", 0o750); err != nil {
		b.Fatal(err)
	}
	dirs, err := gen.PodDataDirs(pod)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if err := gen.MakePodDataDirs(pod); err != nil {
			b.Fatal(err)
		}
		for i := len(dirs) - 1; i >= 0; i-- {
			if err := files.Remove(dirs[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
}
