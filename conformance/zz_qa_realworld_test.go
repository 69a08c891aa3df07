package conformance

import (
	"context"
	"os"
	"testing"

	"github.com/podconfig/podconfig/conformance/scenario"
)

func TestQARealWorld(t *testing.T) {
	dir := os.Getenv("QA_SCEN")
	if dir == "" {
		t.Skip("QA_SCEN unset")
	}
	scs, err := scenario.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range scs {
		out, err := Run(context.Background(), sc, t.TempDir())
		if err != nil {
			t.Logf("RUNERR %s: %v", sc.Name, err)
			continue
		}
		_, unexplained := Classify(out.Diffs, sc.Deviations)
		for _, d := range unexplained {
			t.Logf("DIFF %s: %s", sc.Name, d)
		}
		if len(unexplained) == 0 {
			t.Logf("SAME %s", sc.Name)
		}
	}
}
