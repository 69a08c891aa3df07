package podruntimetest

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/clock"
)

// Name is the runtime's name, as its Version reports it: the scheme of status containerIDs.
const Name = "podruntimetest"

// DefaultPodIP is the IP a sandbox with its own network gets unless Runtime.PodIP says otherwise.
const DefaultPodIP = "10.88.0.2"

// StoppedExitCode and StoppedReason are what a container stopped by StopContainer or
// StopPodSandbox exits with: killed by a signal, as containerd reports it.
const (
	StoppedExitCode = 137
	StoppedReason   = "Error"
)

// Runtime is a CRI runtime and image service in memory. Sandboxes and containers move through
// the CRI's states as containerd moves them: a container is created, started, and exits only when
// the test says (Exit) or when it is stopped; a container cannot be created twice under one name
// and attempt in a sandbox, nor removed while it runs (containerd's errors). Images are present
// when added (AddImage) or pulled from Registry. Every call is recorded (Calls), and any can be
// made to fail (Fail).
//
// The zero value is ready to use; a Runtime is safe for concurrent use.
type Runtime struct {
	// PodIP is the IP of a sandbox with its own network; empty means DefaultPodIP.
	PodIP string
	// Registry lists the images a pull finds, by the name pulled, with their IDs; a pull of
	// anything else fails as a registry without the image does.
	Registry map[string]string
	// Handlers are the runtime handlers Status reports.
	Handlers []*runtimeapi.RuntimeHandler
	// Clock gives the times of creations, starts and exits; nil is the real clock. Share it with
	// the code under test to move time forward in back-offs.
	Clock clock.PassiveClock

	mu         sync.Mutex
	last       int64 // the last timestamp given, in nanoseconds
	seq        int
	sandboxes  map[string]*sandbox
	containers map[string]*container
	images     map[string]*runtimeapi.Image // by name and by ID
	failures   map[string][]error
	calls      []string
}

type sandbox struct {
	id        string
	config    *runtimeapi.PodSandboxConfig
	handler   string
	state     runtimeapi.PodSandboxState
	createdAt int64
	ip        string
}

type container struct {
	id, sandboxID                    string
	config                           *runtimeapi.ContainerConfig
	logPath                          string
	state                            runtimeapi.ContainerState
	createdAt, startedAt, finishedAt int64
	exitCode                         int32
	reason, message                  string
}

// name is how calls name a container: its name and attempt.
func (c *container) name() string {
	return fmt.Sprintf("%s/%d", c.config.GetMetadata().GetName(), c.config.GetMetadata().GetAttempt())
}

// name is how calls name a sandbox: its pod's name and its attempt.
func (s *sandbox) name() string {
	return fmt.Sprintf("%s/%d", s.config.GetMetadata().GetName(), s.config.GetMetadata().GetAttempt())
}

// init makes the maps of a zero Runtime; the caller holds mu.
func (r *Runtime) init() {
	if r.sandboxes == nil {
		r.sandboxes, r.containers = map[string]*sandbox{}, map[string]*container{}
		r.images, r.failures = map[string]*runtimeapi.Image{}, map[string][]error{}
	}
}

// now is a timestamp later than every one given before.
func (r *Runtime) now() int64 {
	var t int64
	if r.Clock != nil {
		t = r.Clock.Now().UnixNano()
	} else {
		t = time.Now().UnixNano()
	}
	if t <= r.last {
		t = r.last + 1
	}
	r.last = t
	return t
}

// call records a call and returns the failure queued for its method, if any; the caller holds mu.
func (r *Runtime) call(method, detail string) error {
	r.init()
	if detail != "" {
		method += " " + detail
	}
	r.calls = append(r.calls, method)
	name, _, _ := strings.Cut(method, " ")
	if q := r.failures[name]; len(q) > 0 {
		r.failures[name] = q[1:]
		return q[0]
	}
	return nil
}

// Fail makes the next call of the CRI method (e.g. "RunPodSandbox", "PullImage") fail with err;
// several Fail calls fail as many calls, in order.
func (r *Runtime) Fail(method string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init()
	r.failures[method] = append(r.failures[method], err)
}

// Calls returns the calls made so far, each as its method and what it was about: a container as
// name/attempt ("CreateContainer web/0"), a sandbox as pod name/attempt, an image by name;
// StopContainer adds its timeout in seconds. Reads (statuses, lists, Version) are not recorded.
func (r *Runtime) Calls() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

// AddImage makes an image present, with its ID and size.
func (r *Runtime) AddImage(name, id string, size uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init()
	img := &runtimeapi.Image{Id: id, RepoTags: []string{name}, Size: size}
	r.images[name], r.images[id] = img, img
}

// Exit makes the running container with this ID exit with the code and reason, as a process
// that ends does; it reports whether such a container ran.
func (r *Runtime) Exit(id string, exitCode int32, reason string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init()
	c, ok := r.containers[id]
	if !ok || c.state != runtimeapi.ContainerState_CONTAINER_RUNNING {
		return false
	}
	c.exit(r.now(), exitCode, reason)
	return true
}

// ExitNamed makes the running container of that name exit (see Exit), and returns its ID, or ""
// when no container of the name runs.
func (r *Runtime) ExitNamed(name string, exitCode int32, reason string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init()
	for _, c := range r.containers {
		if c.config.GetMetadata().GetName() == name && c.state == runtimeapi.ContainerState_CONTAINER_RUNNING {
			c.exit(r.now(), exitCode, reason)
			return c.id
		}
	}
	return ""
}

func (c *container) exit(at int64, code int32, reason string) {
	c.state, c.finishedAt, c.exitCode, c.reason = runtimeapi.ContainerState_CONTAINER_EXITED, at, code, reason
}

// Counts returns how many sandboxes and containers the runtime holds.
func (r *Runtime) Counts() (sandboxes, containers int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.sandboxes), len(r.containers)
}

// Clients serves the runtime over an in-process gRPC connection, as a CRI socket would, and
// returns the two CRI clients and a function that closes the connection and the server.
func (r *Runtime) Clients() (runtimeapi.RuntimeServiceClient, runtimeapi.ImageServiceClient, func()) {
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer()
	runtimeapi.RegisterRuntimeServiceServer(srv, &runtimeServer{r: r})
	runtimeapi.RegisterImageServiceServer(srv, &imageServer{r: r})
	go func() { _ = srv.Serve(lis) }()
	conn, err := grpc.NewClient("passthrough:///podruntimetest",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		// NewClient fails only on invalid options, and these are fixed.
		srv.Stop()
		return nil, nil, func() {}
	}
	return runtimeapi.NewRuntimeServiceClient(conn), runtimeapi.NewImageServiceClient(conn), func() {
		_ = conn.Close()
		srv.Stop()
	}
}

func notFound(what, id string) error {
	return status.Errorf(codes.NotFound, "%s %q not found", what, id)
}

// matches reports whether labels hold every pair of the selector.
func matches(labels, selector map[string]string) bool {
	for k, v := range selector {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// sandboxStatus is the CRI status of a sandbox; the caller holds mu.
func (s *sandbox) status() *runtimeapi.PodSandboxStatus {
	st := &runtimeapi.PodSandboxStatus{
		Id: s.id, Metadata: s.config.GetMetadata(), State: s.state, CreatedAt: s.createdAt,
		Network:        &runtimeapi.PodSandboxNetworkStatus{Ip: s.ip},
		Linux:          &runtimeapi.LinuxPodSandboxStatus{Namespaces: &runtimeapi.Namespace{Options: s.config.GetLinux().GetSecurityContext().GetNamespaceOptions()}},
		Labels:         s.config.GetLabels(),
		Annotations:    s.config.GetAnnotations(),
		RuntimeHandler: s.handler,
	}
	return st
}

// containerStatus is the CRI status of a container; the caller holds mu.
func (c *container) status() *runtimeapi.ContainerStatus {
	img := c.config.GetImage()
	st := &runtimeapi.ContainerStatus{
		Id: c.id, Metadata: c.config.GetMetadata(), State: c.state,
		CreatedAt: c.createdAt, StartedAt: c.startedAt, FinishedAt: c.finishedAt,
		ExitCode: c.exitCode, Reason: c.reason, Message: c.message,
		Image:    &runtimeapi.ImageSpec{Image: img.GetUserSpecifiedImage()},
		ImageRef: img.GetImage(), ImageId: img.GetImage(),
		Labels: c.config.GetLabels(), Annotations: c.config.GetAnnotations(), LogPath: c.logPath,
		StopSignal: c.config.GetStopSignal(),
	}
	if st.Image.Image == "" {
		st.Image.Image = img.GetImage()
	}
	for _, m := range c.config.GetMounts() {
		st.Mounts = append(st.Mounts, &runtimeapi.Mount{ContainerPath: m.GetContainerPath(), HostPath: m.GetHostPath(), Readonly: m.GetReadonly()})
	}
	if res := c.config.GetLinux().GetResources(); res != nil {
		st.Resources = &runtimeapi.ContainerResources{Linux: res}
	}
	return st
}

// sortedSandboxes are the sandboxes in creation order; the caller holds mu.
func (r *Runtime) sortedSandboxes() []*sandbox {
	out := make([]*sandbox, 0, len(r.sandboxes))
	for _, s := range r.sandboxes {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].createdAt < out[j].createdAt })
	return out
}

// sortedContainers are the containers in creation order; the caller holds mu.
func (r *Runtime) sortedContainers() []*container {
	out := make([]*container, 0, len(r.containers))
	for _, c := range r.containers {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].createdAt < out[j].createdAt })
	return out
}

// logPath is where a container logs: its config's path below its sandbox's log directory.
func logPath(sb *sandbox, cfg *runtimeapi.ContainerConfig) string {
	if sb.config.GetLogDirectory() == "" || cfg.GetLogPath() == "" {
		return ""
	}
	return filepath.Join(sb.config.GetLogDirectory(), cfg.GetLogPath())
}
