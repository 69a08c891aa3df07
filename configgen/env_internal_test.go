package configgen

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/internal/expansion"
)

// An object that gains keys between being counted and being read must not break the builder:
// the table grows and the result still holds every variable once, service variables after.
func TestEnvBuilderMoreDefinitionsThanReserved(t *testing.T) {
	b := &envBuilder{in: EnvInput{Pod: &v1.Pod{}, Container: &v1.Container{}}}
	b.svcCount = 1
	b.reserve(1)
	b.all[1] = EnvVar{Name: "SVC", Value: "s"}
	b.svc = b.all[1:2]
	b.svcNames.add("SVC")
	var want []EnvVar
	for i := range 40 {
		name := fmt.Sprintf("V%02d", i)
		b.set(name, "x")
		want = append(want, EnvVar{Name: name, Value: "x"})
	}
	b.set("V07", "again")
	want[7].Value = "again"
	got := b.result()
	assert.Equal(t, append(want, EnvVar{Name: "SVC", Value: "s"}), got)
	for i := range 40 {
		v, ok := b.lookup(fmt.Sprintf("V%02d", i))
		assert.True(t, ok)
		assert.NotEmpty(t, v)
	}
}

// subPathEnv holds fewer variables than the whole environment, but every subPathExpr expands
// against it exactly as against the whole environment (kubelet's envVarsToMap, later duplicates
// winning): same result, same missing names.
func TestSubPathEnvExpandsAsTheWholeEnvironment(t *testing.T) {
	envs := []EnvVar{
		{Name: "A", Value: "first"}, {Name: "B", Value: "b"}, {Name: "EMPTY", Value: ""},
		{Name: "A", Value: "second"}, {Name: "A$(B", Value: "odd"}, {Name: "AB", Value: "ab"},
		{Name: "", Value: "noname"}, {Name: "C)", Value: "c"},
	}
	// The scratch's map is reused by every expression in turn, as GenerateContainerConfig's calls
	// reuse it: nothing of one may remain for the next.
	scratch := &envScratch{}
	for _, expr := range []string{
		"$(A)", "$(A)/$(B)", "$(A)$(A)", "x$(AB)y", "$$(A)", "$$$(A)", "$(A$(B))", "$(A", "$(A)$(B",
		"$()", "$(EMPTY)", "$(MISSING)", "$(C))", "$($(A))", "plain", "$", "$(", ")$(B)",
	} {
		t.Run(expr, func(t *testing.T) {
			c := &v1.Container{VolumeMounts: []v1.VolumeMount{{Name: "v", SubPathExpr: "unrelated/$(B)"}, {Name: "w", SubPathExpr: expr}}}
			small := subPathEnv(c, envs, nil)
			assert.LessOrEqual(t, len(small), len(envMap(envs)))
			lent := subPathEnv(c, envs, scratch)
			assert.Equal(t, small, lent, "the scratch's map holds what a fresh one does")
			for _, m := range c.VolumeMounts {
				wantOut, wantMissing, wantOK := expansion.ExpandStrictLimit(m.SubPathExpr, envMap(envs), 4096)
				out, missing, ok := expansion.ExpandStrictLimit(m.SubPathExpr, small, 4096)
				assert.Equal(t, wantOut, out)
				assert.Equal(t, wantMissing, missing)
				assert.Equal(t, wantOK, ok)
			}
		})
	}
	assert.Nil(t, subPathEnv(&v1.Container{VolumeMounts: []v1.VolumeMount{{Name: "v", SubPath: "x"}}}, envs, nil), "no subPathExpr, no map")
	assert.Nil(t, subPathEnv(&v1.Container{VolumeMounts: []v1.VolumeMount{{Name: "v", SubPath: "x"}}}, envs, scratch), "no subPathExpr, no map")
}

// nameHeads never says a name it holds is missing; names of another head are mostly told apart.
func TestNameHeads(t *testing.T) {
	var set nameHeads
	held := []string{"", "A", "AB", "KUBERNETES_PORT", "POSTGRES_SERVICE_HOST", "\xff\x00x", "é"}
	for _, n := range held {
		set.add(n)
	}
	for _, n := range held {
		assert.True(t, set.mayHold(n), "%q", n)
	}
	assert.True(t, set.mayHold("KUBxyz"), "the head is the first three bytes")
	assert.True(t, set.mayHold("POSTGRES"), "the head is the first three bytes")
	missed := 0
	for _, n := range []string{"POD_NAME", "B", "ABC", "LOG_LEVEL", "STRIPE_KEY", "DB_URL", "MODE", "NODE_NAME"} {
		if !set.mayHold(n) {
			missed++
		}
	}
	assert.GreaterOrEqual(t, missed, 6, "most other heads are not in the set")
}
