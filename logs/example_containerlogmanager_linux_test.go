package logs_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/podconfig/podconfig/logs"
)

// ExampleNewContainerLogManager rotates the log of a running container that reached the max
// size: the log gets kubelet's rotated name, the older rotated copy is gzipped, and the runtime
// reopens the log at its path. A node would pass its CRI client
// (runtimeapi.NewRuntimeServiceClient(conn)) and call Start instead of one RotateLogs.
func ExampleNewContainerLogManager() {
	dir, _ := os.MkdirTemp("", "pods")
	defer func() { _ = os.RemoveAll(dir) }()
	logDir := logs.BuildContainerLogsDirectory(dir, "shop", "web-0", "5f3c", "app")
	_ = os.MkdirAll(logDir, 0o755)
	_ = os.WriteFile(filepath.Join(logDir, "0.log.20260101-120000"), []byte("older output\n"), 0o640)
	_ = os.WriteFile(filepath.Join(logDir, "0.log"), []byte(strings.Repeat("x", 2048)), 0o640)

	rt := &fakeLogRuntime{} // stands in for the CRI runtime
	rt.add("c1", filepath.Join(logDir, "0.log"), runtimeapi.ContainerState_CONTAINER_RUNNING)
	m, err := logs.NewContainerLogManager(logs.ContainerLogManagerOptions{
		Runtime:         rt,
		MaxSize:         "1Ki",
		MaxFiles:        logs.DefaultContainerLogMaxFiles,
		MonitorInterval: logs.DefaultContainerLogMonitorInterval,
		Clock:           clocktesting.NewFakeClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := m.RotateLogs(context.Background()); err != nil {
		fmt.Println(err)
	}
	entries, _ := os.ReadDir(logDir)
	for _, e := range entries {
		info, _ := e.Info()
		fmt.Println(e.Name(), info.Size() > 0)
	}
	// Output:
	// 0.log false
	// 0.log.20260101-120000.gz true
	// 0.log.20260102-030405 true
}
