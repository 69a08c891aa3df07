package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
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
