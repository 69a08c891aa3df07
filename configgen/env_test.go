package configgen_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
)

type envCase struct {
	name         string
	pod          *v1.Pod
	setup        func(in *configgen.EnvInput)
	want         []configgen.EnvVar
	wantErr      string
	wantIs       []error
	wantWarnings []configgen.Warning
}

func runEnvCases(t *testing.T, cases []envCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := envInput(tc.pod)
			if tc.setup != nil {
				tc.setup(&in)
			}
			got, warnings, err := configgen.MakeEnvironmentVariables(context.Background(), in)
			assert.Equal(t, tc.wantWarnings, warnings, "warnings")
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				for _, target := range tc.wantIs {
					assert.ErrorIs(t, err, target)
				}
				assert.Nil(t, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func withEnvFrom(pod *v1.Pod, from ...v1.EnvFromSource) *v1.Pod {
	pod.Spec.Containers[0].EnvFrom = from
	return pod
}

func TestMakeEnvironmentVariablesValidation(t *testing.T) {
	nilLinks := testPod(lit("A", "a"))
	nilLinks.Spec.EnableServiceLinks = nil
	static := testPod(lit("A", "a"))
	static.Annotations["kubernetes.io/config.source"] = "file"
	fromAPI := testPod(lit("A", "a"))
	fromAPI.Annotations["kubernetes.io/config.source"] = "api"
	unsynced := func(in *configgen.EnvInput) { in.Services = &serviceStore{unsynced: true} }

	runEnvCases(t, []envCase{
		{
			name:    "nil enableServiceLinks is an error",
			pod:     nilLinks,
			wantErr: "nil pod.spec.enableServiceLinks encountered, cannot construct envvars",
			wantIs:  []error{configgen.ErrServiceLinksUnset},
		},
		{
			name:    "nil enableServiceLinks is an error even without a service source",
			pod:     nilLinks,
			setup:   func(in *configgen.EnvInput) { in.Services = nil },
			wantErr: "nil pod.spec.enableServiceLinks encountered, cannot construct envvars",
		},
		{
			name:    "API pod fails while the service source has not synced",
			pod:     testPod(lit("A", "a")),
			setup:   unsynced,
			wantErr: "services have not yet been read at least once, cannot construct envvars",
			wantIs:  []error{configgen.ErrServicesNotSynced},
		},
		{
			name:    "config.source api counts as an API pod",
			pod:     fromAPI,
			setup:   unsynced,
			wantErr: "services have not yet been read at least once, cannot construct envvars",
		},
		{
			name:  "static pod does not wait for services",
			pod:   static,
			setup: unsynced,
			want:  vars("A", "a"),
		},
		{
			name:    "service list error",
			pod:     testPod(lit("A", "a")),
			setup:   func(in *configgen.EnvInput) { in.Services = &serviceStore{err: errBoom} },
			wantErr: "failed to list services when setting up env vars",
			wantIs:  []error{configgen.ErrServiceList, errBoom},
		},
		{
			name:    "nil pod is an error",
			pod:     testPod(),
			setup:   func(in *configgen.EnvInput) { in.Pod = nil },
			wantErr: "invalid input, pod and container cannot be nil",
			wantIs:  []error{configgen.ErrInvalidPod},
		},
		{
			name:    "nil container is an error",
			pod:     testPod(),
			setup:   func(in *configgen.EnvInput) { in.Container = nil },
			wantErr: "invalid input, pod and container cannot be nil",
		},
		{
			name: "no variables at all gives nil, as kubelet's does",
			pod:  testPod(),
			want: nil,
		},
	})
}

func TestMakeEnvironmentVariablesEnvFrom(t *testing.T) {
	store := func(in *configgen.EnvInput) {
		in.ConfigMaps = configMaps(
			cm("ns", "one", map[string]string{"B": "b1", "A": "a1", "1-not.a-name": "x"}),
			cm("ns", "two", map[string]string{"A": "a2", "C": "c2"}),
			cm("other", "elsewhere", map[string]string{"X": "x"}),
		)
		in.Secrets = secrets(secret("ns", "creds", map[string]string{"PASS": "p\x00\xffw", "USER": "u"}))
	}
	binary := cm("ns", "bin", map[string]string{"TEXT": "t"})
	binary.BinaryData = map[string][]byte{"BLOB": {1, 2}}

	runEnvCases(t, []envCase{
		{
			name:  "configMap keys come sorted and are not validated",
			pod:   withEnvFrom(testPod(), fromConfigMap("one", "", false)),
			setup: store,
			want:  vars("1-not.a-name", "x", "A", "a1", "B", "b1"),
		},
		{
			name:  "prefix is prepended to every key",
			pod:   withEnvFrom(testPod(), fromConfigMap("two", "P_", false)),
			setup: store,
			want:  vars("P_A", "a2", "P_C", "c2"),
		},
		{
			name:  "later source overwrites an earlier one and keeps its position",
			pod:   withEnvFrom(testPod(), fromConfigMap("one", "", false), fromConfigMap("two", "", false)),
			setup: store,
			want:  vars("1-not.a-name", "x", "A", "a2", "B", "b1", "C", "c2"),
		},
		{
			name: "binaryData is ignored",
			pod:  withEnvFrom(testPod(), fromConfigMap("bin", "", false)),
			setup: func(in *configgen.EnvInput) {
				in.ConfigMaps = configMaps(binary)
			},
			want: vars("TEXT", "t"),
		},
		{
			name:  "secret values are passed as raw bytes",
			pod:   withEnvFrom(testPod(), fromSecret("creds", "S_", false)),
			setup: store,
			want:  vars("S_PASS", "p\x00\xffw", "S_USER", "u"),
		},
		{
			name:  "missing optional configMap is skipped with an OptionalConfigMapNotFound warning",
			pod:   withEnvFrom(testPod(), fromConfigMap("nope", "", true), fromConfigMap("two", "", false)),
			setup: store,
			want:  vars("A", "a2", "C", "c2"),
			wantWarnings: []configgen.Warning{{Reason: configgen.ReasonOptionalConfigMapNotFound, Container: "app",
				Message: `configmap "nope" not found`}},
		},
		{
			name:  "missing optional secret is skipped with an OptionalSecretNotFound warning",
			pod:   withEnvFrom(testPod(), fromSecret("nope", "", true)),
			setup: store,
			want:  nil,
			wantWarnings: []configgen.Warning{{Reason: configgen.ReasonOptionalSecretNotFound, Container: "app",
				Message: `secret "nope" not found`}},
		},
		{
			name:    "missing configMap returns the getter's error",
			pod:     withEnvFrom(testPod(), fromConfigMap("nope", "", false)),
			setup:   store,
			wantErr: `configmaps "nope" not found`,
		},
		{
			name:    "missing secret returns the getter's error",
			pod:     withEnvFrom(testPod(), fromSecret("nope", "", false)),
			setup:   store,
			wantErr: `secrets "nope" not found`,
		},
		{
			name:    "configMap of another namespace is not visible",
			pod:     withEnvFrom(testPod(), fromConfigMap("elsewhere", "", false)),
			setup:   store,
			wantErr: `configmaps "elsewhere" not found`,
		},
		{
			name: "other getter errors fail even for optional sources",
			pod:  withEnvFrom(testPod(), fromConfigMap("one", "", true)),
			setup: func(in *configgen.EnvInput) {
				in.ConfigMaps = configgen.ConfigMapGetterFunc(func(context.Context, string, string) (*v1.ConfigMap, error) {
					return nil, apierrors.NewForbidden(v1.Resource("configmaps"), "one", errBoom)
				})
			},
			wantErr: `configmaps "one" is forbidden: boom`,
		},
		{
			name:    "configMap without a getter fails like kubelet without a kubeClient",
			pod:     withEnvFrom(testPod(), fromConfigMap("one", "", true)),
			wantErr: "couldn't get configMap ns/one, no kubeClient defined",
			wantIs:  []error{configgen.ErrInvalidOptions},
		},
		{
			name:    "secret without a getter fails like kubelet without a kubeClient",
			pod:     withEnvFrom(testPod(), fromSecret("creds", "", true)),
			wantErr: "couldn't get secret ns/creds, no kubeClient defined",
			wantIs:  []error{configgen.ErrInvalidOptions},
		},
		{
			name:  "envFrom entry with neither reference is ignored",
			pod:   withEnvFrom(testPod(), v1.EnvFromSource{Prefix: "X_"}),
			setup: store,
			want:  nil,
		},
		{
			name: "getter returning nothing is an error naming pod and container",
			pod:  withEnvFrom(testPod(), fromConfigMap("one", "", false)),
			setup: func(in *configgen.EnvInput) {
				in.ConfigMaps = configgen.ConfigMapGetterFunc(func(context.Context, string, string) (*v1.ConfigMap, error) { return nil, nil })
			},
			wantErr: `pod ns/web-0 container "app": ConfigMap ns/one: the getter returned neither an object nor an error`,
			wantIs:  []error{configgen.ErrInvalidOptions},
		},
	})
}

func TestMakeEnvironmentVariablesEnv(t *testing.T) {
	store := func(in *configgen.EnvInput) {
		in.ConfigMaps = configMaps(cm("ns", "cfg", map[string]string{"LEVEL": "debug", "FROM": "cm"}))
		in.Secrets = secrets(secret("ns", "creds", map[string]string{"TOKEN": "t0k\xff"}))
		in.Services = services(kubernetesService(), svc("ns", "db", "10.0.0.9", port("", 5432, "")))
	}
	svcVars := func(extra ...configgen.EnvVar) []configgen.EnvVar {
		db := vars(
			"DB_PORT", "tcp://10.0.0.9:5432",
			"DB_PORT_5432_TCP", "tcp://10.0.0.9:5432",
			"DB_PORT_5432_TCP_ADDR", "10.0.0.9",
			"DB_PORT_5432_TCP_PORT", "5432",
			"DB_PORT_5432_TCP_PROTO", "tcp",
			"DB_SERVICE_HOST", "10.0.0.9",
			"DB_SERVICE_PORT", "5432",
		)
		return append(append(extra, db...), kubernetesVars()...)
	}

	runEnvCases(t, []envCase{
		{
			name: "literal values in declaration order",
			pod:  testPod(lit("Z", "1"), lit("A", "2")),
			want: vars("Z", "1", "A", "2"),
		},
		{
			name: "empty value without a source is defined as empty",
			pod:  testPod(v1.EnvVar{Name: "EMPTY"}),
			want: vars("EMPTY", ""),
		},
		{
			name: "value wins over valueFrom",
			pod: testPod(v1.EnvVar{Name: "A", Value: "lit", ValueFrom: &v1.EnvVarSource{
				FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}}),
			want: vars("A", "lit"),
		},
		{
			name: "valueFrom with several sources takes fieldRef first",
			pod: testPod(v1.EnvVar{Name: "A", ValueFrom: &v1.EnvVarSource{
				FieldRef:        &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"},
				ConfigMapKeyRef: &v1.ConfigMapKeySelector{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, Key: "LEVEL"},
			}}),
			want: vars("A", "web-0"),
		},
		{
			name: "valueFrom takes resourceFieldRef before configMapKeyRef and secretKeyRef",
			pod: testPod(v1.EnvVar{Name: "A", ValueFrom: &v1.EnvVarSource{
				ResourceFieldRef: &v1.ResourceFieldSelector{Resource: "limits.cpu", Divisor: resource.MustParse("1m")},
				ConfigMapKeyRef:  &v1.ConfigMapKeySelector{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, Key: "LEVEL"},
				SecretKeyRef:     &v1.SecretKeySelector{LocalObjectReference: v1.LocalObjectReference{Name: "creds"}, Key: "TOKEN"},
			}}),
			want: vars("A", "1500"),
		},
		{
			name: "valueFrom takes configMapKeyRef before secretKeyRef",
			pod: testPod(v1.EnvVar{Name: "A", ValueFrom: &v1.EnvVarSource{
				ConfigMapKeyRef: &v1.ConfigMapKeySelector{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, Key: "LEVEL"},
				SecretKeyRef:    &v1.SecretKeySelector{LocalObjectReference: v1.LocalObjectReference{Name: "creds"}, Key: "TOKEN"},
			}}),
			setup: store,
			want:  svcVars(vars("A", "debug")...),
		},
		{
			name: "valueFrom with no source set gives empty",
			pod:  testPod(v1.EnvVar{Name: "A", ValueFrom: &v1.EnvVarSource{}}),
			want: vars("A", ""),
		},
		{
			name: "later duplicate overwrites and keeps the first position",
			pod:  testPod(lit("A", "1"), lit("B", "2"), lit("A", "3")),
			want: vars("A", "3", "B", "2"),
		},
		{
			name: "env overrides envFrom at the envFrom position",
			pod:  withEnvFrom(testPod(lit("NEW", "n"), lit("LEVEL", "info")), fromConfigMap("cfg", "", false)),
			setup: func(in *configgen.EnvInput) {
				in.ConfigMaps = configMaps(cm("ns", "cfg", map[string]string{"LEVEL": "debug", "FROM": "cm"}))
			},
			want: vars("FROM", "cm", "LEVEL", "info", "NEW", "n"),
		},
		{
			name: "$(VAR) resolves to an earlier env var",
			pod:  testPod(lit("HOST", "db"), lit("URL", "pg://$(HOST):5432")),
			want: vars("HOST", "db", "URL", "pg://db:5432"),
		},
		{
			name: "$(VAR) to a later env var stays literal",
			pod:  testPod(lit("URL", "pg://$(HOST)"), lit("HOST", "db")),
			want: vars("URL", "pg://$(HOST)", "HOST", "db"),
		},
		{
			name:  "$(VAR) resolves to envFrom variables",
			pod:   withEnvFrom(testPod(lit("MSG", "level=$(LEVEL)")), fromConfigMap("cfg", "", false)),
			setup: store,
			want:  svcVars(vars("FROM", "cm", "LEVEL", "debug", "MSG", "level=debug")...),
		},
		{
			name:  "$(VAR) resolves to service variables",
			pod:   testPod(lit("API", "https://$(KUBERNETES_SERVICE_HOST):$(KUBERNETES_SERVICE_PORT)")),
			setup: store,
			want:  svcVars(vars("API", "https://10.96.0.1:443")...),
		},
		{
			name: "$(VAR) sees a redefinition made before it",
			pod:  testPod(lit("A", "x"), lit("A", "$(A)y"), lit("B", "$(A)")),
			want: vars("A", "xy", "B", "xy"),
		},
		{
			name: "undefined references and escapes are kept",
			pod:  testPod(lit("A", "$(NOPE)-$$(A)-$$-$")),
			want: vars("A", "$(NOPE)-$(A)-$-$"),
		},
		{
			name: "a value's byte after $ that is not UTF-8 becomes U+FFFD",
			pod:  testPod(lit("A", "x$\xffy")),
			want: vars("A", "x$\uFFFDy"),
		},
		{
			name: "values from sources are not expanded",
			pod: func() *v1.Pod {
				p := testPod(lit("A", "a"), fieldEnv("L", "metadata.labels['ref']"))
				p.Labels["ref"] = "$(A)"
				return p
			}(),
			want: vars("A", "a", "L", "$(A)"),
		},
		{
			name:  "configMapKeyRef",
			pod:   testPod(cmKey("LVL", "cfg", "LEVEL", false)),
			setup: store,
			want:  svcVars(vars("LVL", "debug")...),
		},
		{
			name:  "secretKeyRef gives the raw bytes",
			pod:   testPod(secretKey("TOKEN", "creds", "TOKEN", false)),
			setup: store,
			want:  svcVars(vars("TOKEN", "t0k\xff")...),
		},
		{
			name:    "missing configMap key is an error",
			pod:     testPod(cmKey("LVL", "cfg", "NOPE", false)),
			setup:   store,
			wantErr: "couldn't find key NOPE in ConfigMap ns/cfg",
			wantIs:  []error{configgen.ErrKeyNotFound},
		},
		{
			name:    "missing secret key is an error",
			pod:     testPod(secretKey("T", "creds", "NOPE", false)),
			setup:   store,
			wantErr: "couldn't find key NOPE in Secret ns/creds",
			wantIs:  []error{configgen.ErrKeyNotFound},
		},
		{
			name:  "missing optional key omits the variable and keeps an earlier definition",
			pod:   testPod(lit("LVL", "keep"), cmKey("LVL", "cfg", "NOPE", true), secretKey("T", "creds", "NOPE", true)),
			setup: store,
			want:  svcVars(vars("LVL", "keep")...),
			wantWarnings: []configgen.Warning{
				{Reason: configgen.ReasonOptionalConfigMapKeyNotFound, Container: "app", Message: `skipping optional envvar "LVL": key "NOPE" does not exist in configmap "cfg"`},
				{Reason: configgen.ReasonOptionalSecretKeyNotFound, Container: "app", Message: `skipping optional envvar "T": key "NOPE" does not exist in secret "creds"`},
			},
		},
		{
			name:  "missing optional configMap or secret omits the variable with a warning each",
			pod:   testPod(cmKey("A", "nope", "K", true), secretKey("B", "nope", "K", true), lit("C", "c")),
			setup: store,
			want:  svcVars(vars("C", "c")...),
			wantWarnings: []configgen.Warning{
				{Reason: configgen.ReasonOptionalConfigMapNotFound, Container: "app", Message: `skipping optional envvar "A": configmap "nope" not found`},
				{Reason: configgen.ReasonOptionalSecretNotFound, Container: "app", Message: `skipping optional envvar "B": secret "nope" not found`},
			},
		},
		{
			name:    "missing configMap for a non-optional key returns the getter's error",
			pod:     testPod(cmKey("A", "nope", "K", false)),
			setup:   store,
			wantErr: `configmaps "nope" not found`,
		},
		{
			name:    "configMapKeyRef without a getter",
			pod:     testPod(cmKey("A", "cfg", "K", true)),
			wantErr: "couldn't get configMap ns/cfg, no kubeClient defined",
		},
		{
			name:    "secretKeyRef without a getter",
			pod:     testPod(secretKey("A", "creds", "K", true)),
			wantErr: "couldn't get secret ns/creds, no kubeClient defined",
		},
		{
			name:  "env var shadows a service variable, which is then not repeated",
			pod:   testPod(lit("KUBERNETES_SERVICE_HOST", "mine")),
			setup: func(in *configgen.EnvInput) { in.Services = services(kubernetesService()) },
			want: append(vars("KUBERNETES_SERVICE_HOST", "mine"), func() []configgen.EnvVar {
				var out []configgen.EnvVar
				for _, e := range kubernetesVars() {
					if e.Name != "KUBERNETES_SERVICE_HOST" {
						out = append(out, e)
					}
				}
				return out
			}()...),
		},
	})
}

func TestMakeEnvironmentVariablesCachesObjects(t *testing.T) {
	calls := map[string]int{}
	pod := withEnvFrom(testPod(cmKey("A", "cfg", "A", false), cmKey("B", "cfg", "B", false),
		cmKey("X", "gone", "X", true), cmKey("Y", "gone", "Y", true)), fromConfigMap("cfg", "", false))
	in := envInput(pod)
	in.ConfigMaps = configgen.ConfigMapGetterFunc(func(_ context.Context, ns, name string) (*v1.ConfigMap, error) {
		calls[name]++
		return configMaps(cm("ns", "cfg", map[string]string{"A": "a", "B": "b"})).GetConfigMap(context.Background(), ns, name)
	})
	got, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, vars("A", "a", "B", "b"), got)
	assert.Equal(t, map[string]int{"cfg": 1, "gone": 2}, calls, "a found object is read once, a missing optional one at every reference")
}

// A pod naming many objects reads each once too, past the few the cache scans for.
func TestMakeEnvironmentVariablesCachesManyObjects(t *testing.T) {
	const objects, refs = 40, 3
	var env []v1.EnvVar
	var want []configgen.EnvVar
	var stored []*v1.ConfigMap
	for i := range objects {
		name := fmt.Sprintf("cfg-%02d", i)
		stored = append(stored, cm("ns", name, map[string]string{"K": "v" + name}))
		for r := range refs {
			v := fmt.Sprintf("V%02d_%d", i, r)
			env = append(env, cmKey(v, name, "K", false))
			want = append(want, configgen.EnvVar{Name: v, Value: "v" + name})
		}
	}
	calls := map[string]int{}
	in := envInput(testPod(env...))
	in.ConfigMaps = configgen.ConfigMapGetterFunc(func(_ context.Context, ns, name string) (*v1.ConfigMap, error) {
		calls[name]++
		return configMaps(stored...).GetConfigMap(context.Background(), ns, name)
	})
	got, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	require.Len(t, calls, objects)
	for name, n := range calls {
		assert.Equal(t, 1, n, "%s is read once", name)
	}
}

func TestMakeEnvironmentVariablesServices(t *testing.T) {
	links := func(on bool, svcs ...*v1.Service) func(*configgen.EnvInput) {
		return func(in *configgen.EnvInput) {
			in.Pod.Spec.EnableServiceLinks = ptr.To(on)
			in.Services = services(svcs...)
		}
	}
	web := svc("ns", "my-web", "10.0.0.2",
		port("http-alt", 8080, ""),
		port("", 53, v1.ProtocolUDP),
	)
	webVars := vars(
		"MY_WEB_PORT", "tcp://10.0.0.2:8080",
		"MY_WEB_PORT_53_UDP", "udp://10.0.0.2:53",
		"MY_WEB_PORT_53_UDP_ADDR", "10.0.0.2",
		"MY_WEB_PORT_53_UDP_PORT", "53",
		"MY_WEB_PORT_53_UDP_PROTO", "udp",
		"MY_WEB_PORT_8080_TCP", "tcp://10.0.0.2:8080",
		"MY_WEB_PORT_8080_TCP_ADDR", "10.0.0.2",
		"MY_WEB_PORT_8080_TCP_PORT", "8080",
		"MY_WEB_PORT_8080_TCP_PROTO", "tcp",
		"MY_WEB_SERVICE_HOST", "10.0.0.2",
		"MY_WEB_SERVICE_PORT", "8080",
		"MY_WEB_SERVICE_PORT_HTTP_ALT", "8080",
	)
	v6 := svc("ns", "v6", "fd00::10", port("", 80, v1.ProtocolSCTP))
	v6Vars := vars(
		"V6_PORT", "sctp://[fd00::10]:80",
		"V6_PORT_80_SCTP", "sctp://[fd00::10]:80",
		"V6_PORT_80_SCTP_ADDR", "fd00::10",
		"V6_PORT_80_SCTP_PORT", "80",
		"V6_PORT_80_SCTP_PROTO", "sctp",
		"V6_SERVICE_HOST", "fd00::10",
		"V6_SERVICE_PORT", "80",
	)
	ownKube := svc("ns", "kubernetes", "10.0.0.1", port("", 6443, ""))
	ownKubeVars := vars(
		"KUBERNETES_PORT", "tcp://10.0.0.1:6443",
		"KUBERNETES_PORT_6443_TCP", "tcp://10.0.0.1:6443",
		"KUBERNETES_PORT_6443_TCP_ADDR", "10.0.0.1",
		"KUBERNETES_PORT_6443_TCP_PORT", "6443",
		"KUBERNETES_PORT_6443_TCP_PROTO", "tcp",
		"KUBERNETES_SERVICE_HOST", "10.0.0.1",
		"KUBERNETES_SERVICE_PORT", "6443",
	)
	defaultPod := func() *v1.Pod {
		p := testPod(lit("A", "a"))
		p.Namespace = "default"
		return p
	}
	cat := func(lists ...[]configgen.EnvVar) []configgen.EnvVar {
		var out []configgen.EnvVar
		for _, l := range lists {
			out = append(out, l...)
		}
		return out
	}

	runEnvCases(t, []envCase{
		{
			name: "no service source gives no service variables at all",
			pod:  testPod(lit("A", "a")),
			want: vars("A", "a"),
		},
		{
			name:  "default/kubernetes is included without service links",
			pod:   testPod(lit("A", "a")),
			setup: links(false, kubernetesService(), web),
			want:  cat(vars("A", "a"), kubernetesVars()),
		},
		{
			name:  "service links add the pod's namespace, sorted by name, after the container's variables",
			pod:   testPod(lit("A", "a")),
			setup: links(true, kubernetesService(), web, svc("other", "far", "10.9.9.9", port("", 1, ""))),
			want:  cat(vars("A", "a"), kubernetesVars(), webVars),
		},
		{
			name: "services without a cluster IP are skipped",
			pod:  testPod(lit("A", "a")),
			setup: links(true, svc("ns", "headless", "None", port("", 80, "")), svc("ns", "noip", "", port("", 80, "")),
				svc("default", "kubernetes", "None", port("", 443, ""))),
			want: vars("A", "a"),
		},
		{
			name:  "IPv6 cluster IP is bracketed in URLs and protocol is lower case in values",
			pod:   testPod(lit("A", "a")),
			setup: links(true, v6),
			want:  cat(vars("A", "a"), v6Vars),
		},
		{
			name:  "the pod's own kubernetes Service overrides the default one with service links",
			pod:   testPod(lit("A", "a")),
			setup: links(true, kubernetesService(), ownKube),
			want:  cat(vars("A", "a"), ownKubeVars),
		},
		{
			name:  "the pod's own kubernetes Service is ignored without service links",
			pod:   testPod(lit("A", "a")),
			setup: links(false, ownKube, kubernetesService()),
			want:  cat(vars("A", "a"), kubernetesVars()),
		},
		{
			name:  "in the default namespace the first kubernetes Service wins",
			pod:   defaultPod(),
			setup: links(true, kubernetesService(), svc("default", "kubernetes", "10.0.0.1", port("", 6443, ""))),
			want:  cat(vars("A", "a"), kubernetesVars()),
		},
		{
			name:  "in the default namespace service links add its other services",
			pod:   defaultPod(),
			setup: links(true, kubernetesService(), svc("default", "my-web", "10.0.0.2", web.Spec.Ports...)),
			want:  cat(vars("A", "a"), kubernetesVars(), webVars),
		},
		{
			name:  "service links off in the default namespace give only kubernetes",
			pod:   defaultPod(),
			setup: links(false, kubernetesService(), svc("default", "my-web", "10.0.0.2", web.Spec.Ports...)),
			want:  cat(vars("A", "a"), kubernetesVars()),
		},
		{
			name:  "service without ports gives a warning and no variables",
			pod:   testPod(lit("A", "a")),
			setup: links(true, svc("ns", "broken", "10.0.0.3")),
			want:  vars("A", "a"),
			wantWarnings: []configgen.Warning{{Reason: configgen.ReasonServiceWithoutPorts, Container: "app",
				Message: "service ns/broken has a cluster IP but no ports: it gives no environment variables"}},
		},
		{
			name: "variable name collisions between services go to the service sorting last",
			pod:  testPod(),
			setup: links(true,
				svc("ns", "foo-port-80-tcp", "10.0.0.5", port("", 1, "")),
				svc("ns", "foo", "10.0.0.4", port("", 80, "")),
			),
			want: vars(
				"FOO_PORT", "tcp://10.0.0.4:80",
				"FOO_PORT_80_TCP", "tcp://10.0.0.4:80",
				"FOO_PORT_80_TCP_ADDR", "10.0.0.4",
				"FOO_PORT_80_TCP_PORT", "tcp://10.0.0.5:1",
				"FOO_PORT_80_TCP_PORT_1_TCP", "tcp://10.0.0.5:1",
				"FOO_PORT_80_TCP_PORT_1_TCP_ADDR", "10.0.0.5",
				"FOO_PORT_80_TCP_PORT_1_TCP_PORT", "1",
				"FOO_PORT_80_TCP_PORT_1_TCP_PROTO", "tcp",
				"FOO_PORT_80_TCP_PROTO", "tcp",
				"FOO_PORT_80_TCP_SERVICE_HOST", "10.0.0.5",
				"FOO_PORT_80_TCP_SERVICE_PORT", "1",
				"FOO_SERVICE_HOST", "10.0.0.4",
				"FOO_SERVICE_PORT", "80",
			),
		},
	})
}

func TestMakeEnvironmentVariablesIsDeterministic(t *testing.T) {
	data := map[string]string{}
	for i := range 50 {
		data[fmt.Sprintf("K%02d", i)] = fmt.Sprint(i)
	}
	pod := withEnvFrom(testPod(lit("Z", "z"), lit("K07", "override")), fromConfigMap("big", "", false))
	in := envInput(pod)
	in.ConfigMaps = configMaps(cm("ns", "big", data))
	in.Services = services(kubernetesService(), svc("ns", "b", "10.0.0.2", port("", 1, "")), svc("ns", "a", "10.0.0.3", port("", 1, "")))
	first, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
	require.NoError(t, err)
	require.Len(t, first, 50+1+2*7+8)
	assert.Equal(t, configgen.EnvVar{Name: "K07", Value: "override"}, first[7])
	assert.Equal(t, configgen.EnvVar{Name: "Z", Value: "z"}, first[50])
	for range 20 {
		again, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
		require.NoError(t, err)
		require.Equal(t, first, again)
	}
}

func TestMakeEnvironmentVariablesConcurrentUse(t *testing.T) {
	in := benchEnvInput(2)
	want, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
	require.NoError(t, err)
	done := make(chan []configgen.EnvVar)
	for range 8 {
		go func() {
			got, _, _ := configgen.MakeEnvironmentVariables(context.Background(), in)
			done <- got
		}()
	}
	for range 8 {
		assert.Equal(t, want, <-done)
	}
}

func TestMakeEnvironmentVariablesOddInputs(t *testing.T) {
	runEnvCases(t, []envCase{
		{
			name: "secret getter returning nothing is an error naming pod and container",
			pod:  testPod(secretKey("A", "creds", "K", false)),
			setup: func(in *configgen.EnvInput) {
				in.Secrets = configgen.SecretGetterFunc(func(context.Context, string, string) (*v1.Secret, error) { return nil, nil })
			},
			wantErr: `pod ns/web-0 container "app": Secret ns/creds: the getter returned neither an object nor an error`,
			wantIs:  []error{configgen.ErrInvalidOptions},
		},
		{
			name: "node getter returning nothing is an error",
			pod:  testPod(fieldEnv("H", "status.hostIP")),
			setup: func(in *configgen.EnvInput) {
				in.Node = configgen.NodeGetterFunc(func(context.Context) (*v1.Node, error) { return nil, nil })
			},
			wantErr: `pod ns/web-0 container "app": the node getter returned neither a node nor an error`,
			wantIs:  []error{configgen.ErrNode},
		},
		{
			name:  "service with an empty name still has its variables shadowed by env",
			pod:   testPod(lit("_SERVICE_HOST", "mine")),
			setup: func(in *configgen.EnvInput) { in.Services = services(svc("ns", "", "10.0.0.7", port("", 1, ""))) },
			want: vars(
				"_SERVICE_HOST", "mine",
				"_PORT", "tcp://10.0.0.7:1", "_PORT_1_TCP", "tcp://10.0.0.7:1", "_PORT_1_TCP_ADDR", "10.0.0.7",
				"_PORT_1_TCP_PORT", "1", "_PORT_1_TCP_PROTO", "tcp", "_SERVICE_PORT", "1",
			),
		},
		{
			name: "protocol outside the API's set is upper-cased in names and lower-cased in values",
			pod:  testPod(),
			setup: func(in *configgen.EnvInput) {
				in.Services = services(svc("ns", "q", "10.0.0.8", port("", 7, "Quic")))
			},
			want: vars(
				"Q_PORT", "quic://10.0.0.8:7", "Q_PORT_7_QUIC", "quic://10.0.0.8:7", "Q_PORT_7_QUIC_ADDR", "10.0.0.8",
				"Q_PORT_7_QUIC_PORT", "7", "Q_PORT_7_QUIC_PROTO", "quic", "Q_SERVICE_HOST", "10.0.0.8", "Q_SERVICE_PORT", "7",
			),
		},
		{
			name: "ports declared out of order still give sorted variables",
			pod:  testPod(),
			setup: func(in *configgen.EnvInput) {
				in.Services = services(svc("ns", "s", "10.0.0.9", port("web", 80, ""), port("admin", 443, "")))
			},
			want: vars(
				"S_PORT", "tcp://10.0.0.9:80",
				"S_PORT_443_TCP", "tcp://10.0.0.9:443", "S_PORT_443_TCP_ADDR", "10.0.0.9", "S_PORT_443_TCP_PORT", "443", "S_PORT_443_TCP_PROTO", "tcp",
				"S_PORT_80_TCP", "tcp://10.0.0.9:80", "S_PORT_80_TCP_ADDR", "10.0.0.9", "S_PORT_80_TCP_PORT", "80", "S_PORT_80_TCP_PROTO", "tcp",
				"S_SERVICE_HOST", "10.0.0.9", "S_SERVICE_PORT", "80", "S_SERVICE_PORT_ADMIN", "443", "S_SERVICE_PORT_WEB", "80",
			),
		},
	})
}

// The strings a call makes (prefixed envFrom names, Secret values, resource amounts, expanded
// values) share one buffer that grows as needed: values much longer than expected, before and
// after short ones, all come out whole.
func TestMakeEnvironmentVariablesMadeStrings(t *testing.T) {
	long := strings.Repeat("s", 1000)
	pod := testPod(
		secretKey("LONG", "db", "long", false),
		secretKey("SHORT", "db", "short", false),
		resourceEnv("MEM", "", "limits.memory", "1"),
		lit("TWICE", "$(LONG)$(LONG)"),
		lit("MIX", "$(P_KEY)-$(SHORT)-$(MEM)"),
		secretKey("LONG_AGAIN", "db", "long", false),
	)
	pod.Spec.Containers[0].EnvFrom = []v1.EnvFromSource{fromSecret("db", "P_", false)}
	pod.Spec.Containers[0].Resources.Limits = v1.ResourceList{v1.ResourceMemory: resource.MustParse("123456789")}
	in := envInput(pod)
	in.Secrets = secrets(secret("ns", "db", map[string]string{"long": long, "short": "x", "key": "k"}))
	got, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, vars(
		"P_key", "k", "P_long", long, "P_short", "x",
		"LONG", long, "SHORT", "x", "MEM", "123456789", "TWICE", long+long, "MIX", "$(P_KEY)-x-123456789", "LONG_AGAIN", long,
	), got)
}
