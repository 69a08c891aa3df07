package backoff_test

import (
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/podconfig/podconfig/backoff"
)

// A container exits the moment it starts. On each exit the node either waits (CrashLoopBackOff)
// or records the restart with Next and starts the container again.
func ExampleCrashLoop() {
	clk := testingclock.NewFakeClock(time.Unix(1e9, 0))
	b := backoff.NewCrashLoop(0, 0, clk) // kubelet's 10s, doubled, capped at 5m
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "5f3c"}}
	key := backoff.GetBackoffKey(pod, &v1.Container{Name: "app", Image: "app:1"})
	for restart := 1; restart <= 8; restart++ {
		finished := clk.Now()
		if b.IsInBackOffSince(key, finished) {
			clk.SetTime(finished.Add(b.Get(key))) // wait out the back-off
		}
		fmt.Printf("restart %d after %v\n", restart, clk.Since(finished))
		b.Next(key, finished)
	}
	// Output:
	// restart 1 after 0s
	// restart 2 after 10s
	// restart 3 after 20s
	// restart 4 after 40s
	// restart 5 after 1m20s
	// restart 6 after 2m40s
	// restart 7 after 5m0s
	// restart 8 after 5m0s
}
