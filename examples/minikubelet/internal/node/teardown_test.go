package node

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/defaults"
	"github.com/podconfig/podconfig/podruntime"
	"github.com/podconfig/podconfig/podruntime/podruntimetest"
)

// testManager is a node's podruntime.Manager over an in-memory runtime and an offline
// Generator.
func testManager(t *testing.T, rt *podruntimetest.Runtime) *podruntime.Manager {
	t.Helper()
	rc, ic, stop := rt.Clients()
	t.Cleanup(stop)
	gen, err := configgentest.NewNode().Generator()
	require.NoError(t, err)
	m, err := podruntime.New(context.Background(), podruntime.Options{Runtime: rc, Images: ic, Generator: gen})
	require.NoError(t, err)
	return m
}

// runningPod is a host-network pod whose container runs on the runtime, and its run.
func runningPod(t *testing.T, rt *podruntimetest.Runtime, cfg Config) *podRun {
	return runningPodOn(t, rt, cfg, true)
}

// runningPodOn is runningPod on the host's network or the pod's own.
func runningPodOn(t *testing.T, rt *podruntimetest.Runtime, cfg Config, hostNetwork bool) *podRun {
	t.Helper()
	rt.AddImage("app:1", "sha256:app", 1)
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "0b6e3d7a-0000-4000-8000-000000000001"},
		Spec: v1.PodSpec{HostNetwork: hostNetwork, Containers: []v1.Container{{Name: "main", Image: "app:1"}}}}
	defaults.SetObjectDefaultsPod(pod)
	cfg.Logf = func(string, ...any) {}
	n := &Node{cfg: cfg, rt: testManager(t, rt)}
	r := newPodRun(n, pod)
	st, err := n.rt.GetPodStatus(context.Background(), pod.UID, pod.Name, pod.Namespace)
	require.NoError(t, err)
	require.NoError(t, n.rt.SyncPod(context.Background(), pod, st, nil).Error())
	return r
}

func TestTeardownRetriesWhileTheRuntimeStillHoldsAContainerRunning(t *testing.T) {
	// containerd 2.x still holds a container as running for a moment after StopContainer
	// returned, and refuses to remove it meanwhile.
	stillRunning := status.Error(codes.FailedPrecondition, `failed to set removing state for container "c1": container is still running, to stop first`)
	for _, tc := range []struct {
		name     string
		refusals int
		err      string
	}{
		{"removed at once", 0, ""},
		{"removed once the runtime has handled the exit", 2, ""},
		{"a runtime that keeps refusing: the error, after five tries, and what is left", 10,
			"RemoveContainer container-2: rpc error: code = FailedPrecondition desc = failed to set removing state for container \"c1\": container is still running, to stop first\n" +
				"1 containers and 1 sandboxes of the pod left in the runtime"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt := &podruntimetest.Runtime{}
			r := runningPod(t, rt, Config{})
			for range tc.refusals {
				rt.Fail("RemoveContainer", stillRunning)
			}
			err := errorsJoined(r.removeFromRuntime(context.Background()))
			removals := 0
			for _, c := range rt.Calls() {
				if c == "RemoveContainer main/0" {
					removals++
				}
			}
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				assert.Equal(t, 5, removals)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.refusals+1, removals)
			sandboxes, containers := rt.Counts()
			assert.Zero(t, sandboxes+containers, "nothing of the pod is left")
		})
	}
}

func TestTeardownStopsContainersWithinTheShutdownGracePeriod(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout int64
		want    string
	}{
		{"no cap: the pod's terminationGracePeriodSeconds", 0, "StopContainer main/0 30s"},
		{"a cap below the pod's grace period lowers it", 5, "StopContainer main/0 5s"},
		{"a cap above it leaves it", 60, "StopContainer main/0 30s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt := &podruntimetest.Runtime{}
			r := runningPod(t, rt, Config{StopTimeout: secondsDuration(tc.timeout)})
			require.Empty(t, r.removeFromRuntime(context.Background()))
			assert.Contains(t, rt.Calls(), tc.want)
			require.NotNil(t, r.status.Pod, "the final status is kept")
			assert.Equal(t, v1.PodFailed, r.status.Pod.Phase, "stopped for good with 137: Failed")
		})
	}
}

func TestTeardownKeepsThePodIPsInTheFinalStatus(t *testing.T) {
	// A stopped sandbox shows no IP: kubelet's SyncTerminatingPod keeps those from before.
	rt := &podruntimetest.Runtime{}
	r := runningPodOn(t, rt, Config{}, false)
	require.Empty(t, r.removeFromRuntime(context.Background()))
	assert.Equal(t, []string{podruntimetest.DefaultPodIP}, r.status.PodIPs)
	assert.Equal(t, podruntimetest.DefaultPodIP, r.status.Pod.PodIP)
}

func errorsJoined(errs []error) error { return errors.Join(errs...) }

func secondsDuration(s int64) time.Duration { return time.Duration(s) * time.Second }
