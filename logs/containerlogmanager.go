package logs

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"google.golang.org/grpc"
	"k8s.io/apimachinery/pkg/api/resource"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/clock"
)

// Kubelet's defaults for its container log rotation settings.
const (
	// DefaultContainerLogMaxSize is containerLogMaxSize (--container-log-max-size).
	DefaultContainerLogMaxSize = "10Mi"
	// DefaultContainerLogMaxFiles is containerLogMaxFiles (--container-log-max-files).
	DefaultContainerLogMaxFiles = 5
	// DefaultContainerLogMonitorInterval is containerLogMonitorInterval.
	DefaultContainerLogMonitorInterval = 10 * time.Second
)

// minContainerLogMonitorInterval is the shortest interval kubelet's config validation accepts.
const minContainerLogMonitorInterval = 3 * time.Second

// ContainerLogRuntime is the part of the CRI runtime service the container log manager calls;
// runtimeapi.RuntimeServiceClient implements it.
type ContainerLogRuntime interface {
	ListContainers(ctx context.Context, in *runtimeapi.ListContainersRequest, opts ...grpc.CallOption) (*runtimeapi.ListContainersResponse, error)
	ContainerStatus(ctx context.Context, in *runtimeapi.ContainerStatusRequest, opts ...grpc.CallOption) (*runtimeapi.ContainerStatusResponse, error)
	ReopenContainerLog(ctx context.Context, in *runtimeapi.ReopenContainerLogRequest, opts ...grpc.CallOption) (*runtimeapi.ReopenContainerLogResponse, error)
}

var _ ContainerLogRuntime = runtimeapi.RuntimeServiceClient(nil)

// ContainerLogManagerOptions configures NewContainerLogManager. Each setting is used as given,
// as kubelet uses its configuration once defaulted: start from the Default* constants.
type ContainerLogManagerOptions struct {
	// Runtime lists the containers, gives their log paths and reopens their logs. Required.
	Runtime ContainerLogRuntime
	// MaxSize is kubelet's containerLogMaxSize (--container-log-max-size), a quantity such as
	// "10Mi": a log at least this large is rotated. A negative size turns rotation off.
	MaxSize string
	// MaxFiles is kubelet's containerLogMaxFiles (--container-log-max-files): the most log
	// files a container keeps, its current log included. It must be greater than 1.
	MaxFiles int
	// MonitorInterval is kubelet's containerLogMonitorInterval: how long Start waits after a
	// pass before the next. It must be at least 3s.
	MonitorInterval time.Duration
	// Clock times the passes and names rotated logs; nil is the real clock.
	Clock clock.Clock
	// OnError receives, after each pass Start runs, what went wrong in it (kubelet logs it);
	// nil discards it.
	OnError func(error)
}

// ContainerLogManager rotates the logs of the runtime's running containers as kubelet's
// container log manager does. Its passes run one at a time; it is safe for concurrent use.
type ContainerLogManager struct {
	opts    ContainerLogManagerOptions
	maxSize int64
	// passes serialises RotateLogs: two passes renaming one log would lose it.
	passes chan struct{}
}

// ValidateContainerLogRotation checks kubelet's log rotation settings as kubelet does, with its
// error texts: first its configuration's validation (containerLogMaxFiles and
// containerLogMonitorInterval, every failure in one error), then the parse of the max size its
// NewContainerLogManager does. A command checks its flags with it.
func ValidateContainerLogRotation(maxSize string, maxFiles int, monitorInterval time.Duration) error {
	_, err := validateRotation(maxSize, maxFiles, monitorInterval)
	return err
}

// validateRotation validates the settings and returns the max size in bytes.
func validateRotation(maxSize string, maxFiles int, monitorInterval time.Duration) (int64, error) {
	var errs []error
	if monitorInterval < minContainerLogMonitorInterval {
		errs = append(errs, errors.New("invalid configuration: containerLogMonitorInterval must be a positive time duration greater than or equal to 3s"))
	}
	if maxFiles <= 1 {
		errs = append(errs, errors.New("invalid configuration: containerLogMaxFiles must be greater than 1"))
	}
	if len(errs) > 0 {
		return 0, utilerrors.NewAggregate(errs)
	}
	size, err := parseMaxSize(maxSize)
	if err != nil {
		return 0, fmt.Errorf("failed to parse container log max size %q: %w", maxSize, err)
	}
	return size, nil
}

// parseMaxSize reads a quantity as a whole number of bytes.
func parseMaxSize(s string) (int64, error) {
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return 0, err
	}
	n, ok := q.AsInt64()
	if !ok {
		return 0, errors.New("invalid max log size")
	}
	return n, nil
}

// errNotMade is RotateLogs' error on a ContainerLogManager that NewContainerLogManager did not
// make: it has no runtime to ask and no settings.
var errNotMade = errors.New("container log manager: not made by NewContainerLogManager")

// NewContainerLogManager returns a manager for opts after validating them as
// ValidateContainerLogRotation does (kubelet's NewContainerLogManager with its configuration's
// validation).
func NewContainerLogManager(opts ContainerLogManagerOptions) (*ContainerLogManager, error) {
	if opts.Runtime == nil {
		return nil, errors.New("container log manager: a runtime is required")
	}
	size, err := validateRotation(opts.MaxSize, opts.MaxFiles, opts.MonitorInterval)
	if err != nil {
		return nil, err
	}
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	return &ContainerLogManager{opts: opts, maxSize: size, passes: make(chan struct{}, 1)}, nil
}

// Start runs a pass at once, then one MonitorInterval after each pass ends, until ctx is done;
// it returns at once. With rotation turned off it does nothing.
func (m *ContainerLogManager) Start(ctx context.Context) {
	if m.maxSize < 0 || m.passes == nil {
		return
	}
	go func() {
		for {
			if err := m.RotateLogs(ctx); err != nil && ctx.Err() == nil && m.opts.OnError != nil {
				m.opts.OnError(err)
			}
			select {
			case <-ctx.Done():
				return
			case <-m.opts.Clock.After(m.opts.MonitorInterval):
			}
		}
	}()
}

// RotateLogs runs one pass, as kubelet's rotateLogs and its workers do: for each running
// container of the runtime whose log is at least MaxSize, it removes the leftovers of interrupted
// rotations and the oldest rotated copies past MaxFiles, gzips the others, renames the log to
// "<log>.<YYYYMMDD-hhmmss>" and has the runtime reopen it (renaming it back if the runtime
// cannot). Files are reached only through the log's directory, as the runtime's LogPath names
// it, never through a symlink, and only regular files are touched. A container whose log cannot be rotated does not stop the others; the
// error names each.
func (m *ContainerLogManager) RotateLogs(ctx context.Context) error {
	if m.passes == nil {
		return errNotMade
	}
	if m.maxSize < 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case m.passes <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-m.passes }()
	resp, err := m.opts.Runtime.ListContainers(ctx, &runtimeapi.ListContainersRequest{Filter: &runtimeapi.ContainerFilter{}})
	if err != nil {
		return fmt.Errorf("failed to list containers: %w", err)
	}
	var errs []error
	for _, c := range resp.GetContainers() {
		// A container that is not running writes no more: rotating would leave it an empty log.
		if c.GetState() != runtimeapi.ContainerState_CONTAINER_RUNNING {
			continue
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err := m.processContainer(ctx, c.GetId()); err != nil {
			errs = append(errs, fmt.Errorf("container %s: %w", c.GetId(), err))
		}
	}
	return errors.Join(errs...)
}

// processContainer rotates one container's log when it is at least MaxSize. A log that is
// missing is reopened first, as kubelet does, so that the container writes somewhere again; one
// still missing after that, or a container the runtime gives no log path, has nothing to rotate.
func (m *ContainerLogManager) processContainer(ctx context.Context, id string) error {
	resp, err := m.opts.Runtime.ContainerStatus(ctx, &runtimeapi.ContainerStatusRequest{ContainerId: id})
	if err != nil {
		return fmt.Errorf("failed to get container status: %w", err)
	}
	if resp.GetStatus() == nil {
		return errors.New("container status is nil")
	}
	path := resp.GetStatus().GetLogPath()
	if path == "" {
		return nil
	}
	if !filepath.IsAbs(path) {
		return fmt.Errorf("log path %q is not absolute", path)
	}
	dir, size, err := openLog(path)
	if errors.Is(err, errVanished) {
		if err := m.reopen(ctx, id); err != nil {
			return fmt.Errorf("container log %q does not exist, and reopening it failed: %w", path, err)
		}
		dir, size, err = openLog(path)
		if errors.Is(err, errVanished) {
			return nil
		}
	}
	if err != nil {
		return err
	}
	defer dir.close()
	if size < m.maxSize {
		return nil
	}
	return m.rotateLog(ctx, dir, id, filepath.Base(path))
}

// openLog opens the directory of the log at path and returns it with the log's size; the error
// matches errVanished when either is missing.
func openLog(path string) (*logDir, int64, error) {
	dir, err := openLogDir(filepath.Dir(path))
	if err != nil {
		return nil, 0, err
	}
	size, err := dir.size(filepath.Base(path))
	if err != nil {
		dir.close()
		return nil, 0, err
	}
	return dir, size, nil
}

// reopen asks the runtime to reopen the container's log at its path.
func (m *ContainerLogManager) reopen(ctx context.Context, id string) error {
	_, err := m.opts.Runtime.ReopenContainerLog(ctx, &runtimeapi.ReopenContainerLogRequest{ContainerId: id})
	return err
}
