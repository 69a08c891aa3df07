package vknode_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"k8s.io/client-go/kubernetes/fake"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/podruntime/podruntimetest"
	"github.com/podconfig/podconfig/vknode"
)

// logRuntime is the test runtime with two more running containers, whose logs are in dir, as
// rotation sees them: "small" one byte under kubelet's default max size, "big" at it.
type logRuntime struct {
	runtimeapi.RuntimeServiceClient
	dir string

	mu       sync.Mutex
	reopened []string
}

func (r *logRuntime) ListContainers(ctx context.Context, in *runtimeapi.ListContainersRequest, opts ...grpc.CallOption) (*runtimeapi.ListContainersResponse, error) {
	resp, err := r.RuntimeServiceClient.ListContainers(ctx, in, opts...)
	if err != nil || len(in.GetFilter().GetLabelSelector()) > 0 {
		return resp, err
	}
	for _, id := range []string{"small", "big"} {
		resp.Containers = append(resp.Containers, &runtimeapi.Container{Id: id, State: runtimeapi.ContainerState_CONTAINER_RUNNING})
	}
	return resp, nil
}

func (r *logRuntime) ContainerStatus(ctx context.Context, in *runtimeapi.ContainerStatusRequest, opts ...grpc.CallOption) (*runtimeapi.ContainerStatusResponse, error) {
	if in.ContainerId != "small" && in.ContainerId != "big" {
		return r.RuntimeServiceClient.ContainerStatus(ctx, in, opts...)
	}
	return &runtimeapi.ContainerStatusResponse{Status: &runtimeapi.ContainerStatus{
		Id: in.ContainerId, State: runtimeapi.ContainerState_CONTAINER_RUNNING, LogPath: filepath.Join(r.dir, in.ContainerId, "0.log"),
	}}, nil
}

func (r *logRuntime) ReopenContainerLog(_ context.Context, in *runtimeapi.ReopenContainerLogRequest, _ ...grpc.CallOption) (*runtimeapi.ReopenContainerLogResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reopened = append(r.reopened, in.ContainerId)
	return &runtimeapi.ReopenContainerLogResponse{}, os.WriteFile(filepath.Join(r.dir, in.ContainerId, "0.log"), nil, 0o640)
}

func (r *logRuntime) reopenedIDs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.reopened...)
}

func TestProviderRotatesContainerLogsAtKubeletsDefaultMaxSizeFromTheStart(t *testing.T) {
	dir := t.TempDir()
	for name, size := range map[string]int64{"small": 10<<20 - 1, "big": 10 << 20} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, name), 0o755))
		require.NoError(t, os.Truncate(createEmpty(t, filepath.Join(dir, name, "0.log")), size))
	}
	var rt *logRuntime
	newHarnessWith(t, func(c *vknode.Config) {
		rt = &logRuntime{RuntimeServiceClient: c.Runtime, dir: dir}
		c.Runtime = rt
	})

	require.Eventually(t, func() bool { return len(rt.reopenedIDs()) > 0 }, 10*time.Second, 10*time.Millisecond,
		"the first pass runs when the provider starts")
	assert.Equal(t, []string{"big"}, rt.reopenedIDs(), "only the log at 10Mi is rotated")
	rotated, err := filepath.Glob(filepath.Join(dir, "big", "0.log.*"))
	require.NoError(t, err)
	require.Len(t, rotated, 1)
	info, err := os.Stat(rotated[0])
	require.NoError(t, err)
	assert.Equal(t, int64(10<<20), info.Size())
	info, err = os.Stat(filepath.Join(dir, "small", "0.log"))
	require.NoError(t, err)
	assert.Equal(t, int64(10<<20-1), info.Size(), "the log under 10Mi is kept")
}

func createEmpty(t *testing.T, path string) string {
	t.Helper()
	require.NoError(t, os.WriteFile(path, nil, 0o640))
	return path
}

func TestNewRefusesLogRotationSettingsKubeletRefuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tweak func(*vknode.Config)
		err   string
	}{
		{"a container log max files of 1 is refused", func(c *vknode.Config) { c.ContainerLogMaxFiles = 1 },
			"vknode: failed to initialize container log manager: invalid configuration: containerLogMaxFiles must be greater than 1"},
		{"a container log max size that is not a quantity is refused", func(c *vknode.Config) { c.ContainerLogMaxSize = "ten" },
			`vknode: failed to initialize container log manager: failed to parse container log max size "ten": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runtime, images, closeConn := (&podruntimetest.Runtime{}).Clients()
			t.Cleanup(closeConn)
			cfg := vknode.Config{NodeName: nodeName, Runtime: runtime, Images: images, Client: fake.NewClientset(), RootDir: t.TempDir(), PodLogsDir: t.TempDir()}
			tc.tweak(&cfg)
			_, err := vknode.New(context.Background(), cfg)
			require.EqualError(t, err, tc.err)
		})
	}
}
