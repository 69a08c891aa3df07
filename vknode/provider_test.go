package vknode_test

import (
	"context"
	"net"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/virtual-kubelet/virtual-kubelet/errdefs"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/podconfig/podconfig/defaults"
	"github.com/podconfig/podconfig/podruntime/podruntimetest"
	"github.com/podconfig/podconfig/vknode"
)

const (
	nodeName = "vk-test"
	image    = "registry.example/app:1"
)

// harness is a Provider on podruntimetest's runtime and client-go's fake clientset, with what it
// published.
type harness struct {
	p      *vknode.Provider
	rt     *podruntimetest.Runtime
	client *fake.Clientset
	logs   string

	mu        sync.Mutex
	published []*v1.Pod
}

func newHarness(t *testing.T, objects ...*v1.Pod) *harness {
	t.Helper()
	return newHarnessWith(t, func(*vknode.Config) {}, objects...)
}

// newHarnessWith is newHarness with the provider's configuration changed by tweak.
func newHarnessWith(t *testing.T, tweak func(*vknode.Config), objects ...*v1.Pod) *harness {
	t.Helper()
	rt := &podruntimetest.Runtime{}
	rt.AddImage(image, "sha256:app1", 1<<20)
	runtime, images, closeConn := rt.Clients()
	t.Cleanup(closeConn)
	client := fake.NewClientset()
	for _, pod := range objects {
		_, err := client.CoreV1().Pods(pod.Namespace).Create(context.Background(), pod, metav1.CreateOptions{})
		require.NoError(t, err)
	}
	dir := t.TempDir()
	cfg := vknode.Config{
		NodeName: nodeName, Runtime: runtime, Images: images, Client: client,
		NodeIPs: []net.IP{net.ParseIP("10.0.0.1")}, RootDir: filepath.Join(dir, "kubelet"), PodLogsDir: filepath.Join(dir, "pods"),
		ResyncInterval: time.Second,
	}
	tweak(&cfg)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	p, err := vknode.New(ctx, cfg)
	require.NoError(t, err)
	h := &harness{p: p, rt: rt, client: client, logs: filepath.Join(dir, "pods")}
	p.NotifyPods(context.Background(), func(pod *v1.Pod) {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.published = append(h.published, pod)
	})
	return h
}

// podLogsDir is the provider's pod logs directory.
func (h *harness) podLogsDir(*testing.T) string { return h.logs }

// last returns the last status published, or nil.
func (h *harness) last() *v1.Pod {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.published) == 0 {
		return nil
	}
	return h.published[len(h.published)-1]
}

// waitPhase waits until the last status published has the phase.
func (h *harness) waitPhase(t *testing.T, phase v1.PodPhase) *v1.Pod {
	t.Helper()
	require.Eventually(t, func() bool {
		p := h.last()
		return p != nil && p.Status.Phase == phase
	}, 10*time.Second, 10*time.Millisecond, "phase %s", phase)
	return h.last()
}

func testPod(restart v1.RestartPolicy) *v1.Pod {
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "team", UID: "6a1e0000-0000-4000-8000-000000000001", ResourceVersion: "1"},
		Spec: v1.PodSpec{NodeName: nodeName, RestartPolicy: restart, ServiceAccountName: "default",
			Containers: []v1.Container{{Name: "app", Image: image}}},
	}
	defaults.SetObjectDefaultsPod(pod)
	pod.Spec.EnableServiceLinks = new(bool)
	return pod
}

func TestProviderRunsAPodToItsEndAndRemovesItOnDeletion(t *testing.T) {
	pod := testPod(v1.RestartPolicyNever)
	h := newHarness(t, pod)
	ctx := context.Background()
	require.NoError(t, h.p.CreatePod(ctx, pod))

	running := h.waitPhase(t, v1.PodRunning)
	require.Len(t, running.Status.ContainerStatuses, 1)
	assert.Equal(t, "app", running.Status.ContainerStatuses[0].Name)
	assert.NotNil(t, running.Status.ContainerStatuses[0].State.Running, "the container runs")
	assert.Equal(t, "10.0.0.1", running.Status.HostIP)
	assert.Equal(t, podruntimetest.DefaultPodIP, running.Status.PodIP)

	require.NotEmpty(t, h.rt.ExitNamed("app", 0, "Completed"))
	done := h.waitPhase(t, v1.PodSucceeded)
	term := done.Status.ContainerStatuses[0].State.Terminated
	require.NotNil(t, term)
	assert.Equal(t, int32(0), term.ExitCode)
	assert.Equal(t, "Completed", term.Reason)
	_, containers := h.rt.Counts()
	assert.Equal(t, 1, containers, "an ended pod's container is kept for its logs until the pod is deleted")

	got, err := h.p.GetPodStatus(ctx, pod.Namespace, pod.Name)
	require.NoError(t, err)
	assert.Equal(t, v1.PodSucceeded, got.Phase)

	grace := int64(0)
	deleting := pod.DeepCopy()
	deleting.DeletionGracePeriodSeconds = &grace
	require.NoError(t, h.p.DeletePod(ctx, deleting))
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	require.NoError(t, h.p.Wait(wctx))
	sandboxes, containers := h.rt.Counts()
	assert.Equal(t, [2]int{0, 0}, [2]int{sandboxes, containers}, "nothing of the pod is left in the runtime")
	_, err = h.client.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "the torn-down pod is deleted from the API server: %v", err)
	_, err = h.p.GetPod(ctx, pod.Namespace, pod.Name)
	assert.True(t, errdefs.IsNotFound(err), "a torn-down pod is unknown: %v", err)
}

func TestProviderRestartsAnExitedContainerOfARestartAlwaysPod(t *testing.T) {
	pod := testPod(v1.RestartPolicyAlways)
	h := newHarness(t, pod)
	ctx := context.Background()
	require.NoError(t, h.p.CreatePod(ctx, pod))
	h.waitPhase(t, v1.PodRunning)
	require.NotEmpty(t, h.rt.ExitNamed("app", 1, "Error"))
	require.Eventually(t, func() bool {
		p := h.last()
		return p != nil && len(p.Status.ContainerStatuses) == 1 && p.Status.ContainerStatuses[0].RestartCount == 1 &&
			p.Status.ContainerStatuses[0].State.Running != nil
	}, 10*time.Second, 10*time.Millisecond, "the container restarted once at once, as kubelet's first restart is")
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	require.NoError(t, h.p.Shutdown(sctx, 0))
	sandboxes, containers := h.rt.Counts()
	assert.Equal(t, [2]int{0, 0}, [2]int{sandboxes, containers}, "Shutdown removes every pod from the runtime")
	_, err := h.client.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
	assert.NoError(t, err, "Shutdown leaves the pods in the API server")
}

func TestProviderRefusesWhatIsNotItsOwn(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	other := testPod(v1.RestartPolicyNever)
	other.Spec.NodeName = "another-node"
	err := h.p.CreatePod(ctx, other)
	require.EqualError(t, err, `pod team/web is bound to node "another-node", not "vk-test"`)
	assert.True(t, errdefs.IsInvalidInput(err))

	tests := []struct {
		name string
		call func() error
		want string
	}{
		{"GetPod of a pod the node does not run is NotFound", func() error { _, err := h.p.GetPod(ctx, "team", "none"); return err }, "pod team/none is not on this node"},
		{"GetPodStatus of a pod the node does not run is NotFound", func() error { _, err := h.p.GetPodStatus(ctx, "team", "none"); return err }, "pod team/none is not on this node"},
		{"DeletePod of a pod the node does not run is NotFound", func() error { return h.p.DeletePod(ctx, testPod(v1.RestartPolicyNever)) }, "pod team/web is not on this node"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			require.EqualError(t, err, tt.want)
			assert.True(t, errdefs.IsNotFound(err))
		})
	}
	pods, err := h.p.GetPods(ctx)
	require.NoError(t, err)
	assert.Empty(t, pods)
}

func TestNodeObjectIsAHealthyNodeWithTheHostsCapacity(t *testing.T) {
	h := newHarness(t)
	n := h.p.Node()
	assert.Equal(t, nodeName, n.Name)
	assert.Equal(t, []v1.NodeAddress{{Type: v1.NodeInternalIP, Address: "10.0.0.1"}, {Type: v1.NodeHostName, Address: nodeName}}, n.Status.Addresses)
	assert.Equal(t, vknode.KubeletVersion, n.Status.NodeInfo.KubeletVersion)
	assert.Equal(t, podruntimetest.Name+"://v0", n.Status.NodeInfo.ContainerRuntimeVersion)
	assert.Equal(t, "110", n.Status.Capacity.Pods().String())
	require.NotEmpty(t, n.Status.Conditions)
	assert.Equal(t, v1.NodeReady, n.Status.Conditions[0].Type)
	assert.Equal(t, v1.ConditionTrue, n.Status.Conditions[0].Status)
}

func TestProviderFailsAPodPastItsActiveDeadline(t *testing.T) {
	pod := testPod(v1.RestartPolicyAlways)
	deadline := int64(1)
	pod.Spec.ActiveDeadlineSeconds = &deadline
	h := newHarness(t, pod)
	ctx := context.Background()
	require.NoError(t, h.p.CreatePod(ctx, pod))
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		assert.NoError(t, h.p.Shutdown(sctx, 0))
	})
	failed := h.waitPhase(t, v1.PodFailed)
	assert.Equal(t, "DeadlineExceeded", failed.Status.Reason)
	assert.Equal(t, "Pod was active on the node longer than the specified deadline", failed.Status.Message)
	require.Eventually(t, func() bool {
		p := h.last()
		return p.Status.ContainerStatuses[0].State.Terminated != nil
	}, 10*time.Second, 10*time.Millisecond, "the pod's container is stopped")
}

func TestProviderReplacesAPodByANewOneOfTheSameName(t *testing.T) {
	first := testPod(v1.RestartPolicyAlways)
	h := newHarness(t, first)
	ctx := context.Background()
	require.NoError(t, h.p.CreatePod(ctx, first))
	h.waitPhase(t, v1.PodRunning)

	second := first.DeepCopy()
	second.UID = "6a1e0000-0000-4000-8000-000000000002"
	require.NoError(t, h.p.CreatePod(ctx, second), "a new pod of the name is taken, not refused")
	require.Eventually(t, func() bool {
		p := h.last()
		return p != nil && p.UID == second.UID && p.Status.Phase == v1.PodRunning
	}, 10*time.Second, 10*time.Millisecond, "the new pod runs")
	sandboxes, containers := h.rt.Counts()
	assert.Equal(t, [2]int{1, 1}, [2]int{sandboxes, containers}, "the old pod was removed from the runtime before the new one started")
	got, err := h.p.GetPod(ctx, first.Namespace, first.Name)
	require.NoError(t, err)
	assert.Equal(t, second.UID, got.UID)

	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	require.NoError(t, h.p.Shutdown(sctx, 0))
}

func TestProviderKillsAPodWhateverItsDeletionGracePeriod(t *testing.T) {
	tests := []struct {
		name  string
		grace int64
	}{
		// 9223372037 s is past time.Duration's range: added to the teardown's own time it wrapped
		// to a negative timeout, and the teardown gave up before stopping anything.
		{"a grace period past time.Duration's range still stops and removes the pod", 9223372037},
		{"the largest grace period still stops and removes the pod", 1<<63 - 1},
		{"a negative grace period still stops and removes the pod", -9223372037},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := testPod(v1.RestartPolicyAlways)
			pod.Spec.TerminationGracePeriodSeconds = &tt.grace
			h := newHarness(t, pod)
			ctx := context.Background()
			require.NoError(t, h.p.CreatePod(ctx, pod))
			h.waitPhase(t, v1.PodRunning)

			deleting := pod.DeepCopy()
			deleting.DeletionGracePeriodSeconds = &tt.grace
			require.NoError(t, h.p.DeletePod(ctx, deleting))
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			require.NoError(t, h.p.Wait(wctx))
			sandboxes, containers := h.rt.Counts()
			assert.Equal(t, [2]int{0, 0}, [2]int{sandboxes, containers}, "nothing of the pod is left in the runtime")
			_, err := h.client.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
			assert.True(t, apierrors.IsNotFound(err), "the torn-down pod is deleted from the API server: %v", err)
		})
	}
}

// lastOf returns the last status published for the pod of the name, or nil.
func (h *harness) lastOf(name string) *v1.Pod {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := len(h.published) - 1; i >= 0; i-- {
		if h.published[i].Name == name {
			return h.published[i]
		}
	}
	return nil
}

func TestProviderRefusesAPodPastTheNodesPodsCapacity(t *testing.T) {
	first := testPod(v1.RestartPolicyNever)
	second := testPod(v1.RestartPolicyNever)
	second.Name, second.UID = "second", "6a1e0000-0000-4000-8000-000000000002"
	third := testPod(v1.RestartPolicyNever)
	third.Name, third.UID = "third", "6a1e0000-0000-4000-8000-000000000003"
	h := newHarnessWith(t, func(c *vknode.Config) { c.MaxPods = 1 }, first, second, third)
	ctx := context.Background()
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		assert.NoError(t, h.p.Shutdown(sctx, 0))
	})
	assert.Equal(t, "1", h.p.Node().Status.Capacity.Pods().String(), "MaxPods is the node's pods capacity")

	require.NoError(t, h.p.CreatePod(ctx, first))
	h.waitPhase(t, v1.PodRunning)
	// A pod whose creator set spec.nodeName never met the scheduler: the node refuses it.
	require.NoError(t, h.p.CreatePod(ctx, second))
	require.Eventually(t, func() bool { return h.lastOf(second.Name) != nil }, 10*time.Second, 10*time.Millisecond)
	refused := h.lastOf(second.Name)
	assert.Equal(t, v1.PodFailed, refused.Status.Phase)
	assert.Equal(t, "OutOfpods", refused.Status.Reason)
	assert.Equal(t, "Pod was rejected: Node didn't have enough resource: pods, requested: 1, used: 1, capacity: 1", refused.Status.Message)
	sandboxes, _ := h.rt.Counts()
	assert.Equal(t, 1, sandboxes, "nothing of the refused pod is made")

	require.NotEmpty(t, h.rt.ExitNamed("app", 0, "Completed"))
	require.Eventually(t, func() bool {
		p := h.lastOf(first.Name)
		return p != nil && p.Status.Phase == v1.PodSucceeded
	}, 10*time.Second, 10*time.Millisecond)
	require.NoError(t, h.p.CreatePod(ctx, third))
	require.Eventually(t, func() bool {
		p := h.lastOf(third.Name)
		return p != nil && p.Status.Phase == v1.PodRunning
	}, 10*time.Second, 10*time.Millisecond, "a pod that ended leaves room for another")
}
