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

// allocatedBy returns the bytes f allocates.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// prefixedEntries names the ConfigMap "big" under entries prefixes P000_, P001_, ...
func prefixedEntries(entries int) []v1.EnvFromSource {
	var out []v1.EnvFromSource
	for i := range entries {
		out = append(out, v1.EnvFromSource{Prefix: fmt.Sprintf("P%03d_", i),
			ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "big"}}})
	}
	return out
}

// The environment is bounded by ExpansionLimits.MaxEnvironmentBytes, by default 6 MiB, the most
// the kernel lets any process start with, each variable counting as execve counts it: its name,
// "=", its value, a NUL and an 8-byte pointer. envFrom entries naming one large ConfigMap under
// many prefixes ask for millions of variables from a few KB of spec (a hundred prefixes of a
// 5,000-key ConfigMap, under 32 MiB counted with 32 bytes a variable, built half a million
// variables per container and rendered 384 MB of JSON for 73.5 KB of input); the call now fails
// as soon as the variables defined so far pass the bound, having allocated under 20 times the
// bound (about 300 bytes for each variable of 21 bytes it defined). An environment of exactly the
// bound passes.
func TestEnvironmentBytesAreBounded(t *testing.T) {
	const bound = configgen.DefaultMaxEnvironmentBytes
	data := map[string]string{}
	for i := 0; i < 5000; i++ {
		data[fmt.Sprintf("K%04d", i)] = "v"
	}
	big := cm("ns", "big", data)
	// 40,000 variables V00000=1 of 6+1+10 bytes each, and BLOB filling the rest up to the bound.
	exactly := func(extra int) v1.Container {
		c := v1.Container{Name: "c", Image: "img", Env: []v1.EnvVar{{Name: "BLOB", Value: strings.Repeat("x", bound-40_000*17-(4+10)+extra)}}}
		for i := 0; i < 40_000; i++ {
			c.Env = append(c.Env, v1.EnvVar{Name: fmt.Sprintf("V%05d", i), Value: "1"})
		}
		return c
	}
	huge := v1.Container{Name: "c", Image: "img", Env: []v1.EnvVar{{Name: "HUGE", Value: strings.Repeat("x", bound)}}}
	pod := func(c v1.Container, links bool) *v1.Pod {
		return &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "uid-env-bound"},
			Spec:       v1.PodSpec{EnableServiceLinks: ptr.To(links), Containers: []v1.Container{c}},
		}
	}
	// A (1+1+10 bytes) and the 8 variables of default/kubernetes (346 bytes): 358 bytes.
	withServices := v1.Container{Name: "c", Image: "img", Env: []v1.EnvVar{{Name: "A", Value: "a"}}}
	tests := []struct {
		name     string
		ctr      v1.Container
		links    bool
		limits   configgen.ExpansionLimits
		wantVars int
		wantErr  string
	}{
		{name: "a hundred prefixes of a 5,000-key ConfigMap", ctr: v1.Container{Name: "c", Image: "img", EnvFrom: prefixedEntries(100)},
			wantErr: `the environment exceeds the limit of 6291456 bytes (ExpansionLimits.MaxEnvironmentBytes) at variable "P059_K4593"`},
		{name: "a thousand prefixes of a 5,000-key ConfigMap", ctr: v1.Container{Name: "c", Image: "img", EnvFrom: prefixedEntries(1000)},
			wantErr: `the environment exceeds the limit of 6291456 bytes (ExpansionLimits.MaxEnvironmentBytes) at variable "P059_K4593"`},
		{name: "an environment of exactly the bound passes", ctr: exactly(0), wantVars: 40_001},
		{name: "a byte more is refused at the variable that passes the bound", ctr: exactly(1),
			wantErr: `the environment exceeds the limit of 6291456 bytes (ExpansionLimits.MaxEnvironmentBytes) at variable "V39999"`},
		{name: "a lower bound of the caller's", ctr: exactly(0), limits: configgen.ExpansionLimits{MaxEnvironmentBytes: 1 << 20},
			wantErr: `the environment exceeds the limit of 1048576 bytes (ExpansionLimits.MaxEnvironmentBytes) at variable "BLOB"`},
		{name: "one value as large as the bound is past it", ctr: huge,
			wantErr: `the environment exceeds the limit of 6291456 bytes (ExpansionLimits.MaxEnvironmentBytes) at variable "HUGE"`},
		{name: "no bound, as in kubelet", ctr: huge, limits: configgen.ExpansionLimits{MaxEnvironmentBytes: -1}, wantVars: 1},
		{name: "the service variables count too", ctr: withServices, links: true, limits: configgen.ExpansionLimits{MaxEnvironmentBytes: 357},
			wantErr: `the environment exceeds the limit of 357 bytes (ExpansionLimits.MaxEnvironmentBytes) at variable "KUBERNETES_SERVICE_PORT_HTTPS"`},
		{name: "the service variables fit", ctr: withServices, links: true, limits: configgen.ExpansionLimits{MaxEnvironmentBytes: 358}, wantVars: 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := pod(tt.ctr, tt.links)
			in := configgen.EnvInput{Pod: p, Container: &p.Spec.Containers[0], ConfigMaps: configMaps(big), ExpansionLimits: tt.limits}
			if tt.links {
				in.Services = services(kubernetesService())
			}
			var envs []configgen.EnvVar
			var err error
			allocated := allocatedBy(func() { envs, _, err = configgen.MakeEnvironmentVariables(context.Background(), in) })
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.ErrorIs(t, err, configgen.ErrExpansionLimit)
				assert.ErrorIs(t, err, configgen.ErrInvalidPod)
				assert.ErrorContains(t, err, tt.wantErr)
				t.Logf("allocated %.1f MiB", float64(allocated)/(1<<20))
				assert.Less(t, allocated, uint64(20*bound), "bytes allocated before the bound stopped the call")
				return
			}
			require.NoError(t, err)
			assert.Len(t, envs, tt.wantVars)
		})
	}
}

// A Secret larger than the bound is not copied whole before the bound stops the call: its values
// become strings as they are defined (200 values of 128 KiB were all copied first).
func TestEnvFromSecretIsCopiedOnlyUpToTheBound(t *testing.T) {
	data := map[string]string{}
	for i := range 200 {
		data[fmt.Sprintf("K%03d", i)] = strings.Repeat("s", 128<<10)
	}
	big := secret("ns", "big", data)
	p := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "uid-env-secret"},
		Spec: v1.PodSpec{EnableServiceLinks: ptr.To(false), Containers: []v1.Container{{Name: "c", Image: "img",
			EnvFrom: []v1.EnvFromSource{{SecretRef: &v1.SecretEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "big"}}}}}}},
	}
	var err error
	allocated := allocatedBy(func() {
		_, _, err = configgen.MakeEnvironmentVariables(context.Background(), configgen.EnvInput{
			Pod: p, Container: &p.Spec.Containers[0], Secrets: secrets(big)})
	})
	require.ErrorIs(t, err, configgen.ErrExpansionLimit)
	assert.ErrorContains(t, err, `the environment exceeds the limit of 6291456 bytes (ExpansionLimits.MaxEnvironmentBytes) at variable "K047"`)
	t.Logf("allocated %.1f MiB for a Secret of %d MiB", float64(allocated)/(1<<20), 200*128>>10)
	assert.Less(t, allocated, uint64(configgen.DefaultMaxEnvironmentBytes+(1<<20)), "bytes allocated for the Secret's values")
}

// envFrom entries naming one object under one prefix define its keys once, whatever their
// number: a thousand of them cost what two cost (each defined the 5,000 prefixed names again,
// five million definitions and as many names made for a 5,000-variable environment).
func TestEnvFromRepeatedEntryCostsTwoEntries(t *testing.T) {
	data := map[string]string{}
	for i := range 5000 {
		data[fmt.Sprintf("K%04d", i)] = "v"
	}
	big := cm("ns", "big", data)
	allocs := func(entries int) float64 {
		c := v1.Container{Name: "c", Image: "img"}
		for range entries {
			c.EnvFrom = append(c.EnvFrom, v1.EnvFromSource{Prefix: "APP_",
				ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "big"}}})
		}
		p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "uid-env-repeat"},
			Spec: v1.PodSpec{EnableServiceLinks: ptr.To(false), Containers: []v1.Container{c}}}
		in := configgen.EnvInput{Pod: p, Container: &p.Spec.Containers[0], ConfigMaps: configMaps(big)}
		return testing.AllocsPerRun(3, func() {
			envs, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
			if err != nil || len(envs) != len(data) {
				t.Fatalf("%d variables, %v", len(envs), err)
			}
		})
	}
	two, thousand := allocs(2), allocs(1000)
	t.Logf("%.0f allocations for two entries, %.0f for a thousand", two, thousand)
	assert.LessOrEqual(t, thousand, two+100, "allocations of a thousand entries beyond those of two")
}
