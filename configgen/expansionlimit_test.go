package configgen_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/configgen"
)

// doublingEnv is V0=a, V1=$(V0)$(V0), ..., Vn: each line doubles the value (2^n bytes).
func doublingEnv(n int) []v1.EnvVar {
	env := []v1.EnvVar{lit("V0", "a")}
	for i := 1; i <= n; i++ {
		env = append(env, lit(fmt.Sprintf("V%d", i), fmt.Sprintf("$(V%d)$(V%d)", i-1, i-1)))
	}
	return env
}

// manyBigEnv is BIG (64 KiB) and n variables of $(BIG) four times (256 KiB each).
func manyBigEnv(n int) []v1.EnvVar {
	env := []v1.EnvVar{lit("BIG", strings.Repeat("b", 64<<10))}
	for i := range n {
		env = append(env, lit(fmt.Sprintf("X%d", i), "$(BIG)$(BIG)$(BIG)$(BIG)"))
	}
	return env
}

func TestExpansionLimits(t *testing.T) {
	tests := []struct {
		name    string
		env     []v1.EnvVar
		limits  configgen.ExpansionLimits
		wantErr string
	}{
		{
			name: "a doubling chain stops at the first value over 1 MiB", env: doublingEnv(40),
			wantErr: `expanding environment variable "V21" exceeds the limit of 1048576 bytes for one value (ExpansionLimits.MaxValueBytes)`,
		},
		{name: "a value of exactly 1 MiB is allowed", env: doublingEnv(20)},
		{
			name: "many large values stop at the environment's 6 MiB", env: manyBigEnv(1000),
			wantErr: `the environment exceeds the limit of 6291456 bytes (ExpansionLimits.MaxEnvironmentBytes) at variable "X23"`,
		},
		{
			name: "without the environment's bound, many large values stop at the container's 16 MiB", env: manyBigEnv(1000),
			limits:  configgen.ExpansionLimits{MaxEnvironmentBytes: -1},
			wantErr: `expanding environment variable "X64" exceeds the container's limit of expanded bytes (ExpansionLimits.MaxContainerBytes)`,
		},
		{name: "without the environment's bound, 16 MiB in a container is allowed", env: manyBigEnv(64), limits: configgen.ExpansionLimits{MaxEnvironmentBytes: -1}},
		{
			name: "the value bound is configurable", env: doublingEnv(5), limits: configgen.ExpansionLimits{MaxValueBytes: 16},
			wantErr: `expanding environment variable "V5" exceeds the limit of 16 bytes for one value`,
		},
		{
			name: "the container bound is configurable", env: doublingEnv(5), limits: configgen.ExpansionLimits{MaxContainerBytes: 20},
			wantErr: `expanding environment variable "V4" exceeds the container's limit`,
		},
		{name: "negative limits are kubelet's: no bound", env: doublingEnv(22), limits: configgen.ExpansionLimits{MaxValueBytes: -1, MaxContainerBytes: -1, MaxEnvironmentBytes: -1}},
		{name: "values without $ do not count", env: []v1.EnvVar{lit("A", strings.Repeat("x", 2<<20))}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := envInput(testPod(tc.env...))
			in.ExpansionLimits = tc.limits
			_, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
			if tc.wantErr == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, configgen.ErrExpansionLimit)
			require.ErrorIs(t, err, configgen.ErrInvalidPod)
			assert.ErrorContains(t, err, tc.wantErr)
		})
	}
}

// TestExpansionLimitBoundsMemory: the 520-byte doubling spec that makes kubelet build a 128 MiB
// value (348 MiB allocated) stops within a few MiB.
func TestExpansionLimitBoundsMemory(t *testing.T) {
	in := envInput(testPod(doublingEnv(40)...))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
	runtime.ReadMemStats(&after)
	require.ErrorIs(t, err, configgen.ErrExpansionLimit)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(8<<20), "allocated while expanding")
}

// TestExpansionLimitInGenerator: command and args share the container's budget with the env
// values; exceeding it fails GenerateContainerConfig with ErrInvalidPod before any host effect.
func TestExpansionLimitInGenerator(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(c *v1.Container)
		limits  configgen.ExpansionLimits
		wantErr string
	}{
		{name: "args after a large environment", edit: func(c *v1.Container) {
			c.Env = manyBigEnv(60)
			c.Args = []string{"$(BIG)$(BIG)$(BIG)$(BIG)", "$(BIG)$(BIG)$(BIG)$(BIG)", "$(BIG)$(BIG)$(BIG)$(BIG)", "$(BIG)$(BIG)$(BIG)$(BIG)", "$(BIG)"}
		}, limits: configgen.ExpansionLimits{MaxEnvironmentBytes: -1}, wantErr: `expanding args entry "4" exceeds the container's limit of expanded bytes`},
		{name: "a command entry over the value bound", edit: func(c *v1.Container) {
			c.Env = []v1.EnvVar{lit("A", "0123456789")}
			c.Command = []string{"$(A)$(A)"}
		}, limits: configgen.ExpansionLimits{MaxValueBytes: 15}, wantErr: `expanding command entry "0" exceeds the limit of 15 bytes for one value`},
		{name: "an env value through the Generator's Options", edit: func(c *v1.Container) {
			c.Env = doublingEnv(4)
		}, limits: configgen.ExpansionLimits{MaxValueBytes: 8}, wantErr: `expanding environment variable "V4" exceeds the limit of 8 bytes`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gen, effects, node := validationNodeWith(t, func(o *configgen.Options) { o.ExpansionLimits = tc.limits })
			pod := samplePod()
			tc.edit(&pod.Spec.Containers[0])
			volumes := node.Volumes(pod)
			before := effects.count()
			_, err := gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{
				Pod: pod, Container: &pod.Spec.Containers[0], ImageRef: "sha256:abc", Volumes: volumes})
			require.ErrorIs(t, err, configgen.ErrExpansionLimit)
			require.ErrorIs(t, err, configgen.ErrInvalidPod)
			assert.ErrorContains(t, err, tc.wantErr)
			assert.Equal(t, before, effects.count(), "a host effect before the expansion error")
		})
	}
}
