package configgen

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/internal/expansion"
)

// subPathEnv holds fewer variables than the whole environment, but every subPathExpr expands
// against it exactly as against the whole environment (kubelet's envVarsToMap, later duplicates
// winning): same result, same missing names.
func TestSubPathEnvExpandsAsTheWholeEnvironment(t *testing.T) {
	envs := []EnvVar{
		{Name: "A", Value: "first"}, {Name: "B", Value: "b"}, {Name: "EMPTY", Value: ""},
		{Name: "A", Value: "second"}, {Name: "A$(B", Value: "odd"}, {Name: "AB", Value: "ab"},
		{Name: "", Value: "noname"}, {Name: "C)", Value: "c"},
	}
	for _, expr := range []string{
		"$(A)", "$(A)/$(B)", "$(A)$(A)", "x$(AB)y", "$$(A)", "$$$(A)", "$(A$(B))", "$(A", "$(A)$(B",
		"$()", "$(EMPTY)", "$(MISSING)", "$(C))", "$($(A))", "plain", "$", "$(", ")$(B)",
	} {
		t.Run(expr, func(t *testing.T) {
			c := &v1.Container{VolumeMounts: []v1.VolumeMount{{Name: "v", SubPathExpr: "unrelated/$(B)"}, {Name: "w", SubPathExpr: expr}}}
			small := subPathEnv(c, envs)
			assert.LessOrEqual(t, len(small), len(envMap(envs)))
			for _, m := range c.VolumeMounts {
				wantOut, wantMissing, wantOK := expansion.ExpandStrictLimit(m.SubPathExpr, envMap(envs), 4096)
				out, missing, ok := expansion.ExpandStrictLimit(m.SubPathExpr, small, 4096)
				assert.Equal(t, wantOut, out)
				assert.Equal(t, wantMissing, missing)
				assert.Equal(t, wantOK, ok)
			}
		})
	}
	assert.Nil(t, subPathEnv(&v1.Container{VolumeMounts: []v1.VolumeMount{{Name: "v", SubPath: "x"}}}, envs), "no subPathExpr, no map")
}
