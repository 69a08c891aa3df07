package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files from the current output")

// TestGolden renders every manifest in testdata with the default flags and compares the output
// with its golden file, <name>.golden.json. Run "go test ./cmd/podconfig -update" to rewrite them
// after a deliberate change, and review the diff.
func TestGolden(t *testing.T) {
	var inputs []string
	for _, pattern := range []string{"testdata/*.yaml", "testdata/*.json"} {
		m, err := filepath.Glob(pattern)
		require.NoError(t, err)
		for _, f := range m {
			if !strings.HasSuffix(f, ".golden.json") {
				inputs = append(inputs, f)
			}
		}
	}
	require.GreaterOrEqual(t, len(inputs), 20, "the golden corpus")
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run([]string{"render", in}, nil, &stdout, &stderr)
			require.Equal(t, exitOK, code, "stderr: %s", stderr.String())
			golden := strings.TrimSuffix(in, filepath.Ext(in)) + ".golden.json"
			if *update {
				require.NoError(t, os.WriteFile(golden, stdout.Bytes(), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "no golden file: run go test ./cmd/podconfig -update")
			assert.Equal(t, string(want), stdout.String(), "output differs from %s (go test ./cmd/podconfig -update rewrites it)", golden)
		})
	}
}

// TestGoldenTable pins the -o table summary of a few manifests, <name>.table.golden.
func TestGoldenTable(t *testing.T) {
	for _, name := range []string{"shop.yaml", "statefulset-postgres.yaml", "pod-init-sidecar.yaml", "pod-restricted.yaml"} {
		t.Run(name, func(t *testing.T) {
			in := filepath.Join("testdata", name)
			var stdout, stderr bytes.Buffer
			code := run([]string{"render", "-o", "table", in}, nil, &stdout, &stderr)
			require.Equal(t, exitOK, code, "stderr: %s", stderr.String())
			golden := strings.TrimSuffix(in, filepath.Ext(in)) + ".table.golden"
			if *update {
				require.NoError(t, os.WriteFile(golden, stdout.Bytes(), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "no golden file: run go test ./cmd/podconfig -update")
			assert.Equal(t, string(want), stdout.String(), "output differs from %s (go test ./cmd/podconfig -update rewrites it)", golden)
		})
	}
}
