package node

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/defaults"
)

func TestTerminationMessageIsReadAsKubeletReadsIt(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	msg := write("msg", "done")
	empty := write("empty", "")
	big := write("big", strings.Repeat("a", 5000)+"END")
	mounts := func(hostPath string) []*runtimeapi.Mount {
		return []*runtimeapi.Mount{{ContainerPath: "/dev/termination-log", HostPath: hostPath}}
	}
	file := &v1.Container{TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: v1.TerminationMessageReadFile}
	fallback := &v1.Container{TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: v1.TerminationMessageFallbackToLogsOnError}
	var longLog strings.Builder
	for i := 0; i < 100; i++ {
		longLog.WriteString("line\n")
	}
	for _, tc := range []struct {
		name string
		st   *runtimeapi.ContainerStatus
		c    *v1.Container
		log  string
		want string
	}{
		{"the file's content", &runtimeapi.ContainerStatus{Mounts: mounts(msg)}, file, "log", "done"},
		{"the runtime's message comes first", &runtimeapi.ContainerStatus{Mounts: mounts(msg), Message: "oom"}, file, "", "oom: done"},
		{"at most the file's last 4 KiB", &runtimeapi.ContainerStatus{Mounts: mounts(big)}, file, "", strings.Repeat("a", 4093) + "END"},
		{"no mount at the path: nothing", &runtimeapi.ContainerStatus{}, file, "log", ""},
		{"a missing file: nothing", &runtimeapi.ContainerStatus{Mounts: mounts(filepath.Join(dir, "missing"))}, file, "", ""},
		{"FallbackToLogsOnError, failed, empty file: the log", &runtimeapi.ContainerStatus{Mounts: mounts(empty), ExitCode: 1}, fallback, "broke\n", "broke\n"},
		{"FallbackToLogsOnError, succeeded: not the log", &runtimeapi.ContainerStatus{Mounts: mounts(empty)}, fallback, "fine\n", ""},
		{"FallbackToLogsOnError, failed, a message: the message", &runtimeapi.ContainerStatus{Mounts: mounts(msg), ExitCode: 1}, fallback, "log\n", "done"},
		{"FallbackToLogsOnError, could not run: not the log", &runtimeapi.ContainerStatus{Mounts: mounts(empty), ExitCode: 128, Reason: "ContainerCannotRun"}, fallback, "x\n", ""},
		{"the log's last 80 lines", &runtimeapi.ContainerStatus{Mounts: mounts(empty), ExitCode: 1}, fallback, longLog.String(), strings.Repeat("line\n", 80)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The runtime's CRI log file of the container's output tc.log.
			var cri strings.Builder
			for _, l := range strings.SplitAfter(tc.log, "\n") {
				if l != "" {
					cri.WriteString("2026-01-01T00:00:00Z stdout F " + l)
				}
			}
			logPath := filepath.Join(t.TempDir(), "0.log")
			require.NoError(t, os.WriteFile(logPath, []byte(cri.String()), 0o640))
			assert.Equal(t, tc.want, terminationMessage(tc.st, tc.c, logPath))
		})
	}
}

func TestFollowerParsesTheCRILogFormat(t *testing.T) {
	var out strings.Builder
	f := &follower{prefix: "ns/pod/c", out: &out, outMu: new(sync.Mutex)}
	f.consume([]byte("2026-01-01T00:00:00.000000000Z stdout F hello world\n2026-01-01T00:00:00Z stderr P par"))
	f.consume([]byte("t\n2026-01-01T00:00:00Z stderr F ial\n2026-01-01T00:00:00Z stdout F \nshort\n"))
	assert.Equal(t, "hello world\npartial\n\n", f.tailString())
	assert.Equal(t, "[ns/pod/c] hello world\n[ns/pod/c] partial\n[ns/pod/c] \n", out.String())
}

func TestApplyDefaults(t *testing.T) {
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Spec: v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: "img"}}}}
	again := pod.DeepCopy()
	applyDefaults(pod, "node-1")
	applyDefaults(again, "node-1")
	assert.Equal(t, "default", pod.Namespace)
	assert.Equal(t, "node-1", pod.Spec.NodeName)
	assert.Equal(t, defaults.RenderUID("default", "web"), pod.UID, "a pod without a UID gets the one podconfig render gives it")
	assert.Equal(t, pod.UID, again.UID, "the same pod has the same UID")
	other := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", UID: "given"}}
	applyDefaults(other, "node-2")
	assert.Equal(t, "given", string(other.UID), "a pod's own UID is kept")
	assert.Equal(t, v1.PullAlways, pod.Spec.Containers[0].ImagePullPolicy, "the API server's defaults apply")
	assert.Equal(t, "/dev/termination-log", pod.Spec.Containers[0].TerminationMessagePath)
}
