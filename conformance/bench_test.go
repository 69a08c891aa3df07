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

// BenchmarkSideBySide renders, in its pods sub-benchmark, every config of benchpod and of every pod
// of the real manifests (sideBySidePods); then benchpod's container and sandbox alone, with
// kubelet's own code and with podconfig in one process, on the same node facts, after checking
// that both render them alike.
// Kubelet writes its files through its RealOS. podconfig runs on each of its file backends:
// podconfig-os is hostfs.OS, as on a node (the production figure, over the same tmpfs
// directories as kubelet); podconfig-memory is the in-memory store offline rendering uses.
// Compare kubelet/* with podconfig-os/*.
func BenchmarkSideBySide(b *testing.B) {
	b.Run("pods", sideBySidePods)
	ctx := context.Background()
	sc := benchScenario()
	pod := PodFor(sc)
	container := benchpod.Container(pod)
	// Kubelet writes the pod's etc-hosts file on every call; on ext4 rewriting it in place
	// costs a forced writeback (~10 ms here), so both sides write to tmpfs.
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
	onMemory, err := podconfigside.New(sc, pod, root, logs, 0)
	if err != nil {
		b.Fatal(err)
	}
	onHost, err := podconfigside.NewOnHost(sc, pod, root, logs, 0)
	if err != nil {
		b.Fatal(err)
	}
	podDir := filepath.Join(root, "pods", string(pod.UID))
	for _, pc := range []*podconfigside.Node{onMemory, onHost} {
		k, p := kl.RenderAll(ctx, pod.DeepCopy()), pc.Render(ctx, pod.DeepCopy())
		Normalise(k, podDir, podconfigside.TerminationMessageName)
		Normalise(p, podDir, podconfigside.TerminationMessageName)
		for _, d := range Compare(k, p) {
			b.Fatalf("the benchmark pod renders differently: %s", d)
		}
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
	for _, side := range []struct {
		name string
		pc   *podconfigside.Node
	}{{"podconfig-os", onHost}, {"podconfig-memory", onMemory}} {
		b.Run("container/"+side.name, func(b *testing.B) {
			b.ReportAllocs()
			defer benchpod.ReportCPU(b)()
			for b.Loop() {
				if _, err := side.pc.Container(ctx, pod, container); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("sandbox/kubelet", func(b *testing.B) {
		b.ReportAllocs()
		defer benchpod.ReportCPU(b)()
		for b.Loop() {
			if _, err := kl.Sandbox(ctx, pod); err != nil {
				b.Fatal(err)
			}
		}
	})
	// Kubelet's syncPod makes the pod's data directories just before it creates the sandbox;
	// podconfig's sandbox config makes them itself, so this is the production row's like for
	// like.
	b.Run("sandbox/kubelet-with-pod-dirs", func(b *testing.B) {
		b.ReportAllocs()
		defer benchpod.ReportCPU(b)()
		for b.Loop() {
			if err := kl.PodDataDirs(pod); err != nil {
				b.Fatal(err)
			}
			if _, err := kl.Sandbox(ctx, pod); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, side := range []struct {
		name string
		pc   *podconfigside.Node
	}{{"podconfig-os", onHost}, {"podconfig-memory", onMemory}} {
		b.Run("sandbox/"+side.name, func(b *testing.B) {
			b.ReportAllocs()
			defer benchpod.ReportCPU(b)()
			for b.Loop() {
				if _, err := side.pc.Sandbox(ctx, pod); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
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
