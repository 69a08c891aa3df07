package configgen_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/mounts"
)

// wholePod has an init container, a sidecar, a regular container and an ephemeral one, each
// reading the pod's name and one source of its own.
func wholePod() *v1.Pod {
	name := fieldEnv("POD", "metadata.name")
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web-0", UID: "uid-1"},
		Spec: v1.PodSpec{
			EnableServiceLinks: ptr.To(false),
			Volumes: []v1.Volume{
				{Name: "cfg", VolumeSource: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{}}},
				{Name: "data", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
			},
			InitContainers: []v1.Container{
				{Name: "migrate", Env: []v1.EnvVar{name, cmKey("LEVEL", "settings", "level", false)}},
				{Name: "proxy", RestartPolicy: ptr.To(v1.ContainerRestartPolicyAlways), Env: []v1.EnvVar{name, secretKey("TOKEN", "creds", "token", false)},
					VolumeMounts: []v1.VolumeMount{{Name: "cfg", MountPath: "/etc/proxy"}}},
			},
			Containers: []v1.Container{{
				Name: "app", Env: []v1.EnvVar{name, cmKey("OPT", "absent", "k", true)},
				VolumeMounts: []v1.VolumeMount{{Name: "data", MountPath: "data", SubPathExpr: "$(POD)/logs", ReadOnly: true,
					RecursiveReadOnly: ptr.To(v1.RecursiveReadOnlyIfPossible)}},
			}},
			EphemeralContainers: []v1.EphemeralContainer{{
				EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: "debug", Env: []v1.EnvVar{name}},
				TargetContainerName:      "app",
			}},
		},
	}
}

func wholePodInput(pod *v1.Pod) configgen.PodEnvInput {
	return configgen.PodEnvInput{
		Pod:        pod,
		ConfigMaps: configMaps(cm("ns", "settings", map[string]string{"level": "debug"})),
		Secrets:    secrets(secret("ns", "creds", map[string]string{"token": "s3cr3t"})),
	}
}

func TestPodContainers(t *testing.T) {
	pod := wholePod()
	got := configgen.PodContainers(pod)
	require.Len(t, got, 4)
	kinds := []configgen.ContainerKind{configgen.ContainerKindInit, configgen.ContainerKindSidecar, configgen.ContainerKindRegular, configgen.ContainerKindEphemeral}
	names := []string{"migrate", "proxy", "app", "debug"}
	for i, pc := range got {
		assert.Equal(t, kinds[i], pc.Kind, names[i])
		assert.Equal(t, names[i], pc.Container.Name)
	}
	assert.Same(t, &pod.Spec.InitContainers[0], got[0].Container, "init and regular containers point into the spec")
	assert.Same(t, &pod.Spec.Containers[0], got[2].Container)
	assert.Equal(t, "app", got[3].TargetContainerName)
	assert.Equal(t, pod.Spec.EphemeralContainers[0].Env, got[3].Container.Env, "the ephemeral container is converted")
	assert.Nil(t, configgen.PodContainers(nil))
}

func TestMakePodEnvironmentVariables(t *testing.T) {
	pod := wholePod()
	got, warnings, err := configgen.MakePodEnvironmentVariables(context.Background(), wholePodInput(pod))
	require.NoError(t, err)
	want := map[string][]v1.EnvVar{
		"migrate": {{Name: "POD", Value: "web-0"}, {Name: "LEVEL", Value: "debug"}},
		"proxy":   {{Name: "POD", Value: "web-0"}, {Name: "TOKEN", Value: "s3cr3t"}},
		"app":     {{Name: "POD", Value: "web-0"}},
		"debug":   {{Name: "POD", Value: "web-0"}},
	}
	require.Len(t, got, 4)
	for _, ce := range got {
		assert.Equal(t, want[ce.Container.Name], ce.Env, ce.Container.Name)
	}
	assert.Equal(t, configgen.ContainerKindSidecar, got[1].Kind)
	assert.Equal(t, []configgen.Warning{{Reason: configgen.ReasonOptionalConfigMapNotFound, Container: "app",
		Message: `skipping optional envvar "OPT": configmap "absent" not found`}}, warnings, "warnings name their container")
}

// countingServices counts the lister's calls.
type countingServices struct {
	*serviceStore
	calls int
}

func (c *countingServices) ListServices(ctx context.Context, ns string) ([]*v1.Service, error) {
	c.calls++
	return c.serviceStore.ListServices(ctx, ns)
}

func TestMakePodEnvironmentVariablesServices(t *testing.T) {
	pod := wholePod()
	pod.Spec.EnableServiceLinks = ptr.To(true)
	store := &countingServices{serviceStore: services(
		svc("default", "kubernetes", "10.96.0.1", v1.ServicePort{Name: "https", Port: 443, Protocol: v1.ProtocolTCP}),
		svc("ns", "db", "10.96.0.7", v1.ServicePort{Port: 5432, Protocol: v1.ProtocolTCP}),
	)}
	in := wholePodInput(pod)
	in.Services = store
	got, _, err := configgen.MakePodEnvironmentVariables(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, 2, store.calls, "each namespace is listed once for the whole pod")
	for _, ce := range got {
		names := map[string]string{}
		for _, e := range ce.Env {
			names[e.Name] = e.Value
		}
		assert.Equal(t, "10.96.0.7", names["DB_SERVICE_HOST"], ce.Container.Name)
		assert.Equal(t, "10.96.0.1", names["KUBERNETES_SERVICE_HOST"], ce.Container.Name)
	}

	// A container that redefines a service variable changes only its own environment.
	pod.Spec.InitContainers[0].Env = append(pod.Spec.InitContainers[0].Env, lit("DB_SERVICE_HOST", "override"))
	got, _, err = configgen.MakePodEnvironmentVariables(context.Background(), in)
	require.NoError(t, err)
	for i, ce := range got {
		values := map[string]string{}
		for _, e := range ce.Env {
			values[e.Name] = e.Value
		}
		want := "10.96.0.7"
		if i == 0 {
			want = "override"
		}
		assert.Equal(t, want, values["DB_SERVICE_HOST"], ce.Container.Name)
	}

	store.unsynced = true
	_, _, err = configgen.MakePodEnvironmentVariables(context.Background(), in)
	assert.ErrorIs(t, err, configgen.ErrServicesNotSynced, "the lister's sync state is passed on")
}

func TestMakePodEnvironmentVariablesError(t *testing.T) {
	pod := wholePod()
	in := wholePodInput(pod)
	in.Secrets = secrets()
	_, _, err := configgen.MakePodEnvironmentVariables(context.Background(), in)
	require.EqualError(t, err, `secrets "creds" not found`)
	var e *configgen.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "proxy", e.Container, "the error names the failing container")
	assert.Equal(t, configgen.ReasonMandatorySecretNotFound, e.Reason)
	assert.ErrorIs(t, err, configgen.ErrDependencyFailed)

	_, _, err = configgen.MakePodEnvironmentVariables(context.Background(), configgen.PodEnvInput{})
	assert.ErrorIs(t, err, configgen.ErrInvalidPod)
}

// A provider resolves env before the pod has an IP: the zero policy is kubelet's behaviour in both
// calls; UnknownIPsFail fails (retry later); with UnknownIPsEmpty the variables are empty with a
// warning.
func TestUnknownIPPolicy(t *testing.T) {
	noAddress := staticNode(&v1.Node{})
	tests := []struct {
		name         string
		path         string
		policy       configgen.UnknownIPPolicy
		wholePod     bool
		want         string
		wantErr      string
		wantReasons  []string
		wantCategory error
	}{
		{name: "whole pod, as kubelet (the zero value, as for one container): status.podIP is empty, silently", path: "status.podIP", wholePod: true, want: ""},
		{name: "whole pod, as kubelet: status.hostIP with a node without address fails as kubelet", path: "status.hostIP", wholePod: true,
			wantErr: "host IP unknown; known addresses: []", wantCategory: configgen.ErrDependencyFailed},
		{name: "whole pod, fail: status.podIP before the IP is known fails, retry", path: "status.podIP", wholePod: true, policy: configgen.UnknownIPsFail,
			wantErr: `pod ns/web-0 container "app": status.podIP is not known yet: the pod has no IP`, wantCategory: configgen.ErrDependencyFailed},
		{name: "whole pod, fail: status.podIPs fails too", path: "status.podIPs", wholePod: true, policy: configgen.UnknownIPsFail,
			wantErr: `pod ns/web-0 container "app": status.podIPs is not known yet: the pod has no IP`, wantCategory: configgen.ErrDependencyFailed},
		{name: "whole pod, empty: status.podIP is empty with a warning", path: "status.podIP", wholePod: true, policy: configgen.UnknownIPsEmpty,
			want: "", wantReasons: []string{configgen.ReasonPodIPNotKnown}},
		{name: "whole pod, empty: status.hostIPs is empty with a warning", path: "status.hostIPs", wholePod: true, policy: configgen.UnknownIPsEmpty,
			want: "", wantReasons: []string{configgen.ReasonHostIPNotKnown}},
		{name: "one container, as kubelet: status.podIP is empty, silently", path: "status.podIP", want: ""},
		{name: "one container, as kubelet: status.hostIP fails", path: "status.hostIP",
			wantErr: "host IP unknown; known addresses: []", wantCategory: configgen.ErrDependencyFailed},
		{name: "one container, fail: status.podIP fails", path: "status.podIP", policy: configgen.UnknownIPsFail,
			wantErr: `pod ns/web-0 container "app": status.podIP is not known yet: the pod has no IP`, wantCategory: configgen.ErrDependencyFailed},
		{name: "one container, empty: status.podIPs is empty with a warning", path: "status.podIPs", policy: configgen.UnknownIPsEmpty,
			want: "", wantReasons: []string{configgen.ReasonPodIPNotKnown}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := testPod(fieldEnv("V", tt.path))
			pod.Spec.EnableServiceLinks = ptr.To(false)
			in := envInput(pod)
			in.Node = noAddress
			in.UnknownIPs = tt.policy
			var value string
			var warnings []configgen.Warning
			var err error
			if tt.wholePod {
				var got []configgen.ContainerEnv
				got, warnings, err = configgen.MakePodEnvironmentVariables(context.Background(), podInput(in))
				if err == nil {
					require.Len(t, got, 1)
					require.Len(t, got[0].Env, 1)
					value = got[0].Env[0].Value
				}
			} else {
				var got []configgen.EnvVar
				got, warnings, err = configgen.MakeEnvironmentVariables(context.Background(), in)
				if err == nil {
					require.Len(t, got, 1)
					value = got[0].Value
				}
			}
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				assert.ErrorIs(t, err, configgen.ErrIPNotKnown)
				assert.ErrorIs(t, err, tt.wantCategory)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, value)
			assert.Equal(t, tt.wantReasons, reasons(warnings))
		})
	}
	t.Run("a known IP is used whatever the policy", func(t *testing.T) {
		pod := testPod(fieldEnv("V", "status.podIP"))
		pod.Spec.EnableServiceLinks = ptr.To(false)
		in := podInput(envInput(pod))
		in.PodIPs = []string{"10.244.0.9"}
		got, warnings, err := configgen.MakePodEnvironmentVariables(context.Background(), in)
		require.NoError(t, err)
		assert.Equal(t, []v1.EnvVar{{Name: "V", Value: "10.244.0.9"}}, got[0].Env)
		assert.Empty(t, warnings)
	})
}

func TestMakePodVolumeMounts(t *testing.T) {
	pod := wholePod()
	envs, _, err := configgen.MakePodEnvironmentVariables(context.Background(), wholePodInput(pod))
	require.NoError(t, err)
	got, err := configgen.MakePodVolumeMounts(pod, envs, true)
	require.NoError(t, err)
	require.Len(t, got, 4)
	assert.Nil(t, got[0].Mounts)
	assert.Equal(t, []mounts.VolumeMount{{Volume: "cfg", MountPath: "/etc/proxy", ReadOnly: true,
		Propagation: runtimeapi.MountPropagation_PROPAGATION_PRIVATE}}, got[1].Mounts, "a configMap volume is always read-only")
	assert.Equal(t, []mounts.VolumeMount{{Volume: "data", MountPath: "/data", SubPath: "web-0/logs", ReadOnly: true, RecursiveReadOnly: true,
		Propagation: runtimeapi.MountPropagation_PROPAGATION_PRIVATE}}, got[2].Mounts, "subPathExpr expands against the container's env")

	pod.Spec.Containers[0].VolumeMounts[0].SubPathExpr = "$(NOPE)"
	_, err = configgen.MakePodVolumeMounts(pod, envs, true)
	require.EqualError(t, err, "missing value for NOPE")
	var e *configgen.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "app", e.Container)
	assert.ErrorIs(t, err, configgen.ErrInvalidPod)
}

// podInput is in for the whole pod.
func podInput(in configgen.EnvInput) configgen.PodEnvInput {
	return configgen.PodEnvInput{
		Pod: in.Pod, PodIPs: in.PodIPs, NodeIPs: in.NodeIPs, Volumes: in.Volumes,
		ConfigMaps: in.ConfigMaps, Secrets: in.Secrets, Services: in.Services, Node: in.Node, Files: in.Files,
		FeatureGates: in.FeatureGates, UnknownIPs: in.UnknownIPs, ExpansionLimits: in.ExpansionLimits,
		ServiceEnvCache: in.ServiceEnvCache,
	}
}
