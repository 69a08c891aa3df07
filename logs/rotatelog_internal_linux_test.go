package logs

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	clocktesting "k8s.io/utils/clock/testing"
)

// reopenOnly is a runtime whose only call is a successful ReopenContainerLog.
type reopenOnly struct{ ContainerLogRuntime }

func (reopenOnly) ReopenContainerLog(context.Context, *runtimeapi.ReopenContainerLogRequest, ...grpc.CallOption) (*runtimeapi.ReopenContainerLogResponse, error) {
	return &runtimeapi.ReopenContainerLogResponse{}, nil
}

func TestRotateRegularToleratesCopiesThatVanishedAfterTheListing(t *testing.T) {
	for _, tc := range []struct {
		name   string
		listed []string
	}{
		{"a leftover temporary file that vanished is no error", []string{"0.log.20260101-000001.tmp"}},
		{"an excess copy that vanished before its removal is no error", []string{"0.log.20260101-000001.gz", "0.log.20260101-000002.gz", "0.log.20260101-000003.gz", "0.log.20260101-000004.gz"}},
		{"a copy that vanished before its compression is no error", []string{"0.log.20260101-000001"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "0.log"), []byte("0123456789"), 0o640))
			m, err := NewContainerLogManager(ContainerLogManagerOptions{Runtime: reopenOnly{}, MaxSize: "10", MaxFiles: 3,
				MonitorInterval: 10 * time.Second, Clock: clocktesting.NewFakeClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))})
			require.NoError(t, err)
			d, err := openLogDir(dir)
			require.NoError(t, err)
			defer d.close()

			require.NoError(t, m.rotateRegular(context.Background(), d, "c1", "0.log", tc.listed))

			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			assert.Equal(t, []string{"0.log.20260102-030405"}, names, "the log is rotated all the same")
		})
	}
}

func TestRotateLatestLogOfALogThatVanishedIsNoError(t *testing.T) {
	dir := t.TempDir()
	m, err := NewContainerLogManager(ContainerLogManagerOptions{Runtime: reopenOnly{}, MaxSize: "10", MaxFiles: 3,
		MonitorInterval: 10 * time.Second, Clock: clocktesting.NewFakeClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))})
	require.NoError(t, err)
	d, err := openLogDir(dir)
	require.NoError(t, err)
	defer d.close()

	require.NoError(t, m.rotateLatestLog(context.Background(), d, "c1", "0.log"))

	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries)
}
