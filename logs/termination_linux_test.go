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
	v1 "k8s.io/api/core/v1"
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

func TestContainerStatusMessageIsKubeletsStatusMessage(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	msg := write("msg", "done")
	empty := write("empty", "")
	big := write("big", strings.Repeat("a", 5000)+"END")
	exited := func(hostPath string, exitCode int32, reason, message string) *runtimeapi.ContainerStatus {
		st := &runtimeapi.ContainerStatus{State: runtimeapi.ContainerState_CONTAINER_EXITED, ExitCode: exitCode, Reason: reason, Message: message}
		if hostPath != "" {
			st.Mounts = []*runtimeapi.Mount{{ContainerPath: "/dev/termination-log", HostPath: hostPath}}
		}
		return st
	}
	file, fallback := v1.TerminationMessageReadFile, v1.TerminationMessageFallbackToLogsOnError
	var longLog strings.Builder
	for i := 0; i < 100; i++ {
		longLog.WriteString("line\n")
	}
	for _, tc := range []struct {
		name   string
		st     *runtimeapi.ContainerStatus
		policy v1.TerminationMessagePolicy
		log    string
		want   string
	}{
		{"the file's content", exited(msg, 0, "", ""), file, "log\n", "done"},
		{"the runtime's message comes first, joined by a colon", exited(msg, 0, "", "oom"), file, "", "oom: done"},
		{"the runtime's message alone when there is no termination message", exited(empty, 0, "", "oom"), file, "", "oom"},
		{"a running container: the runtime's message only", &runtimeapi.ContainerStatus{State: runtimeapi.ContainerState_CONTAINER_RUNNING,
			Message: "up", Mounts: []*runtimeapi.Mount{{ContainerPath: "/dev/termination-log", HostPath: msg}}}, file, "", "up"},
		{"at most the file's last 4 KiB", exited(big, 0, "", ""), file, "", strings.Repeat("a", 4093) + "END"},
		{"no mount at the path: nothing", exited("", 0, "", ""), file, "log\n", ""},
		{"a missing file: nothing", exited(filepath.Join(dir, "missing"), 0, "", ""), file, "", ""},
		{"FallbackToLogsOnError, failed, empty file: the log", exited(empty, 1, "Error", ""), fallback, "broke\n", "broke\n"},
		{"FallbackToLogsOnError, failed, no mount: the log", exited("", 1, "Error", ""), fallback, "broke\n", "broke\n"},
		{"FallbackToLogsOnError, succeeded: not the log", exited(empty, 0, "Completed", ""), fallback, "fine\n", ""},
		{"FallbackToLogsOnError, failed, a message: the message", exited(msg, 1, "Error", ""), fallback, "log\n", "done"},
		{"FallbackToLogsOnError, could not run: not the log", exited(empty, 128, "ContainerCannotRun", ""), fallback, "x\n", ""},
		{"FallbackToLogsOnError: the log's last 80 lines", exited(empty, 1, "Error", ""), fallback, longLog.String(), strings.Repeat("line\n", 80)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The runtime's CRI log file of the container's output tc.log.
			var cri strings.Builder
			for _, l := range strings.SplitAfter(tc.log, "\n") {
				if l != "" {
					cri.WriteString("2026-01-01T00:00:00Z stdout F " + l)
				}
			}
			tc.st.LogPath = filepath.Join(t.TempDir(), "0.log")
			require.NoError(t, os.WriteFile(tc.st.LogPath, []byte(cri.String()), 0o640))
			assert.Equal(t, tc.want, logs.ContainerStatusMessage(tc.st, tc.policy, "/dev/termination-log"))
		})
	}
}

func TestOpenLogFile(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "0.log")
	require.NoError(t, os.WriteFile(regular, []byte("2026-11-29T00:00:00Z stdout F hi\n"), 0o640))
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, unix.Mkfifo(fifo, 0o644))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(regular, link))
	for _, tc := range []struct {
		name string
		path string
		err  error
	}{
		{"a regular log file opens", regular, nil},
		{"a FIFO is refused without being opened", fifo, logs.ErrNotRegularFile},
		{"a final symlink is refused, not followed", link, logs.ErrNotRegularFile},
		{"a directory is refused", dir, logs.ErrNotRegularFile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := logs.OpenLogFile(tc.path)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			defer func() { _ = f.Close() }()
			b := make([]byte, 64)
			n, _ := f.Read(b)
			assert.Equal(t, "2026-11-29T00:00:00Z stdout F hi\n", string(b[:n]))
		})
	}
}
