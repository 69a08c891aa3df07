package admission_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/admission"
)

// pairwiseMerge is the API server's merge as it is written: each toleration against every kept
// one and every later one.
func pairwiseMerge(first, second []v1.Toleration) []v1.Toleration {
	all := append(append([]v1.Toleration{}, first...), second...)
	var merged []v1.Toleration
next:
	for i, t := range all {
		for _, kept := range merged {
			if pairwiseCovers(kept, t) {
				continue next
			}
		}
		for _, later := range all[i+1:] {
			if !apiequality.Semantic.DeepEqual(&t, &later) && pairwiseCovers(later, t) {
				continue next
			}
		}
		merged = append(merged, t)
	}
	return merged
}

func pairwiseCovers(ss, t v1.Toleration) bool {
	if apiequality.Semantic.DeepEqual(&t, &ss) {
		return true
	}
	if t.Key != ss.Key && (ss.Key != "" || ss.Operator != v1.TolerationOpExists) {
		return false
	}
	if t.Effect != ss.Effect && ss.Effect != "" {
		return false
	}
	if ss.Effect == v1.TaintEffectNoExecute && ss.TolerationSeconds != nil {
		if t.TolerationSeconds == nil || *t.TolerationSeconds > *ss.TolerationSeconds {
			return false
		}
	}
	switch ss.Operator {
	case v1.TolerationOpEqual, "":
		return t.Operator == v1.TolerationOpEqual && t.Value == ss.Value
	case v1.TolerationOpExists:
		return true
	}
	return false
}

func randomTolerations(r *rand.Rand, n int) []v1.Toleration {
	pick := func(s ...string) string { return s[r.IntN(len(s))] }
	var out []v1.Toleration
	for range n {
		t := v1.Toleration{
			Key:      pick("", "a", "b"),
			Operator: v1.TolerationOperator(pick("Exists", "Exists", "Equal", "Equal", "", "Lt")),
			Value:    pick("", "v", "w"),
			Effect:   v1.TaintEffect(pick("", "NoSchedule", "NoExecute", "NoExecute", "PreferNoSchedule")),
		}
		if r.IntN(2) == 0 {
			t.TolerationSeconds = ptr.To(int64(r.IntN(4)) * 5)
		}
		out = append(out, t)
	}
	return out
}

// The merge keeps exactly what the pairwise merge keeps, in its order, on random lists drawn
// from few keys, values, operators, effects and seconds, so that equal, covering and
// mutually covering tolerations abound.
func TestMergeTolerationsIsThePairwiseMerge(t *testing.T) {
	for i := range 20000 {
		r := rand.New(rand.NewPCG(uint64(i), 11))
		first, second := randomTolerations(r, r.IntN(7)), randomTolerations(r, r.IntN(7))
		firstCopy, secondCopy := append([]v1.Toleration(nil), first...), append([]v1.Toleration(nil), second...)
		require.Equal(t, pairwiseMerge(first, second), admission.MergeTolerations(first, second), "case %d: %+v + %+v", i, first, second)
		require.Equal(t, firstCopy, first, "case %d: first is left as it was", i)
		require.Equal(t, secondCopy, second, "case %d: second is left as it was", i)
	}
}

// distinctTolerations are n tolerations of which none covers another.
func distinctTolerations(prefix string, n int) []v1.Toleration {
	out := make([]v1.Toleration, n)
	for i := range out {
		out[i] = v1.Toleration{Key: fmt.Sprintf("%s-%d", prefix, i), Operator: v1.TolerationOpEqual, Value: "v", Effect: v1.TaintEffectNoSchedule}
	}
	return out
}

// The merge's allocations grow with the tolerations, not with their pairs: 500 tolerations on
// each side take at most 40 allocations per toleration (the pairwise merge takes a million).
func TestMergeTolerationsAllocationsAreLinear(t *testing.T) {
	const n = 500
	first, second := distinctTolerations("pod", n), distinctTolerations("class", n)
	var merged []v1.Toleration
	allocs := testing.AllocsPerRun(3, func() { merged = admission.MergeTolerations(first, second) })
	assert.Len(t, merged, 2*n)
	assert.LessOrEqual(t, allocs, float64(40*2*n))
}

// BenchmarkMergeTolerations merges 2,000 tolerations with 2,000 others, none covering another.
func BenchmarkMergeTolerations(b *testing.B) {
	first, second := distinctTolerations("pod", 2000), distinctTolerations("class", 2000)
	b.ReportAllocs()
	for b.Loop() {
		admission.MergeTolerations(first, second)
	}
}
