package conformance

import (
	"context"
	"testing"

	"github.com/podconfig/podconfig/conformance/scenario"
)

func loadCorpus(t testing.TB) []*scenario.Scenario {
	t.Helper()
	scs, err := scenario.Load("testdata/scenarios")
	if err != nil {
		t.Fatal(err)
	}
	return scs
}

// TestCorpus renders every scenario with kubelet and podconfig. A difference must be one of the
// deviations the scenario lists, and every listed deviation must occur.
func TestCorpus(t *testing.T) {
	ctx := context.Background()
	for _, sc := range loadCorpus(t) {
		t.Run(sc.Name, func(t *testing.T) {
			for _, name := range sc.Deviations {
				if _, ok := DeviationByName(name); !ok {
					t.Fatalf("unknown deviation %q", name)
				}
			}
			out, err := Run(ctx, sc, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			explained, unexplained := Classify(out.Diffs, sc.Deviations)
			for _, d := range unexplained {
				t.Errorf("difference not listed as a deviation: %s", d)
			}
			for _, name := range sc.Deviations {
				if len(explained[name]) == 0 {
					t.Errorf("listed deviation %q no longer occurs: remove it from the scenario (and its docs/compatibility.md row when no scenario lists it)", name)
				}
			}
		})
	}
}
