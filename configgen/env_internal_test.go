package configgen

import (
	"strconv"
	"strings"
	"testing"
	"time"

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

// A hostile pod gives a megabyte of $(NAME) references (one missing name repeated, and distinct
// names) among 100,000 variables (one envFrom of a large ConfigMap). Looking each reference up in
// the environment took 2.5·10^10 comparisons, minutes of CPU on a node; reading the environment
// once takes milliseconds. The deadline is a thousand times what the work takes, so it fails only
// when the work is quadratic.
func TestSubPathEnvReadsTheEnvironmentOnce(t *testing.T) {
	envs := make([]EnvVar, 100_000)
	for i := range envs {
		envs[i] = EnvVar{Name: "VAR_" + strconv.Itoa(i), Value: "v" + strconv.Itoa(i)}
	}
	var distinct strings.Builder
	for i := 0; i < 50_000; i++ {
		distinct.WriteString("$(N" + strconv.Itoa(i) + ")")
	}
	c := &v1.Container{VolumeMounts: []v1.VolumeMount{
		{Name: "repeated", SubPathExpr: strings.Repeat("$(MISSING)", 100_000)},
		{Name: "distinct", SubPathExpr: distinct.String()},
		{Name: "found", SubPathExpr: "$(VAR_99999)/$(VAR_0)"},
	}}
	done := make(chan map[string]string, 1)
	go func() { done <- subPathEnv(c, envs) }()
	select {
	case env := <-done:
		assert.Equal(t, map[string]string{"VAR_99999": "v99999", "VAR_0": "v0"}, env)
	case <-time.After(10 * time.Second):
		t.Fatal("subPathEnv did not return within 10 s: its work grows with the references times the variables")
	}
}
