package node

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/podruntime"
	"github.com/podconfig/podconfig/podruntime/podruntimetest"
	"github.com/podconfig/podconfig/subpath"
)

// logBuffer is the node's -v log in a test.
type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(&l.b, format+"\n", args...)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// fakeNode is a node on an in-memory runtime, its directories in memory below temporary roots.
func fakeNode(t *testing.T, rt *podruntimetest.Runtime) (*Node, *logBuffer) {
	t.Helper()
	offline := configgentest.NewNode()
	offline.Options.RootDir, offline.Options.PodLogsDir = t.TempDir(), t.TempDir()
	gen, err := offline.Generator()
	require.NoError(t, err)
	log := &logBuffer{}
	n := &Node{cfg: Config{NodeName: "node-1", RootDir: offline.Options.RootDir, PodLogsDir: offline.Options.PodLogsDir, Logf: log.logf},
		gen: gen, sub: subpath.New()}
	rc, ic, stop := rt.Clients()
	t.Cleanup(stop)
	n.rt, err = podruntime.New(context.Background(), podruntime.Options{Runtime: rc, Images: ic, Generator: timedGenerator{gen, n}, Events: n.logEvent})
	require.NoError(t, err)
	return n, log
}

// exitInTurn makes each named container exit once it runs, in order: "name" with 0, "name=fail"
// with 1.
func exitInTurn(ctx context.Context, rt *podruntimetest.Runtime, exits ...string) {
	for _, e := range exits {
		name, fail := strings.CutSuffix(e, "=fail")
		code, reason := int32(0), "Completed"
		if fail {
			code, reason = 1, "Error"
		}
		for rt.ExitNamed(name, code, reason) == "" {
			select {
			case <-ctx.Done():
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
}

var createdRE = regexp.MustCompile(`(?m)^pod default/job: container ([^ ]+): Created: Container created$`)

func TestRunPodRunsAPodToItsEndAndReportsItAsKubeletWould(t *testing.T) {
	rt := &podruntimetest.Runtime{}
	rt.AddImage("app:1", "sha256:app", 1)
	n, log := fakeNode(t, rt)
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "job", Namespace: "default"}, Spec: v1.PodSpec{
		RestartPolicy: v1.RestartPolicyOnFailure, HostNetwork: true,
		InitContainers: []v1.Container{{Name: "setup", Image: "app:1"}},
		Containers:     []v1.Container{{Name: "main", Image: "app:1"}},
	}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// main fails the first time; its restart succeeds.
	go exitInTurn(ctx, rt, "setup", "main=fail", "main")
	status, err := n.RunPod(ctx, pod)
	require.NoError(t, err)
	require.NotNil(t, status.Pod)
	assert.Equal(t, v1.PodSucceeded, status.Pod.Phase)
	main := status.Pod.ContainerStatuses[0]
	assert.Equal(t, int32(1), main.RestartCount)
	assert.Equal(t, "Completed", main.State.Terminated.Reason)
	assert.Equal(t, int32(1), main.LastTerminationState.Terminated.ExitCode)
	require.Len(t, status.Containers[0].Attempts, 2, "each attempt is recorded")
	assert.Equal(t, []int32{1, 0}, []int32{status.Containers[0].Attempts[0].ExitCode, status.Containers[0].Attempts[1].ExitCode})
	assert.Equal(t, "1", status.Containers[0].Attempts[1].Annotations["io.kubernetes.container.restartCount"])
	assert.True(t, status.InitContainers[0].Last().Exited)

	var created []string
	for _, m := range createdRE.FindAllStringSubmatch(log.String(), -1) {
		created = append(created, m[1])
	}
	assert.Equal(t, []string{"setup", "main", "main"}, created, "the events are logged as kubelet records them")
	sandboxes, containers := rt.Counts()
	assert.Zero(t, sandboxes+containers, "nothing is left in the runtime")
	assert.Greater(t, status.Timing.Generate, time.Duration(0), "the Generator's share is measured")
}

func TestRunPodEndsAPodWhoseConfigPodconfigRefuses(t *testing.T) {
	rt := &podruntimetest.Runtime{}
	rt.AddImage("app:1", "sha256:app", 1)
	n, log := fakeNode(t, rt)
	yes := true
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "job", Namespace: "default"}, Spec: v1.PodSpec{HostNetwork: true,
		Containers: []v1.Container{{Name: "main", Image: "app:1", SecurityContext: &v1.SecurityContext{RunAsNonRoot: &yes}}}}}
	status, err := n.RunPod(context.Background(), pod)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `pod default/job: StartContainer "main": CreateContainerConfigError: container has runAsNonRoot and image will run as root`)
	assert.Contains(t, log.String(), "\ncategory: invalid pod\n", "the refusal is logged with its category")
	assert.Equal(t, "CreateContainerConfigError", status.Pod.ContainerStatuses[0].State.Waiting.Reason)
	assert.NotContains(t, strings.Join(rt.Calls(), "\n"), "CreateContainer", "the runtime never sees the container")
}
