package configgen_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
)

// The pod shapes of virtual-kubelet's environment tests (internal/podutils): containers with no
// name, or with the same name, among init, regular and ephemeral containers, as pods that never
// passed an API server may have. Each container must get its own environment back, whatever its
// name.
func TestPodEnvApplyToRepeatedAndEmptyNames(t *testing.T) {
	const ns = "foo"
	getters := func(in *configgen.PodEnvInput) {
		in.ConfigMaps = configMaps(cm(ns, "configmap-1", map[string]string{"FOO": "__foo__"}), cm(ns, "configmap-2", map[string]string{"BAR": "__bar__"}))
		in.Secrets = secrets(secret(ns, "secret-1", map[string]string{"BAZ": "__baz__"}), secret(ns, "secret-2", map[string]string{"FOO": "__foo__"}))
	}
	// The ConfigMap key's optional is nil, as in virtual-kubelet's test: mandatory.
	byCM := []v1.EnvVar{lit("FOO", "foo_value"), {Name: "BAR", ValueFrom: &v1.EnvVarSource{ConfigMapKeyRef: &v1.ConfigMapKeySelector{
		LocalObjectReference: v1.LocalObjectReference{Name: "configmap-1"}, Key: "FOO"}}}}
	bySecret := []v1.EnvVar{lit("FOO", "foo_value"), secretKey("BAR", "secret-1", "BAZ", false)}
	want := func(bar string) []v1.EnvVar {
		return []v1.EnvVar{{Name: "FOO", Value: "foo_value"}, {Name: "BAR", Value: bar}}
	}
	ephemeral := func(name string, env []v1.EnvVar, from ...v1.EnvFromSource) v1.EphemeralContainer {
		return v1.EphemeralContainer{EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: name, Env: env, EnvFrom: from}}
	}
	tests := []struct {
		name string
		spec v1.PodSpec
		// want is each container's env after ApplyTo, in PodContainers' order.
		want [][]v1.EnvVar
	}{
		{
			name: "two unnamed init containers and two unnamed regular ones each get their own env (TestPopulatePodWithInitContainersUsingEnv)",
			spec: v1.PodSpec{
				InitContainers: []v1.Container{{Env: byCM}, {Env: bySecret}},
				Containers:     []v1.Container{{Env: byCM}, {Env: bySecret}},
			},
			want: [][]v1.EnvVar{want("__foo__"), want("__baz__"), want("__foo__"), want("__baz__")},
		},
		{
			name: "two unnamed ephemeral containers each get their own env (TestPopulatePodWithEphemeralContainersUsingEnv)",
			spec: v1.PodSpec{
				Containers:          []v1.Container{{Env: []v1.EnvVar{lit("FOO", "foo_value")}}},
				EphemeralContainers: []v1.EphemeralContainer{ephemeral("", byCM), ephemeral("", bySecret)},
			},
			want: [][]v1.EnvVar{{{Name: "FOO", Value: "foo_value"}}, want("__foo__"), want("__baz__")},
		},
		{
			name: "unnamed containers with envFrom of different prefixes each get their own keys (TestPopulatePodWithInitContainersUsingEnvFrom)",
			spec: v1.PodSpec{
				InitContainers: []v1.Container{
					{EnvFrom: []v1.EnvFromSource{fromConfigMap("configmap-1", "FROM_CONFIGMAP_1_", false)}},
					{EnvFrom: []v1.EnvFromSource{fromConfigMap("configmap-2", "FROM_CONFIGMAP_2_", false)}},
				},
				Containers: []v1.Container{
					{EnvFrom: []v1.EnvFromSource{fromSecret("secret-1", "FROM_SECRET_1_", false)}},
					{EnvFrom: []v1.EnvFromSource{fromSecret("secret-2", "FROM_SECRET_2_", false)}},
				},
			},
			want: [][]v1.EnvVar{
				{{Name: "FROM_CONFIGMAP_1_FOO", Value: "__foo__"}}, {{Name: "FROM_CONFIGMAP_2_BAR", Value: "__bar__"}},
				{{Name: "FROM_SECRET_1_BAZ", Value: "__baz__"}}, {{Name: "FROM_SECRET_2_FOO", Value: "__foo__"}},
			},
		},
		{
			name: "unnamed ephemeral containers with envFrom each get their own keys (TestPopulatePodWithEphemeralContainersUsingEnvFrom)",
			spec: v1.PodSpec{
				Containers: []v1.Container{{Env: []v1.EnvVar{lit("FOO", "foo_value")}}},
				EphemeralContainers: []v1.EphemeralContainer{
					ephemeral("", nil, fromConfigMap("configmap-1", "FROM_CONFIGMAP_1_", false)),
					ephemeral("", nil, fromSecret("secret-1", "FROM_SECRET_1_", false)),
				},
			},
			want: [][]v1.EnvVar{{{Name: "FOO", Value: "foo_value"}}, {{Name: "FROM_CONFIGMAP_1_FOO", Value: "__foo__"}}, {{Name: "FROM_SECRET_1_BAZ", Value: "__baz__"}}},
		},
		{
			name: "one name repeated in every kind, twice in each, gives each container its own env",
			spec: v1.PodSpec{
				InitContainers:      []v1.Container{{Name: "app", Env: []v1.EnvVar{lit("AT", "0")}}, {Name: "app", Env: []v1.EnvVar{lit("AT", "1")}}},
				Containers:          []v1.Container{{Name: "app", Env: []v1.EnvVar{lit("AT", "2")}}, {Name: "app", Env: []v1.EnvVar{lit("AT", "3")}}},
				EphemeralContainers: []v1.EphemeralContainer{ephemeral("app", []v1.EnvVar{lit("AT", "4")}), ephemeral("app", []v1.EnvVar{lit("AT", "5")})},
			},
			want: [][]v1.EnvVar{{{Name: "AT", Value: "0"}}, {{Name: "AT", Value: "1"}}, {{Name: "AT", Value: "2"}}, {{Name: "AT", Value: "3"}}, {{Name: "AT", Value: "4"}}, {{Name: "AT", Value: "5"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "pod-0"}, Spec: tt.spec}
			pod.Spec.EnableServiceLinks = ptr.To(false)
			in := configgen.PodEnvInput{Pod: pod}
			getters(&in)
			envs, _, err := configgen.MakePodEnvironmentVariables(context.Background(), in)
			require.NoError(t, err)
			resolved := pod.DeepCopy()
			require.NoError(t, envs.ApplyTo(resolved))
			var got [][]v1.EnvVar
			for _, pc := range configgen.PodContainers(resolved) {
				got = append(got, pc.Container.Env)
				assert.Nil(t, pc.Container.EnvFrom)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// MakePodVolumeMounts expands each container's subPathExpr against that container's environment,
// matched by position like ApplyTo, and refuses an environment of another pod's shape.
func TestMakePodVolumeMountsByPosition(t *testing.T) {
	unnamed := func(dir string) v1.Container {
		return v1.Container{Env: []v1.EnvVar{lit("DIR", dir)}, VolumeMounts: []v1.VolumeMount{{Name: "data", MountPath: "/data", SubPathExpr: "$(DIR)"}}}
	}
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p"}, Spec: v1.PodSpec{
		EnableServiceLinks: ptr.To(false),
		Volumes:            []v1.Volume{{Name: "data", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}}},
		InitContainers:     []v1.Container{unnamed("init-0"), unnamed("init-1")},
		Containers:         []v1.Container{unnamed("app-0"), unnamed("app-1")},
	}}
	envs, _, err := configgen.MakePodEnvironmentVariables(context.Background(), configgen.PodEnvInput{Pod: pod})
	require.NoError(t, err)

	t.Run("unnamed containers each expand subPathExpr against their own environment", func(t *testing.T) {
		got, err := configgen.MakePodVolumeMounts(pod, envs, false)
		require.NoError(t, err)
		var subPaths []string
		for _, cm := range got {
			require.Len(t, cm.Mounts, 1)
			subPaths = append(subPaths, cm.Mounts[0].SubPath)
		}
		assert.Equal(t, []string{"init-0", "init-1", "app-0", "app-1"}, subPaths)
	})
	t.Run("the environment of a pod with a container fewer is refused", func(t *testing.T) {
		other := pod.DeepCopy()
		other.Spec.Containers = other.Spec.Containers[:1]
		_, err := configgen.MakePodVolumeMounts(other, envs, false)
		require.EqualError(t, err, `the pod has no container at position 3 for regular container ""`)
		var e *configgen.Error
		require.ErrorAs(t, err, &e)
		assert.ErrorIs(t, err, configgen.ErrInvalidOptions)
		assert.Equal(t, configgen.ReasonCreateContainerConfigError, e.Reason)
		assert.Equal(t, "ns/p", e.Pod)
	})
	t.Run("no environment expands every subPathExpr against nothing", func(t *testing.T) {
		_, err := configgen.MakePodVolumeMounts(pod, nil, false)
		require.EqualError(t, err, "missing value for DIR")
	})
}
