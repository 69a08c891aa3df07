package configgen_test

import (
	"context"
	"fmt"
	"runtime"
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
