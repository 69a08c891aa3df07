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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
)

// A hostile pod names one large ConfigMap or Secret in a thousand envFrom entries. The entries
// define each of its 5,000 names once, so the environment costs about what 5,000 variables cost,
// not a thousand times that: a call allocated 444 MB for it (kubelet's map holds 5,000 entries).
func TestEnvFromRepeatedObjectCostsItsKeysOnce(t *testing.T) {
	const keys, entries = 5000, 1000
	const maxAlloc = 16 << 20
	data := map[string]string{}
	for i := 0; i < keys; i++ {
		data[fmt.Sprintf("KEY_%05d", i)] = fmt.Sprintf("value-%d", i)
	}
	big := cm("ns", "big", data)
	bigSecret := secret("ns", "big", data)
	pod := func(ref func() v1.EnvFromSource) *v1.Pod {
		c := v1.Container{Name: "c", Image: "img"}
		for i := 0; i < entries; i++ {
			c.EnvFrom = append(c.EnvFrom, ref())
		}
		return &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "uid-envfrom"},
			Spec:       v1.PodSpec{EnableServiceLinks: ptr.To(false), Containers: []v1.Container{c}},
		}
	}
	cmRef := func() v1.EnvFromSource {
		return v1.EnvFromSource{ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "big"}}}
	}
	secretRef := func() v1.EnvFromSource {
		return v1.EnvFromSource{SecretRef: &v1.SecretEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "big"}}}
	}
	check := func(t *testing.T, got map[string]string, allocated uint64) {
		t.Helper()
		assert.Equal(t, data, got)
		assert.LessOrEqual(t, allocated, uint64(maxAlloc), "bytes allocated for %d variables", keys)
	}
	measure := func(f func()) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}

	tests := []struct {
		name string
		ref  func() v1.EnvFromSource
	}{
		{name: "configMapRef", ref: cmRef},
		{name: "secretRef", ref: secretRef},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/MakeEnvironmentVariables", func(t *testing.T) {
			p := pod(tt.ref)
			var envs []configgen.EnvVar
			var err error
			allocated := measure(func() {
				envs, _, err = configgen.MakeEnvironmentVariables(context.Background(), configgen.EnvInput{
					Pod: p, Container: &p.Spec.Containers[0],
					ConfigMaps: configMaps(big), Secrets: secrets(bigSecret),
				})
			})
			require.NoError(t, err)
			got := map[string]string{}
			for _, e := range envs {
				got[e.Name] = e.Value
			}
			check(t, got, allocated)
		})
		t.Run(tt.name+"/GenerateContainerConfig", func(t *testing.T) {
			node := configgentest.NewNode(big, bigSecret)
			gen, err := node.Generator()
			require.NoError(t, err)
			p := pod(tt.ref)
			req := configgen.ContainerRequest{Pod: p, Container: &p.Spec.Containers[0], PodIPs: []string{"10.244.0.5"},
				ImageRef: "sha256:1f2e", Volumes: node.Volumes(p)}
			var envs map[string]string
			allocated := measure(func() {
				c, err := gen.GenerateContainerConfig(context.Background(), req)
				require.NoError(t, err)
				envs = map[string]string{}
				for _, kv := range c.GetEnvs() {
					envs[kv.GetKey()] = string(kv.GetValue())
				}
			})
			check(t, envs, allocated)
		})
	}
}

// envFrom entries naming one large object under a thousand prefixes define five million distinct
// variables from 90 KB of spec (kubelet builds them all; this took 1.3 GB). The environment is
// bounded by ExpansionLimits.MaxEnvironmentBytes: each variable costs its name, its value and 32
// bytes, and past the bound the call fails with ErrExpansionLimit, having allocated at most 10
// times the bound. An environment as large as the kernel lets a process start passes.
func TestEnvironmentBytesAreBounded(t *testing.T) {
	data := map[string]string{}
	for i := 0; i < 5000; i++ {
		data[fmt.Sprintf("K%04d", i)] = "v"
	}
	big := cm("ns", "big", data)
	prefixed := v1.Container{Name: "c", Image: "img"}
	for i := 0; i < 1000; i++ {
		prefixed.EnvFrom = append(prefixed.EnvFrom, v1.EnvFromSource{Prefix: fmt.Sprintf("P%03d_", i),
			ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "big"}}})
	}
	// The kernel's bound is 6 MiB for the environment and arguments, each variable costing its
	// name, "=", its value, a NUL and a pointer.
	largest := v1.Container{Name: "c", Image: "img", Env: []v1.EnvVar{{Name: "BLOB", Value: strings.Repeat("x", 5<<20)}}}
	for i := 0; i < 40_000; i++ {
		largest.Env = append(largest.Env, v1.EnvVar{Name: fmt.Sprintf("V%05d", i), Value: "1"})
	}
	huge := v1.Container{Name: "c", Image: "img", Env: []v1.EnvVar{{Name: "HUGE", Value: strings.Repeat("x", 33<<20)}}}
	pod := func(c v1.Container) *v1.Pod {
		return &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "uid-env-bound"},
			Spec:       v1.PodSpec{EnableServiceLinks: ptr.To(false), Containers: []v1.Container{c}},
		}
	}
	tests := []struct {
		name     string
		ctr      v1.Container
		limits   configgen.ExpansionLimits
		wantVars int
		wantErr  string
	}{
		{name: "a thousand prefixes of a 5,000-key ConfigMap", ctr: prefixed,
			wantErr: `the environment exceeds the limit of 33554432 bytes (ExpansionLimits.MaxEnvironmentBytes) at variable "P`},
		{name: "a lower bound of the caller's", ctr: largest, limits: configgen.ExpansionLimits{MaxEnvironmentBytes: 1 << 20},
			wantErr: `the environment exceeds the limit of 1048576 bytes (ExpansionLimits.MaxEnvironmentBytes) at variable "BLOB"`},
		{name: "as large an environment as a process can start with", ctr: largest, wantVars: 40_001},
		{name: "one value past the bound", ctr: huge,
			wantErr: `the environment exceeds the limit of 33554432 bytes (ExpansionLimits.MaxEnvironmentBytes) at variable "HUGE"`},
		{name: "no bound, as in kubelet", ctr: huge, limits: configgen.ExpansionLimits{MaxEnvironmentBytes: -1}, wantVars: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := pod(tt.ctr)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			envs, _, err := configgen.MakeEnvironmentVariables(context.Background(), configgen.EnvInput{
				Pod: p, Container: &p.Spec.Containers[0], ConfigMaps: configMaps(big), ExpansionLimits: tt.limits,
			})
			runtime.ReadMemStats(&after)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.ErrorIs(t, err, configgen.ErrExpansionLimit)
				assert.ErrorIs(t, err, configgen.ErrInvalidPod)
				assert.ErrorContains(t, err, tt.wantErr)
				t.Logf("allocated %d MiB", (after.TotalAlloc-before.TotalAlloc)>>20)
				assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(10*configgen.DefaultMaxEnvironmentBytes), "bytes allocated before the bound stopped the call")
				return
			}
			require.NoError(t, err)
			assert.Len(t, envs, tt.wantVars)
		})
	}
}
