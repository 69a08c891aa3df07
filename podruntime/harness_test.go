package podruntime_test

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/podruntime"
	"github.com/podconfig/podconfig/podruntime/podruntimetest"
)

// harness is a Manager over a podruntimetest runtime and an offline Generator, on a fake clock
// both share.
type harness struct {
	rt  *podruntimetest.Runtime
	m   *podruntime.Manager
	clk *testingclock.FakeClock

	mu     sync.Mutex
	events []podruntime.Event
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	h := &harness{clk: testingclock.NewFakeClock(time.Unix(1_700_000_000, 0))}
	h.rt = &podruntimetest.Runtime{Clock: h.clk, Registry: map[string]string{pulledImage: pulledImageID, presentImage: presentImageID}}
	h.rt.AddImage(presentImage, presentImageID, 1000)
	rc, ic, stop := h.rt.Clients()
	t.Cleanup(stop)
	gen, err := configgentest.NewNode().Generator()
	require.NoError(t, err)
	h.m, err = podruntime.New(context.Background(), podruntime.Options{
		Runtime: rc, Images: ic, Generator: gen, NodeIPs: []net.IP{net.ParseIP("10.0.0.1")}, Clock: h.clk,
		Events: func(e podruntime.Event) {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.events = append(h.events, e)
		},
	})
	require.NoError(t, err)
	return h
}

// status reads what the runtime holds of the pod.
func (h *harness) status(t *testing.T, pod *v1.Pod) *podruntime.PodStatus {
	t.Helper()
	st, err := h.m.GetPodStatus(context.Background(), pod.UID, pod.Name, pod.Namespace)
	require.NoError(t, err)
	return st
}

// sync runs one pass as kubelet's pod worker does: status, then SyncPod.
func (h *harness) sync(t *testing.T, pod *v1.Pod) podruntime.PodSyncResult {
	t.Helper()
	return h.m.SyncPod(context.Background(), pod, h.status(t, pod), nil)
}

// apiStatus is the pod's status as kubelet would report it now.
func (h *harness) apiStatus(t *testing.T, pod *v1.Pod, old *v1.PodStatus) v1.PodStatus {
	t.Helper()
	return h.m.GenerateAPIPodStatus(pod, h.status(t, pod), old, false)
}

// takeCalls returns the runtime calls made since the last takeCalls.
func (h *harness) takeCalls(seen *int) []string {
	calls := h.rt.Calls()
	out := calls[*seen:]
	*seen = len(calls)
	return out
}

// eventsOf returns the events recorded with the reason, as "container: message".
func (h *harness) eventsOf(reason string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, e := range h.events {
		if e.Reason == reason {
			out = append(out, e.Container+": "+e.Message)
		}
	}
	return out
}

// runtimeStopRequest asks the runtime to stop a sandbox, as a node reboot or an OOM would.
func runtimeStopRequest(id string) *runtimeapi.StopPodSandboxRequest {
	return &runtimeapi.StopPodSandboxRequest{PodSandboxId: id}
}
