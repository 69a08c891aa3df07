package conformance

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	core "k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/pkg/util/tolerations"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/admission"
)

// TestMergeTolerations compares admission.MergeTolerations with the API server's
// tolerations.MergeTolerations, which the RuntimeClass plugin runs, on 20,000 random pairs of
// lists drawn from few keys, values, operators (Lt among them), effects and seconds, so that
// equal, covering and mutually covering tolerations abound: the same tolerations in the same
// order.
func TestMergeTolerations(t *testing.T) {
	random := func(r *rand.Rand) []v1.Toleration {
		pick := func(s ...string) string { return s[r.IntN(len(s))] }
		var out []v1.Toleration
		for range r.IntN(8) {
			tol := v1.Toleration{
				Key:      pick("", "a", "b"),
				Operator: v1.TolerationOperator(pick("Exists", "Equal", "", "Lt")),
				Value:    pick("", "v", "w"),
				Effect:   v1.TaintEffect(pick("", "NoSchedule", "NoExecute", "NoExecute", "PreferNoSchedule")),
			}
			if r.IntN(2) == 0 {
				tol.TolerationSeconds = ptr.To(int64(r.IntN(4)) * 5)
			}
			out = append(out, tol)
		}
		return out
	}
	toCore := func(in []v1.Toleration) []core.Toleration {
		var out []core.Toleration
		for _, t := range in {
			out = append(out, core.Toleration{Key: t.Key, Operator: core.TolerationOperator(t.Operator), Value: t.Value,
				Effect: core.TaintEffect(t.Effect), TolerationSeconds: t.TolerationSeconds})
		}
		return out
	}
	for i := range 20000 {
		r := rand.New(rand.NewPCG(uint64(i), 13))
		first, second := random(r), random(r)
		want := tolerations.MergeTolerations(toCore(first), toCore(second))
		got := toCore(admission.MergeTolerations(first, second))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("case %d: %+v merged with %+v (-apiserver +podconfig):\n%s", i, first, second, diff)
		}
	}
}
