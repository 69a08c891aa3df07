package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/configgen"
)

// generatedInput writes what write writes to a file named name in a temporary directory and
// returns its path and size. With PODCONFIG_KEEP_INPUTS set to a directory, the input is also
// written there, to measure podconfig render on it (go run ./cmd/podconfig render -f ...).
func generatedInput(t testing.TB, name string, write func(io.Writer)) (string, int64) {
	t.Helper()
	var sb strings.Builder
	write(&sb)
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(sb.String()), 0o644))
	if dir := os.Getenv("PODCONFIG_KEEP_INPUTS"); dir != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(sb.String()), 0o644))
	}
	return path, int64(sb.Len())
}

// writeLimitRangesAndPods writes ranges LimitRanges of the default namespace, each defaulting a
// container's cpu and memory and capping its memory, and pods pods of one container that set
// no resources.
func writeLimitRangesAndPods(w io.Writer, ranges, pods int) {
	for i := range ranges {
		fmt.Fprintf(w, "---\napiVersion: v1\nkind: LimitRange\nmetadata:\n  name: limits-%d\nspec:\n  limits:\n  - type: Container\n"+
			"    default: {cpu: 500m, memory: 256Mi}\n    defaultRequest: {cpu: 100m, memory: 128Mi}\n    max: {memory: 1Gi}\n", i)
	}
	for i := range pods {
		fmt.Fprintf(w, "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-%d\nspec:\n  containers:\n  - name: c\n    image: registry.example/app:1\n", i)
	}
}

// TestRenderAdmitsAgainstLimitRangesOnce: every pod of an input is admitted against its
// namespace's LimitRanges, which are defaulted and indexed once for the input, not copied and
// defaulted again for each pod (2,000 pods and 2,000 LimitRanges, 472 KB of YAML, took 225 s).
// What many LimitRanges add to the render's allocations does not grow with the number of pods:
// ten times the pods may not make it much more than it is for a tenth of them. (The comparison is
// between two renders, not against the input's size, because the race detector's build
// allocates a regular expression's scratch space on many matches, a cost per input byte.)
func TestRenderAdmitsAgainstLimitRangesOnce(t *testing.T) {
	const ranges = 300
	added := func(pods int) int64 {
		onePath, _ := generatedInput(t, fmt.Sprintf("limitranges-1-%d.yaml", pods), func(w io.Writer) { writeLimitRangesAndPods(w, 1, pods) })
		manyPath, _ := generatedInput(t, fmt.Sprintf("limitranges-%d-%d.yaml", ranges, pods), func(w io.Writer) { writeLimitRangesAndPods(w, ranges, pods) })
		return int64(renderAllocated(t, manyPath)) - int64(renderAllocated(t, onePath))
	}
	few, many := added(30), added(300)
	t.Logf("%d LimitRanges add %.1f MB to the render of 30 pods, %.1f MB to that of 300", ranges, float64(few)/1e6, float64(many)/1e6)
	// Copying the LimitRanges for each pod adds 10x; their once-only cost, 1x.
	require.LessOrEqual(t, many, 2*few+2<<20, "each pod copies the LimitRanges")
}

// BenchmarkRenderLimitRanges renders 2,000 pods of a namespace of 2,000 LimitRanges (472 KB of
// YAML) as podconfig render -o json does.
func BenchmarkRenderLimitRanges(b *testing.B) {
	path, _ := generatedInput(b, "limitranges-2000.yaml", func(w io.Writer) { writeLimitRangesAndPods(w, 2000, 2000) })
	b.ReportAllocs()
	for b.Loop() {
		renderFile(b, path, "json")
	}
}

// writeEnvFromFanOut writes a ConfigMap "big" of keys one-byte values and pods pods whose one
// container names it in entries envFrom entries, each under a prefix of its own: every entry
// defines keys variables more, so a few kilobytes of spec ask for an environment a hundred times
// the input's size.
func writeEnvFromFanOut(w io.Writer, keys, pods, entries int) {
	fmt.Fprint(w, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n")
	for i := range keys {
		fmt.Fprintf(w, "  K%04d: v\n", i)
	}
	for p := range pods {
		fmt.Fprintf(w, "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: fan-%d\nspec:\n  containers:\n  - name: c\n    image: registry.example/app:1\n    envFrom:\n", p)
		for e := range entries {
			fmt.Fprintf(w, "    - prefix: P%02d_\n      configMapRef: {name: big}\n", e)
		}
	}
}

// TestRenderEnvFromFanOutIsBounded: 76 KB of input, a 5,000-key ConfigMap named by 4 pods in 100
// envFrom entries each under as many prefixes, asks for half a million variables per container
// (it rendered 384 MB of JSON, in 52 s and 630 MB). Each container's environment stops at
// configgen's bound, the most the kernel lets a process start with, and the pod fails with it,
// the render having allocated a fixed multiple of the bound per pod.
func TestRenderEnvFromFanOutIsBounded(t *testing.T) {
	const pods = 4
	path, size := generatedInput(t, "envfrom-fanout.yaml", func(w io.Writer) { writeEnvFromFanOut(w, 5000, pods, 100) })
	cfg, _ := newRenderFlags()
	cfg.files = []string{path}
	pw := &podWriter{w: io.Discard, format: "json"}
	var res *result
	var err error
	allocated := allocatedBy(func() { res, err = render(cfg, nil, pw.pod) })
	require.NoError(t, err)
	t.Logf("%.1f MB allocated for %d bytes of input", float64(allocated)/1e6, size)
	require.Len(t, res.Failures, pods)
	for _, f := range res.Failures {
		assert.Contains(t, f, "the environment exceeds the limit of 6291456 bytes (ExpansionLimits.MaxEnvironmentBytes)")
	}
	assert.Less(t, allocated, uint64(pods*20*configgen.DefaultMaxEnvironmentBytes), "bytes allocated")
}

// allocatedBy returns the bytes f allocates.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// BenchmarkRenderEnvFromFanOut renders TestRenderEnvFromFanOutIsBounded's input as podconfig
// render -o json does.
func BenchmarkRenderEnvFromFanOut(b *testing.B) {
	path, _ := generatedInput(b, "envfrom-fanout.yaml", func(w io.Writer) { writeEnvFromFanOut(w, 5000, 4, 100) })
	b.ReportAllocs()
	for b.Loop() {
		cfg, _ := newRenderFlags()
		cfg.files = []string{path}
		pw := &podWriter{w: io.Discard, format: "json"}
		if _, err := render(cfg, nil, pw.pod); err != nil {
			b.Fatal(err)
		}
	}
}
