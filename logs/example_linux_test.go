package logs_test

import (
	"fmt"
	"os"
	"path/filepath"

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
