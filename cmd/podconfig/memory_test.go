package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// renderLivePeak renders path as podconfig render -o json does and returns the largest live
// heap found by a full collection after every 100th pod written: what the render holds for the
// whole input (its objects and workloads) and what it has not yet let go of the pods written.
func renderLivePeak(t *testing.T, path string) uint64 {
	t.Helper()
	var peak uint64
	live := func() {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapAlloc)
	}
	cfg, _ := newRenderFlags()
	cfg.files = []string{path}
	pw := &podWriter{w: io.Discard, format: "json"}
	n := 0
	res, err := render(cfg, nil, func(p *podResult) error {
		if n++; n%100 == 0 {
			live()
		}
		return pw.pod(p)
	})
	require.NoError(t, err)
	require.Empty(t, res.Failures)
	return peak
}

// TestRenderMemoryBound holds render's peak memory to 8 times the input's size plus a constant,
// whatever the number of pods, ConfigMaps or workloads (the reader keeps them as compact JSON and
// the offline node forgets each pod once written): the live heap of a large input less that of a
// small one is at most 3 times the difference in their sizes. The collector lets the heap grow to
// twice the live heap (GOGC=100) before it collects, and reading holds the input itself besides,
// once, so the peak grows by at most 8 times the input.
func TestRenderMemoryBound(t *testing.T) {
	const maxLivePerInputByte = 3
	inputs := []struct {
		name        string
		small, many int
		write       func(w io.Writer, n int)
	}{
		{"pods with a ConfigMap each", 200, 1200, writePodsAndConfigMaps},
		{"Deployments", 200, 1200, writeDeployments},
	}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			dir := t.TempDir()
			path := func(n int) (string, int64) {
				p := filepath.Join(dir, fmt.Sprintf("%d.yaml", n))
				var sb strings.Builder
				in.write(&sb, n)
				require.NoError(t, os.WriteFile(p, []byte(sb.String()), 0o644))
				return p, int64(sb.Len())
			}
			smallPath, smallSize := path(in.small)
			manyPath, manySize := path(in.many)
			small, many := renderLivePeak(t, smallPath), renderLivePeak(t, manyPath)
			grew := int64(many) - int64(small)
			t.Logf("live heap %.1f MB for %d bytes of input, %.1f MB for %d bytes: %.1fx the input's growth",
				float64(small)/1e6, smallSize, float64(many)/1e6, manySize, float64(grew)/float64(manySize-smallSize))
			require.LessOrEqual(t, grew, maxLivePerInputByte*(manySize-smallSize),
				"the live heap grows by more than %dx the input", maxLivePerInputByte)
		})
	}
}

// writePodsAndConfigMaps writes n pods, each reading a ConfigMap of its own through envFrom and a
// key reference.
func writePodsAndConfigMaps(w io.Writer, n int) {
	for i := range n {
		fmt.Fprintf(w, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-%d\ndata:\n  MODE: fast\n  LEVEL: \"%d\"\n", i, i)
		fmt.Fprintf(w, "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-%d\nspec:\n  containers:\n", i)
		fmt.Fprintf(w, "  - name: c0\n    image: registry.example/app:1\n    envFrom:\n    - configMapRef:\n        name: cm-%d\n    env:\n    - name: LEVEL_COPY\n      valueFrom:\n        configMapKeyRef:\n          name: cm-%d\n          key: LEVEL\n", i, i)
	}
}

// writeDeployments writes n Deployments of one container across 50 namespaces.
func writeDeployments(w io.Writer, n int) {
	for i := range n {
		fmt.Fprintf(w, "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web-%d\n  namespace: ns-%d\n  labels:\n    app: web-%d\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: web-%d\n  template:\n    metadata:\n      labels:\n        app: web-%d\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n        ports:\n        - containerPort: 80\n        resources:\n          requests:\n            cpu: 100m\n            memory: 64Mi\n", i, i%50, i, i, i)
	}
}

// renderAllocated renders the input as podconfig render -o json does and returns what the render
// allocated in all.
func renderAllocated(t *testing.T, path string) uint64 {
	t.Helper()
	cfg, _ := newRenderFlags()
	cfg.files = []string{path}
	pw := &podWriter{w: io.Discard, format: "json"}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := render(cfg, nil, pw.pod)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	require.Empty(t, res.Failures)
	return after.TotalAlloc - before.TotalAlloc
}

// TestRenderSharedObjectIsNotDecodedPerPod: many pods reading one key of one large ConfigMap or
// Secret must not make the render decode the whole object once per pod, which made the work grow
// with the product of the object's size and the number of pods (a 4 MB ConfigMap read by 2,000
// pods took 128 s to render where reading the pods alone took 3 s; 64 MiB of such input would take
// a day). What the large object adds to the render's allocations is a fixed multiple of its size,
// whatever the number of pods.
func TestRenderSharedObjectIsNotDecodedPerPod(t *testing.T) {
	const pods = 300
	for _, kind := range []string{"ConfigMap", "Secret"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			write := func(name string, keys int) (string, int) {
				var sb strings.Builder
				writeSharedObjectAndPods(&sb, kind, keys, pods)
				p := filepath.Join(dir, name)
				require.NoError(t, os.WriteFile(p, []byte(sb.String()), 0o644))
				return p, sb.Len()
			}
			smallPath, smallSize := write("small.yaml", 1)
			largePath, largeSize := write("large.yaml", 512)
			small, large := renderAllocated(t, smallPath), renderAllocated(t, largePath)
			grew := int64(large) - int64(small)
			t.Logf("%.1f MB allocated for %d bytes, %.1f MB for %d bytes: %.0fx the input's growth",
				float64(small)/1e6, smallSize, float64(large)/1e6, largeSize, float64(grew)/float64(largeSize-smallSize))
			require.LessOrEqual(t, grew, int64(200*(largeSize-smallSize)),
				"a %s read by %d pods is decoded for each of them", kind, pods)
		})
	}
}

// writeSharedObjectAndPods writes a ConfigMap or Secret "shared" of keys keys of 1 KB each, and
// n pods that each read one of its keys into an environment variable.
func writeSharedObjectAndPods(w io.Writer, kind string, keys, n int) {
	field, ref, value := "data", "configMapKeyRef", strings.Repeat("a", 1000)
	if kind == "Secret" {
		field, ref = "stringData", "secretKeyRef"
	}
	fmt.Fprintf(w, "apiVersion: v1\nkind: %s\nmetadata:\n  name: shared\n%s:\n  KEY: x\n", kind, field)
	for i := range keys {
		fmt.Fprintf(w, "  k%d: %s\n", i, value)
	}
	for i := range n {
		fmt.Fprintf(w, "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-%d\nspec:\n  containers:\n  - name: c\n    image: registry.example/app:1\n    env:\n    - name: A\n      valueFrom:\n        %s:\n          name: shared\n          key: KEY\n", i, ref)
	}
}

// TestRenderPodsOnManyNodesDoNotCopyTheInput: every pod may name a node of its own (spec.nodeName,
// status.hostIP): the render must not give each such node a copy of the input's objects and keep
// them all, which made the work and the memory grow with the number of nodes times the number of
// Services (4,000 Services and 4,000 pods on as many nodes, 1 MB of YAML, took 656 s and 347 MB;
// on one node, under a second). Pods on many nodes allocate a fixed multiple of what the same pods
// on one node do, and the live heap stays within TestRenderMemoryBound's bound.
func TestRenderPodsOnManyNodesDoNotCopyTheInput(t *testing.T) {
	const services, pods = 600, 600
	dir := t.TempDir()
	write := func(name string, nodes int) string {
		var sb strings.Builder
		for i := range services {
			fmt.Fprintf(&sb, "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: svc-%d\nspec:\n  clusterIP: 10.0.%d.%d\n  ports:\n  - port: 80\n", i, i/250, i%250+1)
		}
		for i := range pods {
			fmt.Fprintf(&sb, "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-%d\nspec:\n  nodeName: node-%d\n  enableServiceLinks: false\n  containers:\n  - name: c\n    image: registry.example/app:1\n", i, i%nodes)
		}
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(sb.String()), 0o644))
		return p
	}
	oneNode, manyNodes := write("one.yaml", 1), write("many.yaml", pods)
	one, many := renderAllocated(t, oneNode), renderAllocated(t, manyNodes)
	t.Logf("%.1f MB allocated for %d pods on one node, %.1f MB on %d nodes", float64(one)/1e6, pods, float64(many)/1e6, pods)
	require.LessOrEqual(t, many, one+one*2/5, "each node copies the input's %d Services", services)
	peakOne, peakMany := renderLivePeak(t, oneNode), renderLivePeak(t, manyNodes)
	t.Logf("live heap %.1f MB on one node, %.1f MB on %d nodes", float64(peakOne)/1e6, float64(peakMany)/1e6, pods)
	require.LessOrEqual(t, peakMany, peakOne+(4<<20), "the render keeps every node it made")
}
