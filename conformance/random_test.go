package conformance

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/podconfig/podconfig/conformance/scenario"
)

// TestRandom renders seeded random pods with kubelet and podconfig. A difference must be one of
// the named deviations. The seed is new on every run and printed; replay one with
// PODCONFIG_CONFORMANCE_SEED=<seed>. PODCONFIG_CONFORMANCE_RANDOM sets the number of pods.
func TestRandom(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("PODCONFIG_CONFORMANCE_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("PODCONFIG_CONFORMANCE_SEED: %v", err)
		}
	}
	count := 300
	if s := os.Getenv("PODCONFIG_CONFORMANCE_RANDOM"); s != "" {
		var err error
		if count, err = strconv.Atoi(s); err != nil {
			t.Fatalf("PODCONFIG_CONFORMANCE_RANDOM: %v", err)
		}
	}
	if testing.Short() {
		count = min(count, 30)
	}
	t.Logf("random pods: %d, seed %d (replay with PODCONFIG_CONFORMANCE_SEED=%d)", count, seed, seed)
	ctx := context.Background()
	tolerated := map[string]int{}
	for i := 0; i < count; i++ {
		sc := scenario.Random(seed, i)
		if err := sc.Validate(); err != nil {
			t.Fatal(err)
		}
		out, err := Run(ctx, sc, t.TempDir())
		if err != nil {
			t.Fatalf("%s: %v", sc.Name, err)
		}
		explained, unexplained := Classify(out.Diffs, AllNames())
		for name, ds := range explained {
			tolerated[name] += len(ds)
		}
		for _, d := range unexplained {
			t.Errorf("%s (seed %d, pod %d): %s", sc.Name, seed, i, d)
		}
		if t.Failed() {
			t.Fatalf("stopping at the first failing pod; replay with PODCONFIG_CONFORMANCE_SEED=%d", seed)
		}
	}
	t.Logf("named deviations seen: %v", tolerated)
}
