package logs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/logs"
)

func TestReadAtMost(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, unix.Mkfifo(fifo, 0o644))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(write("target", "through a link"), link))
	for _, tc := range []struct {
		name      string
		path      string
		max       int64
		want      string
		truncated bool
		err       error
	}{
		{"a short file is read whole", write("short", "done"), 4096, "done", false, nil},
		{"a long file gives its last max bytes", write("long", strings.Repeat("a", 5000)+"END"), 4096, strings.Repeat("a", 4093) + "END", true, nil},
		{"an empty file gives nothing", write("empty", ""), 4096, "", false, nil},
		{"a FIFO is refused without being opened", fifo, 4096, "", false, logs.ErrNotRegularFile},
		{"a character device is refused without being read", "/dev/zero", 4096, "", false, logs.ErrNotRegularFile},
		{"a final symlink is refused, not followed", link, 4096, "", false, logs.ErrNotRegularFile},
		{"a directory is refused", dir, 4096, "", false, logs.ErrNotRegularFile},
		{"a missing file is ErrNotExist", filepath.Join(dir, "missing"), 4096, "", false, os.ErrNotExist},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan struct{})
			var got []byte
			var truncated bool
			var err error
			go func() {
				defer close(done)
				got, truncated, err = logs.ReadAtMost(tc.path, tc.max)
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("ReadAtMost blocked")
			}
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got))
			assert.Equal(t, tc.truncated, truncated)
		})
	}
}

func TestGetTerminationMessageIsKubeletsGetTerminationMessage(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	msg, empty := write("msg", "bye"), write("empty", "")
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, unix.Mkfifo(fifo, 0o644))
	at := func(hostPath string) *runtimeapi.ContainerStatus {
		return &runtimeapi.ContainerStatus{Mounts: []*runtimeapi.Mount{{ContainerPath: "/dev/termination-log", HostPath: hostPath}}}
	}
	for _, tc := range []struct {
		name      string
		status    *runtimeapi.ContainerStatus
		path      string
		fallback  bool
		want      string
		checkLogs bool
	}{
		{"no terminationMessagePath: the logs if falling back", at(msg), "", true, "", true},
		{"the mounted file's content", at(msg), "/dev/termination-log", true, "bye", false},
		{"an empty file: the logs if falling back", at(empty), "/dev/termination-log", true, "", true},
		{"an empty file, no fallback: nothing", at(empty), "/dev/termination-log", false, "", false},
		{"a missing file: the logs if falling back", at(filepath.Join(dir, "gone")), "/dev/termination-log", true, "", true},
		{"no mount at the path: the logs if falling back", at(msg), "/other", true, "", true},
		{"a FIFO: kubelet's read error, not the logs", at(fifo), "/dev/termination-log", true, "Error on reading termination log " + fifo + ": " + fifo + ": not a regular file", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, checkLogs := logs.GetTerminationMessage(tc.status, tc.path, tc.fallback)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.checkLogs, checkLogs)
		})
	}
}
