package podruntime_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/podruntime"
)

func TestContainerStatusFromCRIIsKubeletsConversion(t *testing.T) {
	dir := t.TempDir()
	msgFile := filepath.Join(dir, "termination-log")
	require.NoError(t, os.WriteFile(msgFile, []byte("all done"), 0o644))
	logFile := filepath.Join(dir, "0.log")
	require.NoError(t, os.WriteFile(logFile, []byte("2026-01-01T00:00:00Z stdout F something broke\n"), 0o644))
	created, started, finished := int64(1e18), int64(1e18+1e9), int64(1e18+2e9)
	base := func(state runtimeapi.ContainerState, policy string) *runtimeapi.ContainerStatus {
		return &runtimeapi.ContainerStatus{
			Id: "abc", State: state, CreatedAt: created, StartedAt: started, FinishedAt: finished, ExitCode: 1, Reason: "Error",
			Image: &runtimeapi.ImageSpec{Image: "registry.example/app:1"}, ImageRef: "registry.example/app@sha256:1", ImageId: "sha256:1",
			Labels: map[string]string{"io.kubernetes.container.name": "main"},
			Annotations: map[string]string{"io.kubernetes.container.hash": "10bd5646", "io.kubernetes.container.restartCount": "3",
				"io.kubernetes.container.terminationMessagePath": "/dev/termination-log", "io.kubernetes.container.terminationMessagePolicy": policy},
			Mounts:     []*runtimeapi.Mount{{ContainerPath: "/dev/termination-log", HostPath: msgFile}},
			LogPath:    logFile,
			StopSignal: runtimeapi.Signal_SIGNAL_SIGRTMINPLUS1,
		}
	}
	t.Run("an exited container carries its exit and its termination message after the runtime's", func(t *testing.T) {
		st := base(runtimeapi.ContainerState_CONTAINER_EXITED, "File")
		st.Message = "oom"
		got := podruntime.ContainerStatusFromCRI(st, "containerd")
		sig := v1.Signal("SIGRTMIN+1")
		assert.Equal(t, &podruntime.ContainerStatus{
			ID: podruntime.ContainerID{Type: "containerd", ID: "abc"}, Name: "main", State: podruntime.ContainerStateExited,
			CreatedAt: time.Unix(0, created), StartedAt: time.Unix(0, started), FinishedAt: time.Unix(0, finished),
			ExitCode: 1, Reason: "Error", Message: "oom: all done",
			Image: "registry.example/app:1", ImageRef: "registry.example/app@sha256:1", ImageID: "sha256:1",
			Hash: 0x10bd5646, RestartCount: 3, StopSignal: &sig, LogPath: logFile, Annotations: st.Annotations,
		}, got)
	})
	t.Run("under FallbackToLogsOnError an empty file gives the log's end", func(t *testing.T) {
		require.NoError(t, os.WriteFile(msgFile, nil, 0o644))
		got := podruntime.ContainerStatusFromCRI(base(runtimeapi.ContainerState_CONTAINER_EXITED, "FallbackToLogsOnError"), "containerd")
		assert.Equal(t, "something broke\n", got.Message)
	})
	t.Run("a created container has not started", func(t *testing.T) {
		got := podruntime.ContainerStatusFromCRI(base(runtimeapi.ContainerState_CONTAINER_CREATED, "File"), "containerd")
		assert.True(t, got.StartedAt.IsZero())
		assert.Zero(t, got.ExitCode, "only an exited container has an exit")
		assert.Empty(t, got.Reason)
	})
	t.Run("a running container has no exit, and bad annotations read as 0", func(t *testing.T) {
		st := base(runtimeapi.ContainerState_CONTAINER_RUNNING, "File")
		st.Annotations = map[string]string{"io.kubernetes.container.hash": "zz", "io.kubernetes.container.restartCount": "-"}
		got := podruntime.ContainerStatusFromCRI(st, "containerd")
		assert.Equal(t, time.Unix(0, started), got.StartedAt)
		assert.True(t, got.FinishedAt.IsZero())
		assert.Zero(t, got.Hash)
		assert.Zero(t, got.RestartCount)
	})
	t.Run("a runtime before CRI v1.30 has the reference as the image ID", func(t *testing.T) {
		st := base(runtimeapi.ContainerState_CONTAINER_RUNNING, "File")
		st.ImageId = ""
		st.StopSignal = runtimeapi.Signal_SIGNAL_RUNTIME_DEFAULT
		got := podruntime.ContainerStatusFromCRI(st, "containerd")
		assert.Equal(t, "registry.example/app@sha256:1", got.ImageID)
		assert.Nil(t, got.StopSignal, "RUNTIME_DEFAULT is no signal")
	})
	t.Run("an unknown CRI state is unknown", func(t *testing.T) {
		got := podruntime.ContainerStatusFromCRI(base(runtimeapi.ContainerState(9), "File"), "containerd")
		assert.Equal(t, podruntime.ContainerStateUnknown, got.State)
	})
	assert.Nil(t, podruntime.ContainerStatusFromCRI(nil, "containerd"))
	assert.Equal(t, "containerd://abc", podruntime.ContainerID{Type: "containerd", ID: "abc"}.String())
}
