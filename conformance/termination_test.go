package conformance

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	crilogs "k8s.io/cri-client/pkg/logs"
	"k8s.io/utils/buffer"

	"github.com/podconfig/podconfig/logs"
)

// kubeletLastString is kubelet's readLastStringFromContainerLogs: ReadLogs with the last 80
// lines into a 2 KiB ring buffer.
func kubeletLastString(path string) string {
	tail := int64(logs.MaxContainerTerminationMessageLogLines)
	buf, _ := buffer.NewTypedRingFixed[byte](logs.MaxContainerTerminationMessageLogLength)
	if err := crilogs.ReadLogs(context.Background(), path, "", &crilogs.LogOptions{TailLines: &tail}, nil, buf, buf); err != nil {
		return fmt.Sprintf("Error on reading termination message from logs: %v", err)
	}
	return string(buf.Slice())
}

// TestReadLastStringFromContainerLogs writes random CRI logs (full and partial lines of both
// streams, short and long, lines kubelet's parser skips, with or without a final newline) and
// requires podconfig's reader to return what kubelet's does.
func TestReadLastStringFromContainerLogs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 37))
	dir := t.TempDir()
	const ts = "2026-01-01T00:00:00.123456789Z "
	for i := range 2000 {
		var b strings.Builder
		lines := r.IntN(200)
		for j := range lines {
			switch k := r.IntN(20); {
			case k == 0 && j > 0:
				b.WriteString("not a log line\n")
			case k == 1 && j > 0:
				b.WriteString(ts + "stdin F wrong stream\n")
			default:
				stream := []string{"stdout ", "stderr "}[r.IntN(2)]
				tag := []string{"F ", "P ", "F:x ", "P "}[r.IntN(4)]
				n := r.IntN(64)
				if r.IntN(10) == 0 {
					n = r.IntN(40000)
				}
				b.WriteString(ts + stream + tag + strings.Repeat(string(rune('a'+r.IntN(26))), n) + fmt.Sprint(j))
				if j < lines-1 || r.IntN(2) == 0 {
					b.WriteString("\n")
				}
			}
		}
		path := filepath.Join(dir, fmt.Sprint(i, ".log"))
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o640))
		want, got := kubeletLastString(path), logs.ReadLastStringFromContainerLogs(path)
		require.Equal(t, want, got, "log %d:\n%.2000s", i, b.String())
		require.NoError(t, os.Remove(path))
	}
}
