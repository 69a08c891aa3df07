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

// The scenarios of virtual-kubelet's pod environment tests (internal/podutils), run through
// MakePodEnvironmentVariables where podconfig's semantics agree with virtual-kubelet's: the
// values, and the event reasons as warnings or as the error's Reason.
//
// Where kubelet's semantics win, podconfig follows kubelet and these scenarios differ:
//   - envFrom keys that are not C identifiers (virtual-kubelet skips them with an
//     InvalidEnvironmentVariableNames event): kept, as kubelet keeps them since
//     RelaxedEnvironmentVariableValidation went GA; no event.
//   - a getter failing with an error other than NotFound for an optional reference
//     (virtual-kubelet skips it with FailedToReadOptional...): the call fails, as kubelet's,
//     with that reason.
//   - error texts: kubelet's (`configmaps "x" not found`, `couldn't find key k in ConfigMap ns/x`)
//     instead of virtual-kubelet's ("configmap \"x\" not found", "... doesn't contain the ... key").
//   - enableServiceLinks unset (virtual-kubelet defaults it to true): an error, as kubelet's.
//   - resourceFieldRef (a TODO in virtual-kubelet, the variable left out): resolved as kubelet.
//   - fileKeyRef: resolved as kubelet (virtual-kubelet does not know it).
//   - order: podconfig's documented, stable order (virtual-kubelet's comes from a Go map).
func TestVirtualKubeletEnvScenarios(t *testing.T) {
	const ns = "foo"
	cm1 := cm(ns, "configmap-1", map[string]string{"FOO": "__foo__"})
	cm2 := cm(ns, "configmap-2", map[string]string{"BAR": "__bar__"})
	cm3 := cm(ns, "configmap-3", map[string]string{"FOO": "__foo__", "BAR": "__bar__"})
	s1 := secret(ns, "secret-1", map[string]string{"BAZ": "__baz__"})
	s2 := secret(ns, "secret-2", map[string]string{"FOO": "__foo__"})
	objects := func(in *configgen.EnvInput) {
		in.ConfigMaps = configMaps(cm1, cm2, cm3)
		in.Secrets = secrets(s1, s2)
	}
	mandatoryCM := func(env, name, key string) v1.EnvVar {
		return v1.EnvVar{Name: env, ValueFrom: &v1.EnvVarSource{ConfigMapKeyRef: &v1.ConfigMapKeySelector{
			LocalObjectReference: v1.LocalObjectReference{Name: name}, Key: key}}} // Optional nil: mandatory
	}
	mandatorySecret := func(env, name, key string) v1.EnvVar {
		return v1.EnvVar{Name: env, ValueFrom: &v1.EnvVarSource{SecretKeyRef: &v1.SecretKeySelector{
			LocalObjectReference: v1.LocalObjectReference{Name: name}, Key: key, Optional: ptr.To(false)}}}
	}
	pod := func(init, regular []v1.Container) *v1.Pod {
		return &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "pod-0",
				Labels:      map[string]string{"zone": "us-est-coast", "cluster": "test-cluster1", "rack": "rack-22"},
				Annotations: map[string]string{"build": "two", "builder": "john-doe"}},
			Spec: v1.PodSpec{EnableServiceLinks: ptr.To(false), NodeName: "namenode", ServiceAccountName: "serviceaccount",
				InitContainers: init, Containers: regular},
		}
	}
	tests := []struct {
		name         string
		pod          *v1.Pod
		setup        func(in *configgen.EnvInput)
		want         map[string][]v1.EnvVar
		wantWarnings []string
		wantErr      string
		wantReason   string
	}{
		{
			name: "init and regular containers with values, configMapKeyRef (optional nil) and secretKeyRef",
			pod: pod(
				[]v1.Container{
					{Name: "i0", Env: []v1.EnvVar{lit("FOO", "foo_value"), mandatoryCM("BAR", "configmap-1", "FOO")}},
					{Name: "i1", Env: []v1.EnvVar{lit("FOO", "foo_value"), mandatorySecret("BAR", "secret-1", "BAZ")}},
				},
				[]v1.Container{
					{Name: "c0", Env: []v1.EnvVar{lit("FOO", "foo_value"), mandatoryCM("BAR", "configmap-1", "FOO")}},
					{Name: "c1", Env: []v1.EnvVar{lit("FOO", "foo_value"), mandatorySecret("BAR", "secret-1", "BAZ")}},
				}),
			setup: objects,
			want: map[string][]v1.EnvVar{
				"i0": {{Name: "FOO", Value: "foo_value"}, {Name: "BAR", Value: "__foo__"}},
				"i1": {{Name: "FOO", Value: "foo_value"}, {Name: "BAR", Value: "__baz__"}},
				"c0": {{Name: "FOO", Value: "foo_value"}, {Name: "BAR", Value: "__foo__"}},
				"c1": {{Name: "FOO", Value: "foo_value"}, {Name: "BAR", Value: "__baz__"}},
			},
		},
		{
			name: "fieldRef to spec.nodeName, metadata.labels, metadata.annotations, spec.serviceAccountName",
			pod: pod(
				[]v1.Container{{Name: "i0", Env: []v1.EnvVar{fieldEnv("FOO", "spec.nodeName"), fieldEnv("BAR", "metadata.labels"),
					fieldEnv("CHO", "metadata.annotations"), fieldEnv("CAR", "spec.serviceAccountName")}}},
				[]v1.Container{{Name: "c0", Env: []v1.EnvVar{fieldEnv("FOO", "spec.nodeName"), fieldEnv("BAR", "metadata.labels"),
					fieldEnv("CHO", "metadata.annotations"), fieldEnv("CAR", "spec.serviceAccountName")}}}),
			want: map[string][]v1.EnvVar{
				"i0": {{Name: "FOO", Value: "namenode"}, {Name: "BAR", Value: "cluster=\"test-cluster1\"\nrack=\"rack-22\"\nzone=\"us-est-coast\""},
					{Name: "CHO", Value: "build=\"two\"\nbuilder=\"john-doe\""}, {Name: "CAR", Value: "serviceaccount"}},
				"c0": {{Name: "FOO", Value: "namenode"}, {Name: "BAR", Value: "cluster=\"test-cluster1\"\nrack=\"rack-22\"\nzone=\"us-est-coast\""},
					{Name: "CHO", Value: "build=\"two\"\nbuilder=\"john-doe\""}, {Name: "CAR", Value: "serviceaccount"}},
			},
		},
		{
			name: "envFrom with a prefix, per container",
			pod: pod(
				[]v1.Container{
					{Name: "i0", EnvFrom: []v1.EnvFromSource{fromConfigMap("configmap-1", "FROM_CONFIGMAP_1_", false)}},
					{Name: "i1", EnvFrom: []v1.EnvFromSource{fromConfigMap("configmap-2", "FROM_CONFIGMAP_2_", false)}},
				},
				[]v1.Container{
					{Name: "c0", EnvFrom: []v1.EnvFromSource{fromSecret("secret-1", "FROM_SECRET_1_", false)}},
					{Name: "c1", EnvFrom: []v1.EnvFromSource{fromSecret("secret-2", "FROM_SECRET_2_", false)}},
				}),
			setup: objects,
			want: map[string][]v1.EnvVar{
				"i0": {{Name: "FROM_CONFIGMAP_1_FOO", Value: "__foo__"}},
				"i1": {{Name: "FROM_CONFIGMAP_2_BAR", Value: "__bar__"}},
				"c0": {{Name: "FROM_SECRET_1_BAZ", Value: "__baz__"}},
				"c1": {{Name: "FROM_SECRET_2_FOO", Value: "__foo__"}},
			},
		},
		{
			name: "envFrom two ConfigMaps and a Secret: no events",
			pod: pod(nil, []v1.Container{{Name: "c0", EnvFrom: []v1.EnvFromSource{
				fromConfigMap("configmap-1", "FROM_CONFIGMAP_1_", false), fromConfigMap("configmap-2", "FROM_CONFIGMAP_2_", false),
				fromSecret("secret-1", "FROM_SECRET_1_", false)}}}),
			setup: objects,
			want: map[string][]v1.EnvVar{"c0": {{Name: "FROM_CONFIGMAP_1_FOO", Value: "__foo__"},
				{Name: "FROM_CONFIGMAP_2_BAR", Value: "__bar__"}, {Name: "FROM_SECRET_1_BAZ", Value: "__baz__"}}},
		},
		{
			name: "env overrides envFrom: no events",
			pod: pod(nil, []v1.Container{{Name: "c0", EnvFrom: []v1.EnvFromSource{fromConfigMap("configmap-3", "", false)},
				Env: []v1.EnvVar{lit("FOO", "__override__")}}}),
			setup: objects,
			want:  map[string][]v1.EnvVar{"c0": {{Name: "BAR", Value: "__bar__"}, {Name: "FOO", Value: "__override__"}}},
		},
		{
			name: "envFrom a missing optional ConfigMap (OptionalConfigMapNotFound) and a missing mandatory one (MandatoryConfigMapNotFound)",
			pod: pod(nil, []v1.Container{{Name: "c0", EnvFrom: []v1.EnvFromSource{
				fromConfigMap("missing-config-map-1", "", true), fromConfigMap("missing-config-map-2", "", false)}}}),
			setup:        objects,
			wantWarnings: []string{configgen.ReasonOptionalConfigMapNotFound},
			wantErr:      `configmaps "missing-config-map-2" not found`, wantReason: configgen.ReasonMandatoryConfigMapNotFound,
		},
		{
			name: "envFrom a missing optional Secret (OptionalSecretNotFound) and a missing mandatory one (MandatorySecretNotFound)",
			pod: pod(nil, []v1.Container{{Name: "c0", EnvFrom: []v1.EnvFromSource{
				fromSecret("missing-secret-1", "", true), fromSecret("missing-secret-2", "", false)}}}),
			setup:        objects,
			wantWarnings: []string{configgen.ReasonOptionalSecretNotFound},
			wantErr:      `secrets "missing-secret-2" not found`, wantReason: configgen.ReasonMandatorySecretNotFound,
		},
		{
			name:    "a key of a missing ConfigMap, optional nil: MandatoryConfigMapNotFound",
			pod:     pod(nil, []v1.Container{{Name: "c0", Env: []v1.EnvVar{mandatoryCM("envvar", "missing-config-map", "key")}}}),
			setup:   objects,
			wantErr: `configmaps "missing-config-map" not found`, wantReason: configgen.ReasonMandatoryConfigMapNotFound,
		},
		{
			name:    "a key of a missing Secret: MandatorySecretNotFound",
			pod:     pod(nil, []v1.Container{{Name: "c0", Env: []v1.EnvVar{mandatorySecret("envvar", "missing-secret", "key")}}}),
			setup:   objects,
			wantErr: `secrets "missing-secret" not found`, wantReason: configgen.ReasonMandatorySecretNotFound,
		},
		{
			name:    "a missing key of an existing ConfigMap: MandatoryConfigMapKeyNotFound",
			pod:     pod(nil, []v1.Container{{Name: "c0", Env: []v1.EnvVar{mandatoryCM("envvar", "configmap-1", "NOPE")}}}),
			setup:   objects,
			wantErr: "couldn't find key NOPE in ConfigMap foo/configmap-1", wantReason: configgen.ReasonMandatoryConfigMapKeyNotFound,
		},
		{
			name:    "a missing key of an existing Secret: MandatorySecretKeyNotFound",
			pod:     pod(nil, []v1.Container{{Name: "c0", Env: []v1.EnvVar{mandatorySecret("envvar", "secret-1", "NOPE")}}}),
			setup:   objects,
			wantErr: "couldn't find key NOPE in Secret foo/secret-1", wantReason: configgen.ReasonMandatorySecretKeyNotFound,
		},
		{
			name: "an optional key missing from existing objects: OptionalConfigMapKeyNotFound, OptionalSecretKeyNotFound",
			pod: pod(nil, []v1.Container{{Name: "c0", Env: []v1.EnvVar{
				cmKey("A", "configmap-1", "NOPE", true), secretKey("B", "secret-1", "NOPE", true)}}}),
			setup:        objects,
			want:         map[string][]v1.EnvVar{"c0": nil},
			wantWarnings: []string{configgen.ReasonOptionalConfigMapKeyNotFound, configgen.ReasonOptionalSecretKeyNotFound},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := configgen.EnvInput{Pod: tt.pod}
			if tt.setup != nil {
				tt.setup(&in)
			}
			got, warnings, err := configgen.MakePodEnvironmentVariables(context.Background(), podInput(in))
			assert.Equal(t, tt.wantWarnings, reasons(warnings), "warnings: %v", warnings)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				var e *configgen.Error
				require.ErrorAs(t, err, &e)
				assert.Equal(t, tt.wantReason, e.Reason)
				return
			}
			require.NoError(t, err)
			gotByName := map[string][]v1.EnvVar{}
			for _, ce := range got {
				gotByName[ce.Container.Name] = ce.Env
			}
			assert.Equal(t, tt.want, gotByName)
		})
	}
}

// Virtual-kubelet's service-link scenario: the kubernetes Service always, the pod's namespace's
// Services only with enableServiceLinks, never another namespace's.
func TestVirtualKubeletServiceScenario(t *testing.T) {
	store := services(
		svc("default", "kubernetes", "1.2.3.1", port("", 8081, v1.ProtocolTCP)),
		svc("foo", "test", "1.2.3.3", port("", 8083, v1.ProtocolTCP)),
		svc("namespace-02", "unused", "1.2.3.4", port("", 8084, v1.ProtocolTCP)),
	)
	kubernetes := []v1.EnvVar{
		{Name: "FOO", Value: "foo_value"},
		{Name: "KUBERNETES_PORT", Value: "tcp://1.2.3.1:8081"},
		{Name: "KUBERNETES_PORT_8081_TCP", Value: "tcp://1.2.3.1:8081"},
		{Name: "KUBERNETES_PORT_8081_TCP_ADDR", Value: "1.2.3.1"},
		{Name: "KUBERNETES_PORT_8081_TCP_PORT", Value: "8081"},
		{Name: "KUBERNETES_PORT_8081_TCP_PROTO", Value: "tcp"},
		{Name: "KUBERNETES_SERVICE_HOST", Value: "1.2.3.1"},
		{Name: "KUBERNETES_SERVICE_PORT", Value: "8081"},
	}
	test := []v1.EnvVar{
		{Name: "TEST_PORT", Value: "tcp://1.2.3.3:8083"},
		{Name: "TEST_PORT_8083_TCP", Value: "tcp://1.2.3.3:8083"},
		{Name: "TEST_PORT_8083_TCP_ADDR", Value: "1.2.3.3"},
		{Name: "TEST_PORT_8083_TCP_PORT", Value: "8083"},
		{Name: "TEST_PORT_8083_TCP_PROTO", Value: "tcp"},
		{Name: "TEST_SERVICE_HOST", Value: "1.2.3.3"},
		{Name: "TEST_SERVICE_PORT", Value: "8083"},
	}
	for _, tt := range []struct {
		name  string
		links bool
		want  []v1.EnvVar
	}{
		{"service links disabled: the kubernetes Service only", false, kubernetes},
		{"service links enabled: the pod's namespace's Services too", true, append(append([]v1.EnvVar(nil), kubernetes...), test...)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "foo", Name: "test-pod-name"},
				Spec: v1.PodSpec{EnableServiceLinks: ptr.To(tt.links), Containers: []v1.Container{{Name: "c", Env: []v1.EnvVar{lit("FOO", "foo_value")}}}}}
			got, _, err := configgen.MakePodEnvironmentVariables(context.Background(), configgen.PodEnvInput{Pod: p, Services: store})
			require.NoError(t, err)
			assert.ElementsMatch(t, tt.want, got[0].Env)
		})
	}
}
