package conformance

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/conformance/internal/kubeletside"
	"github.com/podconfig/podconfig/conformance/internal/podconfigside"
	"github.com/podconfig/podconfig/conformance/scenario"
	"github.com/podconfig/podconfig/internal/benchpod"
)

// benchScenario is the core module's benchmark pod (internal/benchpod) as a scenario: env from
// every source, six mounts with subPaths, pod and container security contexts, burstable
// resources.
func benchScenario() *scenario.Scenario {
	facts := benchpod.NodeFacts()
	sc := &scenario.Scenario{
		Name:   "benchpod",
		Pod:    benchpod.Pod(),
		RawPod: true, // benchpod is already defaulted
		PodIPs: facts.PodIPs,
		Images: map[string]scenario.ImageUser{benchpod.Image: {UID: ptr.To(benchpod.ImageUID)}},
		Node: scenario.Node{
			Name: facts.Name, IPs: facts.IPs, ClusterDomain: facts.ClusterDomain, ClusterDNS: facts.ClusterDNS,
			ResolvConf: facts.ResolvConf, HugePageSizes: facts.HugePageSizes, CgroupV1: !facts.CgroupV2,
			AllocatableCPU: "3800m", AllocatableMemory: "15Gi", Memory: "16Gi",
		},
		Files: map[string]string{},
	}
	for _, o := range benchpod.Objects() {
		sc.Objects = append(sc.Objects, runtime.RawExtension{Object: o.(runtime.Object)})
	}
	vols := benchpod.Volumes("/root")
	for path, content := range benchpod.Files("/root") {
		for name, v := range vols {
			if v.HostPath != "" && strings.HasPrefix(path, v.HostPath+"/") {
				sc.Files[name+"/"+strings.TrimPrefix(path, v.HostPath+"/")] = content
			}
		}
	}
	return sc
}

// TestBenchScenarioMatches checks that the benchmarked pod renders the same on both sides, so
// the benchmarks compare equal work.
func TestBenchScenarioMatches(t *testing.T) {
	out, err := Run(context.Background(), benchScenario(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range out.Diffs {
		t.Errorf("%s", d)
	}
	for _, c := range out.Kubelet.Containers {
		if c.Err != nil {
			t.Errorf("kubelet: %v", c.Err)
		}
	}
}

// BenchmarkSideBySide renders benchpod's container and sandbox with kubelet's own code and with
// podconfig in one process, on the same node facts. Compare kubelet/* with podconfig/*.
func BenchmarkSideBySide(b *testing.B) {
	ctx := context.Background()
	sc := benchScenario()
	pod := PodFor(sc)
	container := benchpod.Container(pod)
	// Kubelet writes the pod's etc-hosts file on every call; on ext4 rewriting it in place
	// costs a forced writeback (~10 ms here). Both sides write to memory: tmpfs for kubelet,
	// podconfig's in-memory file store.
	dir := tmpfsDir(b)
	root, logs := filepath.Join(dir, "root"), filepath.Join(dir, "logs")

	unlock := kubeletside.Lock()
	defer unlock()
	restore, err := kubeletside.Pin(sc.Node.WithDefaults())
	if err != nil {
		b.Fatal(err)
	}
	defer restore()
	kl, err := kubeletside.New(ctx, sc, pod, kubeletside.Dirs{Root: root, Logs: logs})
	if err != nil {
		b.Fatal(err)
	}
	defer kl.Close()
	pc, err := podconfigside.New(sc, pod, root, logs, 0)
	if err != nil {
		b.Fatal(err)
	}

	b.Run("container/kubelet", func(b *testing.B) {
		b.ReportAllocs()
		defer benchpod.ReportCPU(b)()
		for b.Loop() {
			if _, err := kl.Container(ctx, pod, container); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("container/podconfig", func(b *testing.B) {
		b.ReportAllocs()
		defer benchpod.ReportCPU(b)()
		for b.Loop() {
			if _, err := pc.Container(ctx, pod, container); err != nil {
				b.Fatal(err)
			}
			pc.ResetCalls()
		}
	})
	b.Run("sandbox/kubelet", func(b *testing.B) {
		b.ReportAllocs()
		defer benchpod.ReportCPU(b)()
		for b.Loop() {
			if _, err := kl.Sandbox(ctx, pod); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("sandbox/podconfig", func(b *testing.B) {
		b.ReportAllocs()
		defer benchpod.ReportCPU(b)()
		for b.Loop() {
			if _, err := pc.Sandbox(ctx, pod); err != nil {
				b.Fatal(err)
			}
			pc.ResetCalls()
		}
	})
}

// tmpfsDir is a temporary directory on /dev/shm when it is there, else on the default disk.
func tmpfsDir(b *testing.B) string {
	parent := ""
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		parent = "/dev/shm"
	}
	dir, err := os.MkdirTemp(parent, "conformance-bench")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
