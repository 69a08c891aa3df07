package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
)

// ctrEnv sets the first container's env.
func ctrEnv(vars ...v1.EnvVar) func(*v1.Pod) {
	return ctrFirst(func(c *v1.Container) { c.Env = vars })
}

// ctrEnvFrom sets the first container's envFrom.
func ctrEnvFrom(sources ...v1.EnvFromSource) func(*v1.Pod) {
	return ctrFirst(func(c *v1.Container) { c.EnvFrom = sources })
}

// ctrConfigMapKey is a configMapKeyRef source of name and key.
func ctrConfigMapKey(name, key string) *v1.EnvVarSource {
	return &v1.EnvVarSource{ConfigMapKeyRef: &v1.ConfigMapKeySelector{LocalObjectReference: v1.LocalObjectReference{Name: name}, Key: key}}
}

const ctrSubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"

func TestContainerEnv(t *testing.T) {
	ctrRun(t, []ctrCase{
		{
			name:   "an env var without a name is refused",
			mutate: ctrEnv(v1.EnvVar{Value: "x"}),
			want:   []string{`spec.containers[0].env[0].name: Required value`},
		},
		{
			name:   "an env var name with '=' is refused",
			mutate: ctrEnv(v1.EnvVar{Name: "A=B"}),
			want:   []string{`spec.containers[0].env[0].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`},
		},
		{
			name:   "an env var name with dots, dashes and a leading digit is accepted (the relaxed rule)",
			mutate: ctrEnv(v1.EnvVar{Name: "1st.var-name"}),
		},
		{
			name:   "a valueFrom with no source is refused",
			mutate: ctrEnv(v1.EnvVar{Name: "A", ValueFrom: &v1.EnvVarSource{}}),
			want:   []string{"spec.containers[0].env[0].valueFrom: Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"},
		},
		{
			name:   "a valueFrom beside a value is refused",
			mutate: ctrEnv(v1.EnvVar{Name: "A", Value: "x", ValueFrom: ctrConfigMapKey("settings", "a")}),
			want:   []string{"spec.containers[0].env[0].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty"},
		},
		{
			name: "a valueFrom with two sources is refused",
			mutate: func(pod *v1.Pod) {
				src := ctrConfigMapKey("settings", "a")
				src.SecretKeyRef = &v1.SecretKeySelector{LocalObjectReference: v1.LocalObjectReference{Name: "creds"}, Key: "a"}
				ctrEnv(v1.EnvVar{Name: "A", ValueFrom: src})(pod)
			},
			want: []string{`spec.containers[0].env[0].valueFrom: Invalid value: "": may not have more than one field specified at a time`},
		},
		{
			name:   "a configMapKeyRef without a name or a key is refused",
			mutate: ctrEnv(v1.EnvVar{Name: "A", ValueFrom: ctrConfigMapKey("", "")}),
			want: []string{
				`spec.containers[0].env[0].valueFrom.configMapKeyRef.name: Invalid value: "": ` + ctrSubdomainMsg,
				`spec.containers[0].env[0].valueFrom.configMapKeyRef.key: Required value`,
			},
		},
		{
			name:   "a configMapKeyRef key a ConfigMap cannot hold is refused",
			mutate: ctrEnv(v1.EnvVar{Name: "A", ValueFrom: ctrConfigMapKey("settings", "a/b")}),
			want:   []string{`spec.containers[0].env[0].valueFrom.configMapKeyRef.key: Invalid value: "a/b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`},
		},
		{
			name: "a secretKeyRef to a name that is not a DNS subdomain is refused",
			mutate: ctrEnv(v1.EnvVar{Name: "A", ValueFrom: &v1.EnvVarSource{
				SecretKeyRef: &v1.SecretKeySelector{LocalObjectReference: v1.LocalObjectReference{Name: "Creds"}, Key: ".."},
			}}),
			want: []string{
				`spec.containers[0].env[0].valueFrom.secretKeyRef.name: Invalid value: "Creds": ` + ctrSubdomainMsg,
				`spec.containers[0].env[0].valueFrom.secretKeyRef.key: Invalid value: "..": must not be '..'`,
			},
		},
		{
			name: "a fileKeyRef with no key and a path with '..' is refused",
			mutate: ctrEnv(v1.EnvVar{Name: "A", ValueFrom: &v1.EnvVarSource{
				FileKeyRef: &v1.FileKeySelector{VolumeName: "config", Path: "../env"},
			}}),
			want: []string{
				`spec.containers[0].env[0].valueFrom.fileKeyRef.key: Required value`,
				`spec.containers[0].env[0].valueFrom.fileKeyRef.path: Invalid value: "../env": must not contain '..'`,
			},
		},
		{
			name: "a fileKeyRef key with '=' and no path is refused",
			mutate: ctrEnv(v1.EnvVar{Name: "A", ValueFrom: &v1.EnvVarSource{
				FileKeyRef: &v1.FileKeySelector{VolumeName: "config", Key: "A=B"},
			}}),
			want: []string{
				`spec.containers[0].env[0].valueFrom.fileKeyRef.key: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`,
				`spec.containers[0].env[0].valueFrom.fileKeyRef.path: Required value`,
			},
		},
	})
}

// TestContainerEnvFileKeyRefVolumeName checks the fileKeyRef volume name's own rules on the
// containers alone: on a whole pod a volume name that is not a DNS label also names no volume,
// which validateFileKeyRefVolumes reports besides.
func TestContainerEnvFileKeyRefVolumeName(t *testing.T) {
	pod := ctrPod()
	pod.Spec.Containers[0].Env = []v1.EnvVar{
		{Name: "A", ValueFrom: &v1.EnvVarSource{FileKeyRef: &v1.FileKeySelector{Key: "A", Path: "env"}}},
		{Name: "B", ValueFrom: &v1.EnvVarSource{FileKeyRef: &v1.FileKeySelector{Key: "B", Path: "env", VolumeName: "Config"}}},
	}
	assert.Equal(t, []string{
		`spec.containers[0].env[0].valueFrom.fileKeyRef.volumeName: Required value`,
		`spec.containers[0].env[1].valueFrom.fileKeyRef.volumeName: Invalid value: "Config": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
	}, ctrTexts(validateContainers(&pod.Spec, nil, nil, ctrSpecPath().Child("containers"))))
}

func TestContainerEnvFrom(t *testing.T) {
	cm := func(name string) *v1.ConfigMapEnvSource {
		return &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: name}}
	}
	ctrRun(t, []ctrCase{
		{
			name:   "an envFrom with neither configMapRef nor secretRef is refused, on the list",
			mutate: ctrEnvFrom(v1.EnvFromSource{Prefix: "APP_"}),
			want:   []string{"spec.containers[0].envFrom: Invalid value: \"\": must specify one of: `configMapRef` or `secretRef`"},
		},
		{
			name: "an envFrom with both configMapRef and secretRef is refused, on the list",
			mutate: ctrEnvFrom(v1.EnvFromSource{
				ConfigMapRef: cm("settings"),
				SecretRef:    &v1.SecretEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "creds"}},
			}),
			want: []string{`spec.containers[0].envFrom: Invalid value: "": may not have more than one field specified at a time`},
		},
		{
			name:   "an envFrom prefix with '=' is refused",
			mutate: ctrEnvFrom(v1.EnvFromSource{Prefix: "A=", ConfigMapRef: cm("settings")}),
			want:   []string{`spec.containers[0].envFrom[0].prefix: Invalid value: "A=": a valid environment variable name must consist only of printable ASCII characters other than '='`},
		},
		{
			name:   "an envFrom configMapRef without a name is refused",
			mutate: ctrEnvFrom(v1.EnvFromSource{ConfigMapRef: cm("")}),
			want:   []string{`spec.containers[0].envFrom[0].configMapRef.name: Required value`},
		},
		{
			name:   "an envFrom name that is not a DNS subdomain is refused",
			mutate: ctrEnvFrom(v1.EnvFromSource{ConfigMapRef: cm("Settings")}),
			want:   []string{`spec.containers[0].envFrom[0].configMapRef.name: Invalid value: "Settings": ` + ctrSubdomainMsg},
		},
		{
			name:   "an envFrom name ending in '-' is accepted (checked as a prefix)",
			mutate: ctrEnvFrom(v1.EnvFromSource{ConfigMapRef: cm("settings-")}),
		},
	})
}
