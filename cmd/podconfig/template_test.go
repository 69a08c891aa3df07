package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
)

// A manifest that is a template not yet filled in is said to be one: a placeholder where a typed
// field needs a number names the placeholders found, and strings that look like placeholders
// are a warning, since kubelet passes them on as written.
func TestTemplatePlaceholders(t *testing.T) {
	job := func(completions, env string) string {
		return "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  completions: " + completions +
			"\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: busybox, env: [" + env + "]}]\n"
	}
	t.Run("a kustomize var in an integer field names the placeholders", func(t *testing.T) {
		code, _, stderr := cli(t, job("NUM_NODES", ""), "render", "-")
		assert.Equal(t, exitError, code)
		assert.Equal(t, "podconfig render: stdin: document 1 (Job j): json: cannot unmarshal string into Go struct field JobSpec.spec.completions of type int32; stdin holds NUM_NODES, which looks like a template's placeholders (kustomize vars, envsubst, sed): fill them in first (kustomize build, envsubst < FILE, ...)\n", stderr)
	})
	t.Run("an envsubst variable in an integer field", func(t *testing.T) {
		_, _, stderr := cli(t, job("${N}", ""), "render", "-")
		assert.Contains(t, stderr, "stdin holds ${N}, which looks like")
	})
	t.Run("a decoding error without placeholders has no hint", func(t *testing.T) {
		_, _, stderr := cli(t, job("many", ""), "render", "-")
		assert.NotContains(t, stderr, "placeholders")
	})
	tests := []struct {
		name string
		c    v1.Container
		want string
	}{
		{"an env value that is one ALL_CAPS word with an underscore", v1.Container{Env: []v1.EnvVar{{Name: "DNS", Value: "CLUSTER_DNS_IP"}}},
			`env DNS "CLUSTER_DNS_IP" looks like a template's placeholders`},
		{"an envsubst variable in an env value", v1.Container{Env: []v1.EnvVar{{Name: "X", Value: "http://${HOST}:80"}}},
			`env X "${HOST}" looks like`},
		{"a sed marker in args", v1.Container{Args: []string{"-localip", "__PILLAR__LOCAL__DNS__,__PILLAR__DNS__SERVER__"}},
			`args[1] "__PILLAR__LOCAL__DNS__", args[1] "__PILLAR__DNS__SERVER__" look like`},
		{"kubelet's own $(VAR) expansion is not a placeholder", v1.Container{Args: []string{"--name=$(POD_NAME)"}}, ""},
		{"an ALL_CAPS env name and a log level are not placeholders", v1.Container{Env: []v1.EnvVar{{Name: "LOG_LEVEL", Value: "DEBUG"}}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := placeholderWarning(&tt.c)
			if tt.want == "" {
				assert.Nil(t, w)
				return
			}
			if assert.NotNil(t, w) {
				assert.Equal(t, reasonTemplatePlaceholder, w.Reason)
				assert.Contains(t, w.Message, tt.want)
				assert.True(t, strings.HasSuffix(w.Message, "if the manifest is a template, render it first"))
			}
		})
	}
	t.Run("the warning reaches standard error", func(t *testing.T) {
		code, _, stderr := cli(t, job("1", "{name: DNS, value: CLUSTER_DNS_IP}"), "render", "--image-user", "busybox=1", "-")
		assert.Equal(t, exitOK, code, stderr)
		assert.Contains(t, stderr, `container c: TemplatePlaceholder: env DNS "CLUSTER_DNS_IP" looks like a template's placeholders`)
	})
}
