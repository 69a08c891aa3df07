package logs_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/podconfig/podconfig/logs"
)

// rotationTime is the fake clock's time: rotated copies made in tests end in "20260102-030405".
var rotationTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// fakeLogRuntime is a CRI runtime with one container per log path. Reopening a log creates it
// empty as a runtime does, unless reopenErr is set or noReopen asks it to create nothing.
type fakeLogRuntime struct {
	mu         sync.Mutex
	containers []*runtimeapi.Container
	logPaths   map[string]string
	reopenErr  error
	noReopen   bool
	reopened   []string
	lists      chan struct{}
}

func (f *fakeLogRuntime) add(id, logPath string, state runtimeapi.ContainerState) {
	if f.logPaths == nil {
		f.logPaths = map[string]string{}
	}
	f.containers = append(f.containers, &runtimeapi.Container{Id: id, State: state})
	f.logPaths[id] = logPath
}

func (f *fakeLogRuntime) ListContainers(context.Context, *runtimeapi.ListContainersRequest, ...grpc.CallOption) (*runtimeapi.ListContainersResponse, error) {
	if f.lists != nil {
		f.lists <- struct{}{}
	}
	return &runtimeapi.ListContainersResponse{Containers: f.containers}, nil
}

func (f *fakeLogRuntime) ContainerStatus(_ context.Context, in *runtimeapi.ContainerStatusRequest, _ ...grpc.CallOption) (*runtimeapi.ContainerStatusResponse, error) {
	return &runtimeapi.ContainerStatusResponse{Status: &runtimeapi.ContainerStatus{Id: in.ContainerId, LogPath: f.logPaths[in.ContainerId]}}, nil
}

func (f *fakeLogRuntime) ReopenContainerLog(_ context.Context, in *runtimeapi.ReopenContainerLogRequest, _ ...grpc.CallOption) (*runtimeapi.ReopenContainerLogResponse, error) {
	f.mu.Lock()
	f.reopened = append(f.reopened, in.ContainerId)
	f.mu.Unlock()
	if f.reopenErr != nil {
		return nil, f.reopenErr
	}
	if !f.noReopen {
		if err := os.WriteFile(f.logPaths[in.ContainerId], nil, 0o640); err != nil {
			return nil, err
		}
	}
	return &runtimeapi.ReopenContainerLogResponse{}, nil
}

// dirContents reads a directory: each entry's content, gunzipped for a ".gz", "-> target" for
// a symlink.
func dirContents(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	out := map[string]string{}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if e.Type()&os.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			require.NoError(t, err)
			out[e.Name()] = "-> " + target
			continue
		}
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		if filepath.Ext(e.Name()) == ".gz" {
			r, err := gzip.NewReader(bytes.NewReader(data))
			require.NoError(t, err, e.Name())
			data, err = io.ReadAll(r)
			require.NoError(t, err, e.Name())
			out[e.Name()] = "gzip:" + string(data)
			continue
		}
		out[e.Name()] = string(data)
	}
	return out
}

func newManager(t *testing.T, rt logs.ContainerLogRuntime, maxSize string, maxFiles int) *logs.ContainerLogManager {
	t.Helper()
	m, err := logs.NewContainerLogManager(logs.ContainerLogManagerOptions{
		Runtime: rt, MaxSize: maxSize, MaxFiles: maxFiles,
		MonitorInterval: logs.DefaultContainerLogMonitorInterval,
		Clock:           clocktesting.NewFakeClock(rotationTime),
	})
	require.NoError(t, err)
	return m
}

func TestRotateLogs(t *testing.T) {
	const big = "0123456789" // 10 bytes: at the 10-byte max size of most cases
	const rotated = "0.log.20260102-030405"
	for _, tc := range []struct {
		name      string
		maxFiles  int
		files     map[string]string // in the container's log directory
		symlinks  map[string]string // name -> "outside" (the target outside the directory) or a name
		state     runtimeapi.ContainerState
		reopenErr error
		noReopen  bool
		want      map[string]string
		reopened  []string
		err       string // %s is the log directory
	}{
		{
			name:     "a log at max size is renamed to <log>.<timestamp> and the runtime reopens it",
			maxFiles: 5, files: map[string]string{"0.log": big},
			want:     map[string]string{"0.log": "", rotated: big},
			reopened: []string{"c1"},
		},
		{
			name:     "a log under max size is left as it is",
			maxFiles: 5, files: map[string]string{"0.log": "012345678"},
			want: map[string]string{"0.log": "012345678"},
		},
		{
			name:     "a container that is not running is not rotated",
			maxFiles: 5, files: map[string]string{"0.log": big}, state: runtimeapi.ContainerState_CONTAINER_EXITED,
			want: map[string]string{"0.log": big},
		},
		{
			name:     "rotated copies past max files minus two are removed, the oldest first",
			maxFiles: 3,
			files: map[string]string{"0.log": big, "0.log.20260101-000001.gz": "gzip:one", "0.log.20260101-000002.gz": "gzip:two",
				"0.log.20260101-000003": "three", "1.log.20200101-000000": "another log's copy"},
			want: map[string]string{"0.log": "", "0.log.20260101-000003.gz": "gzip:three", rotated: big,
				"1.log.20200101-000000": "another log's copy"},
			reopened: []string{"c1"},
		},
		{
			name:     "every rotated copy but the one just made is compressed with gzip",
			maxFiles: 5,
			files:    map[string]string{"0.log": big, "0.log.20260101-000001": "one", "0.log.20260101-000002": "two"},
			want: map[string]string{"0.log": "", "0.log.20260101-000001.gz": "gzip:one",
				"0.log.20260101-000002.gz": "gzip:two", rotated: big},
			reopened: []string{"c1"},
		},
		{
			name:     "a temporary file and a copy already compressed, left by an interrupted compression, are removed",
			maxFiles: 5,
			files: map[string]string{"0.log": big, "0.log.20260101-000001.tmp": "partial",
				"0.log.20260101-000002": "two", "0.log.20260101-000002.gz": "gzip:two"},
			want:     map[string]string{"0.log": "", "0.log.20260101-000002.gz": "gzip:two", rotated: big},
			reopened: []string{"c1"},
		},
		{
			name:     "when the runtime cannot reopen the log, the log gets its name back",
			maxFiles: 5, files: map[string]string{"0.log": big}, reopenErr: errors.New("reopen refused"),
			want:     map[string]string{"0.log": big},
			reopened: []string{"c1"},
			err:      `container c1: failed to rotate log "%s/0.log": failed to reopen container log "c1": reopen refused`,
		},
		{
			name:     "a symlink in place of a rotated copy is neither followed, removed nor compressed",
			maxFiles: 2,
			files:    map[string]string{"0.log": big},
			symlinks: map[string]string{"0.log.20260101-000001": "outside"},
			want:     map[string]string{"0.log": "", "0.log.20260101-000001": "-> outside", rotated: big},
			reopened: []string{"c1"},
			err:      `container c1: %s/0.log.20260101-000001: not a regular file`,
		},
		{
			name:     "a symlink in place of the log is not rotated",
			maxFiles: 5,
			symlinks: map[string]string{"0.log": "outside"},
			want:     map[string]string{"0.log": "-> outside"},
			err:      `container c1: %s/0.log: not a regular file`,
		},
		{
			name:     "a log that vanished is reopened, and is no error when the runtime makes none",
			maxFiles: 5, noReopen: true,
			want:     map[string]string{},
			reopened: []string{"c1"},
		},
		{
			name:     "a log that vanished is reopened, and the new log is not rotated under max size",
			maxFiles: 5,
			want:     map[string]string{"0.log": ""},
			reopened: []string{"c1"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			outside := filepath.Join(root, "outside")
			require.NoError(t, os.WriteFile(outside, []byte(big+big), 0o600))
			dir := filepath.Join(root, "ns_pod_uid", "app")
			require.NoError(t, os.MkdirAll(dir, 0o755))
			for name, content := range tc.files {
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), fileBytes(t, content), 0o640))
			}
			for name, target := range tc.symlinks {
				if target == "outside" {
					target = outside
				}
				require.NoError(t, os.Symlink(target, filepath.Join(dir, name)))
			}
			state := tc.state
			if state == 0 {
				state = runtimeapi.ContainerState_CONTAINER_RUNNING
			}
			rt := &fakeLogRuntime{reopenErr: tc.reopenErr, noReopen: tc.noReopen}
			rt.add("c1", filepath.Join(dir, "0.log"), state)

			err := newManager(t, rt, "10", tc.maxFiles).RotateLogs(context.Background())

			if tc.err == "" {
				require.NoError(t, err)
			} else {
				require.EqualError(t, err, fmtDir(tc.err, dir))
			}
			want := map[string]string{}
			for name, content := range tc.want {
				if content == "-> outside" {
					content = "-> " + outside
				}
				want[name] = content
			}
			assert.Equal(t, want, dirContents(t, dir))
			assert.Equal(t, tc.reopened, rt.reopened)
			got, err := os.ReadFile(outside)
			require.NoError(t, err)
			assert.Equal(t, big+big, string(got), "the symlink's target is untouched")
		})
	}
}

// fileBytes is content, gzipped if it starts with "gzip:".
func fileBytes(t *testing.T, content string) []byte {
	plain, ok := strings.CutPrefix(content, "gzip:")
	if !ok {
		return []byte(content)
	}
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	_, err := w.Write([]byte(plain))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// fmtDir puts dir in place of %s.
func fmtDir(format, dir string) string {
	return strings.ReplaceAll(format, "%s", dir)
}

func TestRotateLogsRefusesASymlinkedLogDirectory(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	require.NoError(t, os.MkdirAll(real, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(real, "0.log"), []byte("0123456789"), 0o640))
	require.NoError(t, os.Symlink(real, filepath.Join(root, "app")))
	rt := &fakeLogRuntime{}
	rt.add("c1", filepath.Join(root, "app", "0.log"), runtimeapi.ContainerState_CONTAINER_RUNNING)

	err := newManager(t, rt, "10", 5).RotateLogs(context.Background())

	require.EqualError(t, err, "container c1: open "+filepath.Join(root, "app")+": not a directory")
	assert.Equal(t, map[string]string{"0.log": "0123456789"}, dirContents(t, real))
	assert.Empty(t, rt.reopened)
}

func TestNewContainerLogManagerValidates(t *testing.T) {
	rt := &fakeLogRuntime{}
	for _, tc := range []struct {
		name     string
		maxSize  string
		maxFiles int
		interval time.Duration
		err      string
	}{
		{"kubelet's defaults are valid", logs.DefaultContainerLogMaxSize, logs.DefaultContainerLogMaxFiles, logs.DefaultContainerLogMonitorInterval, ""},
		{"max files of 1 is refused", "10Mi", 1, 10 * time.Second, "invalid configuration: containerLogMaxFiles must be greater than 1"},
		{"a monitor interval under 3s is refused", "10Mi", 5, 2 * time.Second, "invalid configuration: containerLogMonitorInterval must be a positive time duration greater than or equal to 3s"},
		{"both configuration errors are reported together", "10Mi", 0, 0, "[invalid configuration: containerLogMonitorInterval must be a positive time duration greater than or equal to 3s, invalid configuration: containerLogMaxFiles must be greater than 1]"},
		{"a max size that is not a quantity is refused", "ten", 5, 10 * time.Second, `failed to parse container log max size "ten": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`},
		{"a max size that is not a whole number of bytes is refused", "0.5", 5, 10 * time.Second, `failed to parse container log max size "0.5": invalid max log size`},
		{"a negative max size is valid and turns rotation off", "-1", 5, 10 * time.Second, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.err == "", logs.ValidateContainerLogRotation(tc.maxSize, tc.maxFiles, tc.interval) == nil)
			_, err := logs.NewContainerLogManager(logs.ContainerLogManagerOptions{Runtime: rt, MaxSize: tc.maxSize, MaxFiles: tc.maxFiles, MonitorInterval: tc.interval})
			if tc.err == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tc.err)
			require.EqualError(t, logs.ValidateContainerLogRotation(tc.maxSize, tc.maxFiles, tc.interval), tc.err)
		})
	}
}

func TestNegativeMaxSizeTurnsRotationOff(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "0.log"), []byte("0123456789"), 0o640))
	rt := &fakeLogRuntime{lists: make(chan struct{}, 1)}
	rt.add("c1", filepath.Join(dir, "0.log"), runtimeapi.ContainerState_CONTAINER_RUNNING)

	require.NoError(t, newManager(t, rt, "-1", 5).RotateLogs(context.Background()))

	assert.Empty(t, rt.lists, "the runtime is not even asked for its containers")
	assert.Equal(t, map[string]string{"0.log": "0123456789"}, dirContents(t, dir))
}

func TestStartRunsAPassEachIntervalUntilTheContextIsDone(t *testing.T) {
	clk := clocktesting.NewFakeClock(rotationTime)
	rt := &fakeLogRuntime{lists: make(chan struct{})}
	m, err := logs.NewContainerLogManager(logs.ContainerLogManagerOptions{
		Runtime: rt, MaxSize: "10Mi", MaxFiles: 5, MonitorInterval: 10 * time.Second, Clock: clk,
	})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	m.Start(ctx)

	<-rt.lists // the first pass runs at once
	require.Eventually(t, clk.HasWaiters, 5*time.Second, time.Millisecond)
	clk.Step(10 * time.Second)
	<-rt.lists // the next, one interval later
	require.Eventually(t, clk.HasWaiters, 5*time.Second, time.Millisecond)
	cancel()
	clk.Step(10 * time.Second)
	select {
	case <-rt.lists:
		t.Fatal("a pass ran after the context was done")
	case <-time.After(100 * time.Millisecond):
	}
}

func TestAZeroContainerLogManagerRefusesToRotate(t *testing.T) {
	var m logs.ContainerLogManager
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.EqualError(t, m.RotateLogs(ctx), "container log manager: not made by NewContainerLogManager",
		"a manager without a runtime returns at once rather than waiting for a pass")
	m.Start(ctx) // nothing to run: no goroutine asks a runtime it does not have
}
