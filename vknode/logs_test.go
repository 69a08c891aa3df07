package vknode_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/virtual-kubelet/virtual-kubelet/errdefs"
	"github.com/virtual-kubelet/virtual-kubelet/node/api"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/logs"
)

// criLog is a container's log file as containerd writes it, with a line the runtime split.
const criLog = `2026-01-01T00:00:00.000000001Z stdout F first
2026-01-01T00:00:01Z stderr P sec
2026-01-01T00:00:01Z stderr F ond
not a CRI log line
2026-01-01T00:00:02Z stdout F third
`

func TestContainerLogsServesTheCRILogAsKubeletsLogAPIDoes(t *testing.T) {
	pod := testPod(v1.RestartPolicyAlways)
	h := newHarness(t, pod)
	ctx := context.Background()
	require.NoError(t, h.p.CreatePod(ctx, pod))
	h.waitPhase(t, v1.PodRunning)
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		assert.NoError(t, h.p.Shutdown(sctx, 0))
	})
	root := h.podLogsDir(t)
	path := filepath.Join(logs.BuildContainerLogsDirectory(root, pod.Namespace, pod.Name, pod.UID, "app"), "0.log")
	require.NoError(t, os.WriteFile(path, []byte(criLog), 0o600))

	tests := []struct {
		name string
		opts api.ContainerLogOpts
		want string
	}{
		{"the content of every entry, a split line joined, a line that does not parse left out", api.ContainerLogOpts{}, "first\nsecond\nthird\n"},
		{"timestamps put the time of its first entry before each line", api.ContainerLogOpts{Timestamps: true},
			"2026-01-01T00:00:00.000000001Z first\n2026-01-01T00:00:01Z second\n2026-01-01T00:00:02Z third\n"},
		{"tailLines keeps the last entries", api.ContainerLogOpts{Tail: 1}, "third\n"},
		{"limitBytes cuts the output", api.ContainerLogOpts{LimitBytes: 8}, "first\nse"},
		{"sinceTime leaves out the entries before it", api.ContainerLogOpts{SinceTime: time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC)}, "second\nthird\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rc, err := h.p.ContainerLogs(ctx, pod.Namespace, pod.Name, "app", tt.opts)
			require.NoError(t, err)
			defer rc.Close()
			got, err := io.ReadAll(rc)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}

	_, err := h.p.ContainerLogs(ctx, pod.Namespace, pod.Name, "app", api.ContainerLogOpts{Previous: true})
	require.EqualError(t, err, `previous terminated container "app" in pod "web" not found`)
	assert.True(t, errdefs.IsInvalidInput(err))
	_, err = h.p.ContainerLogs(ctx, pod.Namespace, "none", "app", api.ContainerLogOpts{})
	require.EqualError(t, err, "pod team/none is not on this node")
}

func TestContainerLogsTailDoesNotHoldTheLogInMemory(t *testing.T) {
	pod := testPod(v1.RestartPolicyAlways)
	h := newHarness(t, pod)
	ctx := context.Background()
	require.NoError(t, h.p.CreatePod(ctx, pod))
	h.waitPhase(t, v1.PodRunning)
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		assert.NoError(t, h.p.Shutdown(sctx, 0))
	})
	// 32 MiB of log in lines of 1 KiB, as a container that writes much leaves it.
	line := []byte("2026-01-01T00:00:00Z stdout F " + string(bytes.Repeat([]byte{'x'}, 993)) + "\n")
	const size = 32 << 20
	path := filepath.Join(logs.BuildContainerLogsDirectory(h.podLogsDir(t), pod.Namespace, pod.Name, pod.UID, "app"), "0.log")
	require.NoError(t, os.WriteFile(path, bytes.Repeat(line, size/len(line)), 0o600))

	tests := []struct {
		name string
		tail int
	}{
		{"tailLines larger than the log streams it, not held", 1 << 30},
		{"tailLines of most of the log streams it, not held", size / len(line) / 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, during runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			rc, err := h.p.ContainerLogs(ctx, pod.Namespace, pod.Name, "app", api.ContainerLogOpts{Tail: tt.tail})
			require.NoError(t, err)
			defer rc.Close()
			first := make([]byte, 4096)
			_, err = io.ReadFull(rc, first)
			require.NoError(t, err)
			// The reader now waits for the caller: what it holds is live on the heap.
			time.Sleep(100 * time.Millisecond)
			runtime.GC()
			runtime.ReadMemStats(&during)
			assert.Less(t, int64(during.HeapAlloc)-int64(before.HeapAlloc), int64(size/8), "the log is streamed from its last lines, not held whole")
			rest, err := io.Copy(io.Discard, rc)
			require.NoError(t, err)
			want := int64(min(tt.tail, size/len(line)) * (len(line) - 30))
			assert.Equal(t, want, rest+int64(len(first)), "every line asked for is served")
		})
	}
}
