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
// What many LimitRanges add to the render's allocations is a fixed multiple of their size,
// whatever the number of pods.
func TestRenderAdmitsAgainstLimitRangesOnce(t *testing.T) {
	const pods = 300
	onePath, oneSize := generatedInput(t, "limitranges-1.yaml", func(w io.Writer) { writeLimitRangesAndPods(w, 1, pods) })
	manyPath, manySize := generatedInput(t, "limitranges-300.yaml", func(w io.Writer) { writeLimitRangesAndPods(w, 300, pods) })
	one, many := renderAllocated(t, onePath), renderAllocated(t, manyPath)
	grew := int64(many) - int64(one)
	t.Logf("%.1f MB allocated for %d bytes, %.1f MB for %d bytes: %.0fx the input's growth",
		float64(one)/1e6, oneSize, float64(many)/1e6, manySize, float64(grew)/float64(manySize-oneSize))
	require.LessOrEqual(t, grew, 200*(manySize-oneSize), "each of %d pods copies the LimitRanges", pods)
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
