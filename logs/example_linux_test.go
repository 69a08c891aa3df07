package logs_test

import (
	"fmt"
	"os"
	"path/filepath"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/logs"
)

// A container has exited: its termination message is read from the file the runtime mounted at
// its terminationMessagePath, bounded and without blocking, as kubelet reads it.
func ExampleGetTerminationMessage() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	hostPath := filepath.Join(dir, "termination-log")
	_ = os.WriteFile(hostPath, []byte("exiting: config not found"), 0o644)
	status := &runtimeapi.ContainerStatus{ExitCode: 1, Mounts: []*runtimeapi.Mount{
		{ContainerPath: "/dev/termination-log", HostPath: hostPath},
	}}
	msg, readLogs := logs.GetTerminationMessage(status, "/dev/termination-log", false)
	fmt.Printf("%q %v\n", msg, readLogs)
	// Output: "exiting: config not found" false
}

// A container under FallbackToLogsOnError failed without writing its termination-message file:
// the message of its status is the runtime's reason text, then the end of its log.
func ExampleContainerStatusMessage() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	logPath := filepath.Join(dir, "0.log")
	_ = os.WriteFile(logPath, []byte("2026-01-01T00:00:00Z stderr F open /etc/app.conf: no such file\n"), 0o640)
	status := &runtimeapi.ContainerStatus{
		State: runtimeapi.ContainerState_CONTAINER_EXITED, ExitCode: 1, Reason: "Error", Message: "exit 1",
		LogPath: logPath,
	}
	fmt.Printf("%q\n", logs.ContainerStatusMessage(status, v1.TerminationMessageFallbackToLogsOnError, "/dev/termination-log"))
	// Output: "exit 1: open /etc/app.conf: no such file\n"
}
