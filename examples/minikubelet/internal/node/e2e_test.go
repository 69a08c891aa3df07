package node_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/examples/minikubelet/internal/node"
	"github.com/podconfig/podconfig/manifest"
)

// The end-to-end suite runs real pods on the CRI runtime PODCONFIG_E2E_ENDPOINT names, with
// minikubelet's node code and podconfig generating every config, and checks each behaviour from
// inside a container (its output) or on the host. .ci/stages/30-e2e.sh starts a private containerd
// with the images it expects and runs it; without that runtime, or without root, it skips.
const (
	image        = "podconfig.local/busybox:1"
	nonRootImage = "podconfig.local/busybox:nonroot"
	// podNetworkIP is the address the stage's test CNI plugin gives every pod-network sandbox.
	podNetworkIP = "10.88.0.2"
)

var nodeIP = net.ParseIP("192.0.2.10")

// starts collects every pod's start timing, for the share of podconfig reported at the end.
var starts struct {
	sync.Mutex
	generate, total time.Duration
	pods            int
}

func TestMain(m *testing.M) {
	code := m.Run()
	if starts.pods > 0 {
		fmt.Printf("podconfig share of pod start: %v generating configs of %v starting %d pods (%.2f%%)\n",
			starts.generate, starts.total, starts.pods, 100*float64(starts.generate)/float64(starts.total))
	}
	os.Exit(code)
}

// recorder is the CRI runtime client that remembers which containers were created.
type recorder struct {
	runtimeapi.RuntimeServiceClient
	mu      sync.Mutex
	created []string
}

func (r *recorder) CreateContainer(ctx context.Context, in *runtimeapi.CreateContainerRequest, opts ...grpc.CallOption) (*runtimeapi.CreateContainerResponse, error) {
	r.mu.Lock()
	r.created = append(r.created, in.GetConfig().GetMetadata().GetName())
	r.mu.Unlock()
	return r.RuntimeServiceClient.CreateContainer(ctx, in, opts...)
}

func (r *recorder) createdNames() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.created...)
}

type e2e struct {
	node *node.Node
	rt   *recorder
	root string
	out  *watchWriter
	in   *node.Input
}

// newE2E reads a manifest and returns a node on the suite's runtime with its objects, or skips
// the test. Each change edits the node's Config before the node is made.
func newE2E(t *testing.T, yaml string, changes ...func(*node.Config)) *e2e {
	t.Helper()
	in, err := node.Load(manifest.Options{NodeName: "e2e-node"}, manifest.Input{Name: t.Name(), Reader: strings.NewReader(yaml)})
	require.NoError(t, err)
	endpoint := os.Getenv("PODCONFIG_E2E_ENDPOINT")
	if endpoint == "" {
		t.Skip("end-to-end: PODCONFIG_E2E_ENDPOINT names no CRI runtime; .ci/stages/30-e2e.sh starts one and runs this suite")
	}
	if os.Geteuid() != 0 {
		t.Skip("end-to-end: needs root")
	}
	root := os.Getenv("PODCONFIG_E2E_ROOT")
	if root == "" {
		root = t.TempDir()
	}
	conn, err := node.Dial(endpoint)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	rt := &recorder{RuntimeServiceClient: runtimeapi.NewRuntimeServiceClient(conn)}
	out := &watchWriter{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cfg := node.Config{
		Runtime:           rt,
		Images:            runtimeapi.NewImageServiceClient(conn),
		NodeName:          "e2e-node",
		NodeIPs:           []net.IP{nodeIP},
		RootDir:           filepath.Join(root, "kubelet"),
		PodLogsDir:        filepath.Join(root, "pods"),
		CgroupRoot:        os.Getenv("PODCONFIG_E2E_CGROUP_ROOT"),
		ClusterDomain:     "cluster.local",
		ClusterDNS:        []string{"10.96.0.10"},
		ResolvConf:        []byte("nameserver 192.0.2.53\n"),
		Objects:           in.Objects,
		Out:               out,
		Logf:              t.Logf,
		RestartBackoff:    50 * time.Millisecond,
		MaxRestartBackoff: 200 * time.Millisecond,
		StopTimeout:       time.Second,
	}
	for _, change := range changes {
		change(&cfg)
	}
	n, err := node.New(ctx, cfg)
	require.NoError(t, err)
	return &e2e{node: n, rt: rt, root: root, out: out, in: in}
}

// run runs the manifest's first pod to its end (at most a minute), or until until's channel
// closes, and checks that nothing of it is left mounted on the host.
func (e *e2e) run(t *testing.T, until <-chan struct{}) (*node.PodStatus, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if until != nil {
		go func() {
			select {
			case <-until:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	status, err := e.node.RunPod(ctx, e.in.Pods[0])
	require.NotNil(t, status)
	if status.Timing.Start > 0 {
		starts.Lock()
		starts.generate += status.Timing.Generate
		starts.total += status.Timing.Start
		starts.pods++
		starts.Unlock()
		t.Logf("pod started in %v, podconfig generated its configs in %v", status.Timing.Start, status.Timing.Generate)
	}
	assertNoMountsBelow(t, filepath.Join(e.root, "kubelet", "pods", string(status.UID)))
	return status, err
}

func assertNoMountsBelow(t *testing.T, dir string) {
	t.Helper()
	data, err := os.ReadFile("/proc/self/mountinfo")
	require.NoError(t, err)
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) > 4 && (f[4] == dir || strings.HasPrefix(f[4], dir+"/")) {
			t.Errorf("mount left behind: %s", line)
		}
	}
}

// logOf returns the last attempt's output of a container that ran to its end with exit code 0.
func logOf(t *testing.T, status *node.PodStatus, name string) string {
	t.Helper()
	c := status.Container(name)
	require.NotNil(t, c, "container %s", name)
	a := c.Last()
	require.NotNil(t, a, "container %s never started", name)
	require.True(t, a.Exited, "container %s did not exit", name)
	require.Zero(t, a.ExitCode, "container %s failed; its log:\n%s", name, a.Log)
	return a.Log
}

// watchWriter is the node's log output: it keeps it and tells when a line appears.
type watchWriter struct {
	mu      sync.Mutex
	b       strings.Builder
	waiting []watch
}

type watch struct {
	substr string
	ch     chan struct{}
}

func (w *watchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	kept := w.waiting[:0]
	for _, wt := range w.waiting {
		if strings.Contains(w.b.String(), wt.substr) {
			close(wt.ch)
		} else {
			kept = append(kept, wt)
		}
	}
	w.waiting = kept
	return len(p), nil
}

// when returns a channel closed once the output contains substr.
func (w *watchWriter) when(substr string) <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	ch := make(chan struct{})
	if strings.Contains(w.b.String(), substr) {
		close(ch)
	} else {
		w.waiting = append(w.waiting, watch{substr, ch})
	}
	return ch
}

func (w *watchWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
