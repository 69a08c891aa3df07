package podruntime

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/podconfig/podconfig/backoff"
)

func TestDoBackOffWaitsKubeletsCrashLoopBackOffAndNeverOverflows(t *testing.T) {
	// Finding of minikubelet's: a back-off of initial << restarts overflowed to a negative delay
	// after 2 h 10 min of restarts, and the node created a container every poll from then on.
	clk := testingclock.NewFakeClock(time.Unix(1e9, 0))
	m := &Manager{crashLoop: backoff.NewCrashLoop(0, 0, clk), clock: clk}
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default", UID: "u"}}
	c := &v1.Container{Name: "c", Image: "img"}
	var delays []time.Duration
	var total time.Duration
	for i := range 2000 {
		finished := clk.Now()
		st := &PodStatus{ContainerStatuses: []*ContainerStatus{{Name: "c", State: ContainerStateExited, FinishedAt: finished}}}
		for {
			wait, _, err := m.doBackOff(pod, c, st)
			if !wait {
				break
			}
			var be *BackoffError
			require.ErrorAs(t, err, &be)
			require.False(t, be.Until.Before(clk.Now()), "restart %d: the wait ends in the future", i)
			clk.SetTime(be.Until)
		}
		delay := clk.Since(finished)
		require.GreaterOrEqual(t, delay, time.Duration(0), "restart %d", i)
		require.LessOrEqual(t, delay, backoff.MaxCrashLoopBackOff, "restart %d", i)
		if i < 8 {
			delays = append(delays, delay)
		}
		total += delay
	}
	s := time.Second
	assert.Equal(t, []time.Duration{0, 10 * s, 20 * s, 40 * s, 80 * s, 160 * s, 300 * s, 300 * s}, delays, "at once, then 10s doubling to the 5m cap")
	assert.Greater(t, total, 150*time.Hour, "2000 restarts take days, not seconds")
}

func TestDoBackOffStartsOverForAContainerWhoseImageChanged(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Unix(1e9, 0))
	m := &Manager{crashLoop: backoff.NewCrashLoop(0, 0, clk), clock: clk}
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default", UID: "u"}}
	st := &PodStatus{ContainerStatuses: []*ContainerStatus{{Name: "c", State: ContainerStateExited, FinishedAt: clk.Now()}}}
	c := &v1.Container{Name: "c", Image: "img:1"}
	wait, _, _ := m.doBackOff(pod, c, st)
	require.False(t, wait, "the first restart is at once")
	wait, _, _ = m.doBackOff(pod, c, st)
	require.True(t, wait, "the second waits")
	wait, _, _ = m.doBackOff(pod, &v1.Container{Name: "c", Image: "img:2"}, st)
	assert.False(t, wait, "the back-off key holds the image: a new image starts over")
}

func TestTerminationOrderingStopsSidecarsAfterRegularContainersInReverse(t *testing.T) {
	always := v1.ContainerRestartPolicyAlways
	pod := &v1.Pod{Spec: v1.PodSpec{
		InitContainers: []v1.Container{{Name: "first", RestartPolicy: &always}, {Name: "setup"}, {Name: "second", RestartPolicy: &always}},
		Containers:     []v1.Container{{Name: "app"}, {Name: "gone"}},
	}}
	o := newTerminationOrdering(pod, []string{"first", "second", "app"})
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	for _, name := range []string{"first", "second", "app"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o.waitForTurn(name, 30)
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
			o.containerTerminated(name)
		}()
	}
	wg.Wait()
	assert.Equal(t, []string{"app", "second", "first"}, order,
		"sidecars wait for the regular containers (one not running counts as stopped), each for the sidecars after it")
	assert.Zero(t, newTerminationOrdering(pod, []string{"first"}).waitForTurn("first", 0), "no grace period, no wait")
}

func TestTerminationOrderingGivesUpAtTheGracePeriod(t *testing.T) {
	always := v1.ContainerRestartPolicyAlways
	pod := &v1.Pod{Spec: v1.PodSpec{InitContainers: []v1.Container{{Name: "proxy", RestartPolicy: &always}}, Containers: []v1.Container{{Name: "app"}}}}
	o := newTerminationOrdering(pod, []string{"proxy", "app"})
	waited := o.waitForTurn("proxy", 1)
	assert.InDelta(t, 1, waited, 0.5, "the app never stopped: the sidecar waits its grace period out, no more")
}

func TestPullErrorReasonNamesWhatTheRuntimeSaysFailed(t *testing.T) {
	for _, tc := range []struct {
		name, err, msg string
		reason         string
	}{
		{"an unavailable registry", "RegistryUnavailable: dial tcp: refused", "image pull failed for img:1 because the registry is unavailable: dial tcp: refused", "RegistryUnavailable"},
		{"a failed signature check", "SignatureValidationFailed: no key", "image pull failed for img:1 because the signature validation failed: no key", "SignatureValidationFailed"},
		{"anything else is ErrImagePull with the runtime's text", "not found", "not found", "ErrImagePull"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg, reason := pullErrorReason("img:1", errors.New(tc.err))
			assert.Equal(t, tc.msg, msg)
			assert.Equal(t, tc.reason, reason.Error())
		})
	}
}

func TestApplyDefaultImageTagAddsLatestOnly(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"busybox", "busybox:latest"},
		{"busybox:1", "busybox:1"},
		{"registry.example:5000/app", "registry.example:5000/app:latest"},
		{"app@sha256:" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "app@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := applyDefaultImageTag(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestResourcesFromCRIIsKubeletsConversion(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   *runtimeapi.LinuxContainerResources
		want []string // cpu request, cpu limit, memory limit; "" for none
	}{
		{"shares and quota become millicores", &runtimeapi.LinuxContainerResources{CpuShares: 102, CpuQuota: 50000, CpuPeriod: 100000, MemoryLimitInBytes: 1 << 20},
			[]string{"100m", "500m", "1Mi"}},
		{"the minimum shares are the minimum request", &runtimeapi.LinuxContainerResources{CpuShares: 2}, []string{"2m", "", ""}},
		{"a quota of -1 is no limit", &runtimeapi.LinuxContainerResources{CpuQuota: -1, CpuPeriod: 100000, CpuShares: 1024}, []string{"1", "", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := resourcesFromCRI(&runtimeapi.ContainerResources{Linux: tc.in})
			require.NotNil(t, got)
			str := func(q interface{ String() string }, ok bool) string {
				if !ok {
					return ""
				}
				return q.String()
			}
			assert.Equal(t, tc.want, []string{str(got.CPURequest, got.CPURequest != nil), str(got.CPULimit, got.CPULimit != nil), str(got.MemoryLimit, got.MemoryLimit != nil)})
		})
	}
	assert.Nil(t, resourcesFromCRI(nil), "a runtime that reports nothing")
	assert.Nil(t, resourcesFromCRI(&runtimeapi.ContainerResources{Linux: &runtimeapi.LinuxContainerResources{}}), "nothing set is nothing reported")
}
