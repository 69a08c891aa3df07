package backoff_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/podconfig/podconfig/backoff"
)

// crashLoop runs a container that exits the moment it starts, restarting it as kubelet's sync
// loop does, and returns the delay before each restart.
func crashLoop(b *backoff.CrashLoop, clk *testingclock.FakeClock, key string, restarts int) []time.Duration {
	var delays []time.Duration
	for range restarts {
		finished := clk.Now()
		for b.IsInBackOffSince(key, finished) {
			clk.Step(time.Second)
		}
		delays = append(delays, clk.Since(finished))
		b.Next(key, finished)
	}
	return delays
}

func TestCrashLoopIsKubeletsBackOff(t *testing.T) {
	s := time.Second
	for _, tc := range []struct {
		name         string
		initial, max time.Duration
		restarts     int
		want         []time.Duration
	}{
		{"the first restart is at once, then 10s doubling to the 300s cap", 0, 0, 9,
			[]time.Duration{0, 10 * s, 20 * s, 40 * s, 80 * s, 160 * s, 300 * s, 300 * s, 300 * s}},
		{"a lower maximum caps it", 0, 60 * s, 6, []time.Duration{0, 10 * s, 20 * s, 40 * s, 60 * s, 60 * s}},
		{"an initial period above the maximum is lowered to it", 20 * s, 5 * s, 4, []time.Duration{0, 5 * s, 5 * s, 5 * s}},
		{"an initial period of its own", 2 * s, 0, 4, []time.Duration{0, 2 * s, 4 * s, 8 * s}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := testingclock.NewFakeClock(time.Unix(1e9, 0))
			b := backoff.NewCrashLoop(tc.initial, tc.max, clk)
			assert.Equal(t, tc.want, crashLoop(b, clk, "c", tc.restarts))
		})
	}
}

func TestCrashLoopNeverOverflows(t *testing.T) {
	// A container restarting for days: the back-off stays at the cap, never negative.
	clk := testingclock.NewFakeClock(time.Unix(1e9, 0))
	b := backoff.NewCrashLoop(0, 0, clk)
	for i, d := range crashLoop(b, clk, "c", 1000) {
		require.GreaterOrEqual(t, d, time.Duration(0), "restart %d", i)
		require.LessOrEqual(t, d, backoff.MaxCrashLoopBackOff, "restart %d", i)
		if i >= 7 {
			require.Equal(t, backoff.MaxCrashLoopBackOff, d, "restart %d", i)
		}
	}
	assert.Equal(t, backoff.MaxCrashLoopBackOff, b.Get("c"))
}

func TestCrashLoopStartsOverAfterTenMinutesOfRunning(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Unix(1e9, 0))
	b := backoff.NewCrashLoop(0, 0, clk)
	crashLoop(b, clk, "c", 5)
	require.Equal(t, 160*time.Second, b.Get("c"), "after waits of 0, 10, 20, 40 and 80 s")
	clk.Step(backoff.CrashLoopBackOffReset + time.Second) // the container ran for ten minutes
	assert.False(t, b.IsInBackOffSince("c", clk.Now()), "an exit after a long run restarts at once")
	b.Next("c", clk.Now())
	assert.Equal(t, backoff.InitialCrashLoopBackOff, b.Get("c"))
}

func TestCrashLoopGCAndReset(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Unix(1e9, 0))
	b := backoff.NewCrashLoop(0, 0, clk)
	b.Next("old", clk.Now())
	clk.Step(backoff.CrashLoopBackOffReset + time.Second)
	b.Next("new", clk.Now())
	b.GC()
	assert.Zero(t, b.Get("old"), "GC drops a container not restarted for ten minutes")
	assert.Equal(t, backoff.InitialCrashLoopBackOff, b.Get("new"))
	b.Reset("new")
	assert.Zero(t, b.Get("new"))
}

func TestGetBackoffKey(t *testing.T) {
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "u1"}}
	c := &v1.Container{Name: "app", Image: "app:1"}
	key := backoff.GetBackoffKey(pod, c)
	assert.Regexp(t, `^[0-9a-f]+$`, key)
	assert.Equal(t, key, backoff.GetBackoffKey(pod.DeepCopy(), c.DeepCopy()), "the same container has the same key")
	for name, change := range map[string]func(*v1.Pod, *v1.Container){
		"another image": func(_ *v1.Pod, c *v1.Container) { c.Image = "app:2" },
		"other resources": func(_ *v1.Pod, c *v1.Container) {
			c.Resources.Limits = v1.ResourceList{v1.ResourceCPU: resource.MustParse("1")}
		},
		"another pod UID":   func(p *v1.Pod, _ *v1.Container) { p.UID = "u2" },
		"another container": func(_ *v1.Pod, c *v1.Container) { c.Name = "side" },
	} {
		t.Run(name+" starts the back-off over", func(t *testing.T) {
			p, cc := pod.DeepCopy(), c.DeepCopy()
			change(p, cc)
			assert.NotEqual(t, key, backoff.GetBackoffKey(p, cc))
		})
	}
	assert.Empty(t, backoff.GetBackoffKey(nil, nil))
}
