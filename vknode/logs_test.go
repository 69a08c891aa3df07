package vknode_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
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
