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

// envPod has an init container, a sidecar, a regular container reading a ConfigMap through
// envFrom and an ephemeral container.
func envPod() *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p"},
		Spec: v1.PodSpec{
			EnableServiceLinks: ptr.To(false),
			InitContainers: []v1.Container{
				{Name: "setup", Env: []v1.EnvVar{{Name: "A", Value: "1"}}},
				{Name: "proxy", RestartPolicy: ptr.To(v1.ContainerRestartPolicyAlways), Env: []v1.EnvVar{{Name: "B", Value: "$(A)x"}}},
			},
			Containers: []v1.Container{{Name: "app",
				EnvFrom: []v1.EnvFromSource{{ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}}}},
				Env:     []v1.EnvVar{{Name: "NAME", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}}},
			}},
			EphemeralContainers: []v1.EphemeralContainer{{EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: "debug",
				Env: []v1.EnvVar{{Name: "NS", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}},
			}}},
		},
	}
}

func resolveEnvPod(t *testing.T, pod *v1.Pod) configgen.PodEnv {
	t.Helper()
	cms := configMaps(cm("ns", "cfg", map[string]string{"FROM_CM": "yes"}))
	envs, _, err := configgen.MakePodEnvironmentVariables(context.Background(), configgen.PodEnvInput{Pod: pod, ConfigMaps: cms})
	require.NoError(t, err)
	return envs
}

// ContainerEnv.Vars is what the single-container call returns for that container, and Env the
// same values in the API's type.
func TestPodEnvVarsMatchSingleCall(t *testing.T) {
	pod := envPod()
	envs := resolveEnvPod(t, pod)
	cms := configMaps(cm("ns", "cfg", map[string]string{"FROM_CM": "yes"}))
	require.Len(t, envs, 4)
	for _, ce := range envs {
		single, _, err := configgen.MakeEnvironmentVariables(context.Background(), configgen.EnvInput{Pod: pod, Container: ce.Container, ConfigMaps: cms})
		require.NoError(t, err)
		assert.Equal(t, single, ce.Vars, ce.Container.Name)
		require.Len(t, ce.Env, len(ce.Vars))
		for i, v := range ce.Vars {
			assert.Equal(t, v1.EnvVar{Name: v.Name, Value: v.Value}, ce.Env[i])
		}
	}
}

func TestPodEnvApplyTo(t *testing.T) {
	tests := []struct {
		name          string
		target        func(*v1.Pod) *v1.Pod
		envs          func(configgen.PodEnv) configgen.PodEnv
		wantErr       string
		wantContainer string
	}{
		{name: "the pod resolved is written to", target: func(p *v1.Pod) *v1.Pod { return p }},
		{name: "a copy of the pod is written to", target: func(p *v1.Pod) *v1.Pod { return p.DeepCopy() }},
		{name: "a nil pod is refused", target: func(*v1.Pod) *v1.Pod { return nil }, wantErr: "cannot apply environment variables to a nil pod"},
		{name: "a pod whose container at a position has another name is refused", target: func(p *v1.Pod) *v1.Pod {
			c := p.DeepCopy()
			c.Spec.Containers[0].Name = "other"
			return c
		}, wantErr: `the pod's container at position 2 is regular container "other", not regular container "app" as resolved`, wantContainer: "other"},
		{name: "a pod without the ephemeral container is refused", target: func(p *v1.Pod) *v1.Pod {
			c := p.DeepCopy()
			c.Spec.EphemeralContainers = nil
			return c
		}, wantErr: `the pod has no container at position 3 for ephemeral container "debug"`, wantContainer: "debug"},
		{name: "a pod without the sidecar is refused: the regular container moves to its position", target: func(p *v1.Pod) *v1.Pod {
			c := p.DeepCopy()
			c.Spec.InitContainers = c.Spec.InitContainers[:1]
			return c
		}, wantErr: `the pod's container at position 1 is regular container "app", not sidecar container "proxy" as resolved`, wantContainer: "app"},
		{name: "a sidecar that became an init container is refused", target: func(p *v1.Pod) *v1.Pod {
			c := p.DeepCopy()
			c.Spec.InitContainers[1].RestartPolicy = nil
			return c
		}, wantErr: `the pod's container at position 1 is init container "proxy", not sidecar container "proxy" as resolved`, wantContainer: "proxy"},
		{name: "a pod with a container more is refused", target: func(p *v1.Pod) *v1.Pod {
			c := p.DeepCopy()
			c.Spec.EphemeralContainers = append(c.Spec.EphemeralContainers, v1.EphemeralContainer{EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: "late"}})
			return c
		}, wantErr: `the pod's ephemeral container "late" at position 4 has no environment`, wantContainer: "late"},
		{name: "an environment with no container spec is refused", target: func(p *v1.Pod) *v1.Pod { return p.DeepCopy() },
			envs:    func(e configgen.PodEnv) configgen.PodEnv { return configgen.PodEnv{{}} },
			wantErr: "the resolved environment at position 0 has no container spec"},
		{name: "no environment for a pod with containers is refused", target: func(p *v1.Pod) *v1.Pod { return p.DeepCopy() },
			envs:    func(configgen.PodEnv) configgen.PodEnv { return nil },
			wantErr: `the pod's init container "setup" at position 0 has no environment`, wantContainer: "setup"},
		{name: "no environment for a pod with no containers changes nothing", target: func(p *v1.Pod) *v1.Pod {
			c := p.DeepCopy()
			c.Spec.InitContainers, c.Spec.Containers, c.Spec.EphemeralContainers = nil, nil, nil
			return c
		}, envs: func(configgen.PodEnv) configgen.PodEnv { return nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := envPod()
			envs := resolveEnvPod(t, pod)
			if tt.envs != nil {
				envs = tt.envs(envs)
			}
			target := tt.target(pod)
			var before *v1.Pod
			if target != nil {
				before = target.DeepCopy()
			}
			err := envs.ApplyTo(target)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				assert.ErrorIs(t, err, configgen.ErrInvalidOptions)
				var e *configgen.Error
				require.ErrorAs(t, err, &e)
				assert.Equal(t, tt.wantContainer, e.Container)
				assert.Equal(t, configgen.ReasonFailedToCreateEnvVars, e.Reason)
				assert.Equal(t, before, target, "nothing is applied on error")
				return
			}
			require.NoError(t, err)
			if envs == nil {
				assert.Equal(t, before, target)
				return
			}
			s := &target.Spec
			assert.Equal(t, []v1.EnvVar{{Name: "A", Value: "1"}}, s.InitContainers[0].Env)
			assert.Equal(t, []v1.EnvVar{{Name: "B", Value: "$(A)x"}}, s.InitContainers[1].Env, "A is the init container's, not the sidecar's")
			assert.Equal(t, []v1.EnvVar{{Name: "FROM_CM", Value: "yes"}, {Name: "NAME", Value: "p"}}, s.Containers[0].Env)
			assert.Nil(t, s.Containers[0].EnvFrom, "envFrom's values are in env now")
			assert.Equal(t, []v1.EnvVar{{Name: "NS", Value: "ns"}}, s.EphemeralContainers[0].Env)
			s.Containers[0].Env[0].Value = "changed"
			assert.Equal(t, "yes", envs[2].Env[0].Value, "the pod does not share the result's slices")
		})
	}
}
