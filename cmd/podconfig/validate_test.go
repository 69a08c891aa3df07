package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The API server's words for a name it refuses.
const (
	labelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
	subdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)

// What a cluster refuses, render refuses with the API server's field paths and words: the
// workload as `kubectl apply` sends it, each pod once defaulted and admitted. Nothing of a
// refused document is printed.
func TestRenderRefusesWhatTheAPIServerRefuses(t *testing.T) {
	pod := func(meta, spec string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata: " + meta + "\nspec:\n" + spec
	}
	busybox := "  containers: [{name: c, image: busybox}]\n"
	deployment := func(selector, labels, containers string) string {
		return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: " + selector +
			"}\n  template:\n    metadata: {labels: " + labels + "}\n    spec:\n      containers: " + containers + "\n"
	}
	tests := []struct {
		name, input, want string
	}{
		{"a namespace that would add a nameserver to resolv.conf",
			pod(`{name: p, namespace: "x\nnameserver 6.6.6.6\nsearch evil"}`, busybox),
			`podconfig render: stdin: document 1 (Pod p): pod x\nnameserver 6.6.6.6\nsearch evil/p: Pod "p" is invalid: metadata.namespace: Invalid value: "x\nnameserver 6.6.6.6\nsearch evil": ` + labelMsg},
		{"an operator's placeholder namespace",
			pod(`{name: p, namespace: FILLED BY THE OPERATOR}`, busybox),
			`podconfig render: stdin: document 1 (Pod p): pod FILLED BY THE OPERATOR/p: Pod "p" is invalid: metadata.namespace: Invalid value: "FILLED BY THE OPERATOR": ` + labelMsg},
		{"a namespace with '_', which would share a log directory with another pod",
			pod(`{name: c, namespace: a_b, uid: d}`, busybox),
			`podconfig render: stdin: document 1 (Pod c): pod a_b/c: Pod "c" is invalid: metadata.namespace: Invalid value: "a_b": ` + labelMsg},
		{"a UID with '_' (the API server assigns UUIDs; the node refuses it)",
			pod(`{name: b, namespace: a, uid: c_d}`, busybox),
			`podconfig render: stdin: document 1 (Pod b): pod a/b: sandbox: pod "a/b": invalid metadata.uid "c_d": must consist of ASCII letters, digits and '-' (a UUID, as the API server assigns)`},
		{"a pod without containers",
			pod(`{name: p}`, "  containers: []\n"),
			`podconfig render: stdin: document 1 (Pod p): pod default/p: Pod "p" is invalid: spec.containers: Required value`},
		{"a container without an image",
			pod(`{name: p}`, "  containers: [{name: c}]\n"),
			`podconfig render: stdin: document 1 (Pod p): pod default/p: Pod "p" is invalid: spec.containers[0].image: Required value`},
		{"a memory request above its limit",
			pod(`{name: p}`, "  containers: [{name: c, image: busybox, resources: {requests: {memory: 2Gi}, limits: {memory: 1Gi}}}]\n"),
			`podconfig render: stdin: document 1 (Pod p): pod default/p: Pod "p" is invalid: spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi`},
		{"a Deployment whose selector does not match its template's labels",
			deployment("{app: web}", "{app: other}", "[{name: web, image: nginx}]"),
			"podconfig render: stdin: document 1 (Deployment web): Deployment.apps \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"other\"}: `selector` does not match template `labels`"},
		{"a Deployment whose template's container has no image",
			deployment("{app: web}", "{app: web}", "[{name: web}]"),
			`podconfig render: stdin: document 1 (Deployment web): Deployment.apps "web" is invalid: spec.template.spec.containers[0].image: Required value`},
		{"a Deployment without a template",
			"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n",
			"podconfig render: stdin: document 1 (Deployment web): Deployment.apps \"web\" is invalid: [spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`, spec.template.spec.containers: Required value]"},
		{"every error of a pod at once, in the API server's order",
			pod(`{name: P_1}`, "  containers: [{name: c}, {name: c, image: busybox}]\n"),
			`podconfig render: stdin: document 1 (Pod P_1): pod default/P_1: Pod "P_1" is invalid: [metadata.name: Invalid value: "P_1": ` + subdomainMsg + `, spec.containers[0].image: Required value, spec.containers[1].name: Duplicate value: "c"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := cli(t, tt.input, "render", "-")
			assert.Equal(t, exitError, code)
			assert.Equal(t, tt.want+"\n", stderr)
			assert.NotContains(t, out, `"containers"`, "nothing of the refused pod is printed")
		})
	}
}

// --validate=false renders what the API server would refuse, for a pod whose refusal is known.
func TestRenderValidateFalse(t *testing.T) {
	in := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: busybox, resources: {requests: {memory: 2Gi}, limits: {memory: 1Gi}}}]\n"
	code, _, stderr := cli(t, in, "render", "--validate=false", "-")
	assert.Equal(t, exitOK, code, stderr)
}
