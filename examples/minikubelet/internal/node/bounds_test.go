package node

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/podconfig/podconfig/backoff"
)

func TestRestartBackOffIsCappedForever(t *testing.T) {
	// Finding: the back-off was RestartBackoff << restarts, which overflowed to a negative delay
	// after 2 h 10 min of restarts; from then on the node created a container every poll.
	clk := testingclock.NewFakeClock(time.Unix(1e9, 0))
	r := &podRun{n: &Node{crashLoop: backoff.NewCrashLoop(0, 0, clk), clock: clk},
		pod: &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default", UID: "u"}}}
	e := &entry{c: &v1.Container{Name: "c", Image: "img"}}
	var total time.Duration
	for i := range 2000 {
		e.finishedAt = clk.Now()
		r.scheduleRestart(e)
		delay := e.nextStart.Sub(clk.Now())
		require.GreaterOrEqual(t, delay, time.Duration(0), "restart %d", i)
		require.LessOrEqual(t, delay, backoff.MaxCrashLoopBackOff, "restart %d", i)
		if i >= 7 {
			require.Equal(t, backoff.MaxCrashLoopBackOff, delay, "restart %d: waits the cap", i)
		}
		total += delay
		clk.SetTime(e.nextStart)
		r.n.crashLoop.Next(backoff.GetBackoffKey(r.pod, e.c), e.finishedAt)
	}
	assert.Greater(t, total, 150*time.Hour, "2000 restarts take days, not seconds")
}

// removals is a CRI runtime that records the containers removed.
type removals struct {
	runtimeapi.RuntimeServiceClient
	mu      sync.Mutex
	removed []string
}

func (r *removals) RemoveContainer(_ context.Context, in *runtimeapi.RemoveContainerRequest, _ ...grpc.CallOption) (*runtimeapi.RemoveContainerResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.removed = append(r.removed, in.ContainerId)
	return &runtimeapi.RemoveContainerResponse{}, nil
}

func TestDeadContainersAreGarbageCollected(t *testing.T) {
	// Kubelet keeps one dead container per container; the node kept every attempt until the pod
	// ended.
	rt := &removals{}
	r := &podRun{n: &Node{cfg: Config{Runtime: rt}}, pod: &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}},
		created: []string{"a", "b", "c", "other"}}
	e := &entry{c: &v1.Container{Name: "c"}, dead: []string{"a", "b", "c"}}
	require.NoError(t, r.removeDead(context.Background(), e, 1))
	assert.Equal(t, []string{"a", "b"}, rt.removed)
	assert.Equal(t, []string{"c"}, e.dead, "the last exited attempt stays, for its logs and status")
	assert.Equal(t, []string{"c", "other"}, r.created, "teardown no longer stops what is gone")
}

func TestFollowerHoldsABoundedTailOfTheLog(t *testing.T) {
	// Finding: the node held every attempt's whole log (64 MiB logged, 61 MiB held) and grew a
	// line without a newline with += (quadratic).
	var out countingWriter
	f := &follower{prefix: "ns/pod/c", out: &out, outMu: new(sync.Mutex)}
	line := []byte("2026-01-01T00:00:00Z stdout F " + strings.Repeat("x", 1000) + "\n")
	for range 64 * 1024 {
		f.consume(line)
		require.LessOrEqual(t, len(f.tail), 2*logTailBytes)
	}
	assert.Equal(t, 64*1024*(len("[ns/pod/c] ")+1001), out.n, "everything streamed to Out")
	assert.Len(t, f.tailString(), logTailBytes, "only the last 16 KiB are kept")
	assert.True(t, strings.HasSuffix(f.tailString(), strings.Repeat("x", 1000)+"\n"))
}

func TestFollowerBoundsLongLines(t *testing.T) {
	var out countingWriter
	f := &follower{prefix: "p", out: &out, outMu: new(sync.Mutex)}
	t.Run("a 16 MiB line the runtime split into partial entries goes out in 16 KiB pieces", func(t *testing.T) {
		part := []byte("2026-01-01T00:00:00Z stdout P " + strings.Repeat("y", 16*1024) + "\n")
		for range 1024 {
			f.consume(part)
			require.Less(t, len(f.partial), maxLogLine)
		}
		f.consume([]byte("2026-01-01T00:00:00Z stdout F end\n"))
		assert.Equal(t, 1024+1, out.lines)
		assert.Empty(t, f.partial)
	})
	t.Run("a file line without a newline is cut, not grown", func(t *testing.T) {
		chunk := []byte(strings.Repeat("z", 32*1024))
		f.consume([]byte("2026-01-01T00:00:00Z stdout F "))
		for range 512 { // 16 MiB
			f.consume(chunk)
			require.LessOrEqual(t, len(f.pending), maxLogLine+128)
		}
	})
}

// countingWriter counts what is written to it.
type countingWriter struct{ n, lines int }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	w.lines += strings.Count(string(p), "\n")
	return len(p), nil
}
