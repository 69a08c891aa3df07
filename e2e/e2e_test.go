package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/manifest"
)

const (
	image        = "podconfig.local/busybox:1"
	nonRootImage = "podconfig.local/busybox:nonroot"
	// podNetworkIP is the address the stage's test CNI plugin gives every pod-network sandbox.
	podNetworkIP = "10.88.0.2"
	// nodeName is the node the suite's minikubelet runs as.
	nodeName = "e2e-node"
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

// podStatus is a pod's entry of minikubelet's -status-file: what its node saw of the pod.
type podStatus struct {
	UID            string            `json:"uid"`
	SandboxID      string            `json:"sandboxID"`
	PodIPs         []string          `json:"podIPs"`
	InitContainers []containerStatus `json:"initContainers"`
	Containers     []containerStatus `json:"containers"`
	Timing         struct {
		Generate time.Duration `json:"generate"`
		Start    time.Duration `json:"start"`
	} `json:"timing"`
	// Pod is the pod's last status as kubelet would report it (podruntime's GenerateAPIPodStatus).
	Pod *v1.PodStatus `json:"pod"`
}

// apiContainer returns the API status of the init or regular container with the given name.
func (s *podStatus) apiContainer(t *testing.T, name string) v1.ContainerStatus {
	t.Helper()
	require.NotNil(t, s.Pod, "the status file holds the pod's API status")
	for _, list := range [][]v1.ContainerStatus{s.Pod.InitContainerStatuses, s.Pod.ContainerStatuses} {
		for _, c := range list {
			if c.Name == name {
				return c
			}
		}
	}
	t.Fatalf("no API status of container %s", name)
	return v1.ContainerStatus{}
}

// condition returns the pod's condition of the type as "Status Reason".
func (s *podStatus) condition(t *testing.T, typ v1.PodConditionType) string {
	t.Helper()
	require.NotNil(t, s.Pod)
	for _, c := range s.Pod.Conditions {
		if c.Type == typ {
			return strings.TrimSpace(string(c.Status) + " " + c.Reason)
		}
	}
	return ""
}

// Container returns the status of the init or regular container with the given name.
func (s *podStatus) Container(name string) *containerStatus {
	for _, list := range [][]containerStatus{s.InitContainers, s.Containers} {
		for i := range list {
			if list[i].Name == name {
				return &list[i]
			}
		}
	}
	return nil
}

type containerStatus struct {
	Name     string    `json:"name"`
	Attempts []attempt `json:"attempts"`
}

// Last returns the last attempt, or nil.
func (c *containerStatus) Last() *attempt {
	if c == nil || len(c.Attempts) == 0 {
		return nil
	}
	return &c.Attempts[len(c.Attempts)-1]
}

type attempt struct {
	ID           string            `json:"id"`
	RestartCount int               `json:"restartCount"`
	LogPath      string            `json:"logPath"`
	Log          string            `json:"log"`
	Annotations  map[string]string `json:"annotations"`
	Exited       bool              `json:"exited"`
	ExitCode     int32             `json:"exitCode"`
	Reason       string            `json:"reason"`
	Message      string            `json:"message"`
}

// podResult is one entry of the -status-file.
type podResult struct {
	Namespace string     `json:"namespace"`
	Name      string     `json:"name"`
	Status    *podStatus `json:"status"`
	Error     string     `json:"error"`
}

// e2e is one run of minikubelet on the suite's runtime.
type e2e struct {
	// manifest is what minikubelet runs (-f); a test may change it before run.
	manifest string
	// pods are the manifest's pods as minikubelet reads them (the manifest package), for their
	// names and UIDs.
	pods []*v1.Pod
	// rt is the suite's own connection to the runtime, to ask it what minikubelet left.
	rt   runtimeapi.RuntimeServiceClient
	root string
	// rootDir is minikubelet's -root-dir; a test may change it before run.
	rootDir string
	// nodeIPs is minikubelet's -node-ip.
	nodeIPs string
	// mountsLeft says the test expects mounts below the pod's directory after minikubelet
	// ended, and removes them itself.
	mountsLeft  bool
	out         *watchWriter // minikubelet's standard output: the containers' logs
	log         *watchWriter // its standard error, with -v: what the node does
	dir         string
	proc        *exec.Cmd
	done        chan struct{}
	waitErr     error
	minikubelet string
}

// newE2E reads a manifest as minikubelet will, and returns a run of it on the suite's runtime,
// or skips the test without that runtime, root, or the minikubelet binary.
func newE2E(t *testing.T, yaml string) *e2e {
	t.Helper()
	b, err := manifest.Read(manifest.Options{NodeName: nodeName, DefaultTemplates: true}, manifest.Input{Name: t.Name(), Reader: strings.NewReader(yaml)})
	require.NoError(t, err)
	endpoint := os.Getenv("PODCONFIG_E2E_ENDPOINT")
	if endpoint == "" {
		t.Skip("end-to-end: PODCONFIG_E2E_ENDPOINT names no CRI runtime; .ci/stages/30-e2e.sh starts one and runs this suite")
	}
	if os.Geteuid() != 0 {
		t.Skip("end-to-end: needs root")
	}
	bin := os.Getenv("PODCONFIG_E2E_MINIKUBELET")
	if bin == "" {
		t.Skip("end-to-end: PODCONFIG_E2E_MINIKUBELET names no minikubelet binary; .ci/stages/30-e2e.sh builds it")
	}
	root := os.Getenv("PODCONFIG_E2E_ROOT")
	if root == "" {
		root = t.TempDir()
	}
	e := &e2e{manifest: yaml, rt: runtimeClient(t), root: root, rootDir: filepath.Join(root, "kubelet"),
		nodeIPs: nodeIP.String(), out: &watchWriter{}, log: &watchWriter{}, dir: t.TempDir(), minikubelet: bin}
	for _, p := range b.Pods {
		e.pods = append(e.pods, p.Pod)
	}
	return e
}

// runtimeClient is a connection of the suite's own to the runtime.
func runtimeClient(t *testing.T) runtimeapi.RuntimeServiceClient {
	t.Helper()
	conn, err := grpc.NewClient(os.Getenv("PODCONFIG_E2E_ENDPOINT"), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	return runtimeapi.NewRuntimeServiceClient(conn)
}

// start starts minikubelet on the manifest.
func (e *e2e) start(t *testing.T) {
	t.Helper()
	file := filepath.Join(e.dir, "manifest.yaml")
	require.NoError(t, os.WriteFile(file, []byte(e.manifest), 0o644))
	resolv := filepath.Join(e.dir, "resolv.conf")
	require.NoError(t, os.WriteFile(resolv, []byte("nameserver 192.0.2.53\n"), 0o644))
	e.proc = exec.Command(e.minikubelet,
		"-endpoint", os.Getenv("PODCONFIG_E2E_ENDPOINT"),
		"-node-name", nodeName, "-node-ip", e.nodeIPs,
		"-root-dir", e.rootDir, "-pod-logs-dir", filepath.Join(e.root, "pods"),
		"-cgroup-root", os.Getenv("PODCONFIG_E2E_CGROUP_ROOT"),
		"-cluster-domain", "cluster.local", "-cluster-dns", "10.96.0.10", "-resolv-conf", resolv,
		"-restart-backoff", "50ms", "-shutdown-grace-period", "1s",
		"-status-file", filepath.Join(e.dir, "status.json"), "-v", "-f", file)
	e.proc.Stdout, e.proc.Stderr = e.out, e.log
	require.NoError(t, e.proc.Start())
	e.done = make(chan struct{})
	go func() {
		e.waitErr = e.proc.Wait()
		close(e.done)
	}()
	// A test that ends early (a failed require) still has minikubelet tear its pods down.
	t.Cleanup(func() {
		select {
		case <-e.done:
			return
		default:
		}
		_ = e.proc.Process.Signal(os.Interrupt)
		select {
		case <-e.done:
		case <-time.After(2 * time.Minute):
			_ = e.proc.Process.Kill()
			<-e.done
		}
	})
}

// signal sends minikubelet a signal.
func (e *e2e) signal(t *testing.T, sig os.Signal) {
	t.Helper()
	require.NoError(t, e.proc.Process.Signal(sig))
}

// wait waits for minikubelet to end (interrupting it, which tears its pods down, once until is
// closed or after a minute), logs its output, and returns the manifest's first pod's status and
// error, then checks that nothing of the pod is left mounted on the host.
func (e *e2e) wait(t *testing.T, until <-chan struct{}) (*podStatus, error) {
	t.Helper()
	timeout := time.After(time.Minute)
	select {
	case <-e.done:
	case <-until:
		e.signal(t, os.Interrupt)
	case <-timeout:
		t.Errorf("the pod ran for more than a minute: interrupted")
		e.signal(t, os.Interrupt)
	}
	select {
	case <-e.done:
	case <-time.After(2 * time.Minute):
		_ = e.proc.Process.Kill()
		<-e.done
		t.Fatalf("minikubelet did not end two minutes after its interrupt; its log:\n%s", e.log)
	}
	t.Logf("minikubelet: %v; its log:\n%s", e.waitErr, e.log)
	data, err := os.ReadFile(filepath.Join(e.dir, "status.json"))
	require.NoError(t, err, "minikubelet wrote no status file (exit: %v)", e.waitErr)
	var results []podResult
	require.NoError(t, json.Unmarshal(data, &results))
	require.NotEmpty(t, results)
	status := results[0].Status
	require.NotNil(t, status)
	if status.Timing.Start > 0 {
		starts.Lock()
		starts.generate += status.Timing.Generate
		starts.total += status.Timing.Start
		starts.pods++
		starts.Unlock()
		t.Logf("pod started in %v, podconfig generated its configs in %v", status.Timing.Start, status.Timing.Generate)
	}
	if !e.mountsLeft {
		assertNoMountsBelow(t, filepath.Join(e.rootDir, "pods", status.UID))
	}
	if results[0].Error != "" {
		return status, errors.New(results[0].Error)
	}
	if e.waitErr != nil {
		return status, fmt.Errorf("minikubelet: %w: %s", e.waitErr, e.log)
	}
	return status, nil
}

// run runs the manifest's pod to its end, or until until's channel closes.
func (e *e2e) run(t *testing.T, until <-chan struct{}) (*podStatus, error) {
	t.Helper()
	e.start(t)
	return e.wait(t, until)
}

// createRE matches minikubelet's -v line for kubelet's Created event, which follows each
// CreateContainer call the runtime accepted.
var createRE = regexp.MustCompile(`(?m)^minikubelet: pod [^ ]+: container ([^ ]+): Created: Container created$`)

// createdNames are the containers the runtime created for minikubelet, in order.
func (e *e2e) createdNames() []string {
	var names []string
	for _, m := range createRE.FindAllStringSubmatch(e.log.String(), -1) {
		names = append(names, m[1])
	}
	return names
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
func logOf(t *testing.T, status *podStatus, name string) string {
	t.Helper()
	c := status.Container(name)
	require.NotNil(t, c, "container %s", name)
	a := c.Last()
	require.NotNil(t, a, "container %s never started", name)
	require.True(t, a.Exited, "container %s did not exit", name)
	require.Zero(t, a.ExitCode, "container %s failed; its log:\n%s", name, a.Log)
	return a.Log
}

// watchWriter keeps an output and tells when a line appears in it.
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
