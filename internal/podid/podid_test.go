package podid_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/types"

	"github.com/podconfig/podconfig/internal/podid"
)

const labelMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"

const subdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"

const uidChars = "must consist of ASCII letters, digits and '-' (a UUID, as the API server assigns)"

func TestProblem(t *testing.T) {
	tests := []struct {
		name              string
		namespace, pod    string
		uid               types.UID
		wantField, wantIn string
	}{
		{"a cluster's pod is accepted", "default", "web-7d9f8-x2x", "5f0c3a9e-1111-4222-8333-944455556666", "", ""},
		{"a static pod's hex UID is accepted", "kube-system", "etcd-node.example", "0123456789abcdef0123456789abcdef", "", ""},
		{"a namespace with newlines that would add a resolv.conf nameserver is refused", "x\nnameserver 6.6.6.6\nsearch evil", "p", "u",
			"metadata.namespace", `invalid metadata.namespace "x\nnameserver 6.6.6.6\nsearch evil": ` + labelMsg},
		{"an operator's placeholder namespace is refused", "FILLED BY THE OPERATOR", "p", "u",
			"metadata.namespace", `invalid metadata.namespace "FILLED BY THE OPERATOR": ` + labelMsg},
		{"a namespace with '_' is refused: it would make log directory names ambiguous", "a_b", "c", "d",
			"metadata.namespace", `invalid metadata.namespace "a_b": ` + labelMsg},
		{"an empty namespace is refused", "", "p", "u", "metadata.namespace", `invalid metadata.namespace "": ` + labelMsg},
		{"a name with '_' is refused", "a", "b_c", "d", "metadata.name", `invalid metadata.name "b_c": ` + subdomainMsg},
		{"a name with '/' is refused", "a", "../../etc", "d", "metadata.name", `invalid metadata.name "../../etc": ` + subdomainMsg},
		{"a UID with '_' is refused: {a, b, c_d} and {a_b, c, d} would share pods/a_b_c_d", "a", "b", "c_d",
			"metadata.uid", `invalid metadata.uid "c_d": ` + uidChars},
		{"a UID with '/' is refused", "a", "b", "../x", "metadata.uid", `invalid metadata.uid "../x": ` + uidChars},
		{"an empty UID is refused", "a", "b", "", "metadata.uid", `invalid metadata.uid "": must not be empty`},
		{"a UID longer than 128 characters is refused", "a", "b", types.UID(strings.Repeat("a", 129)),
			"metadata.uid", `invalid metadata.uid "` + strings.Repeat("a", 64) + `...": must be at most 128 characters`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			field, msg := podid.Problem(tt.namespace, tt.pod, tt.uid)
			assert.Equal(t, tt.wantField, field)
			assert.Equal(t, tt.wantIn, msg)
		})
	}
}

// Under the systemd cgroup driver each '-' of a UID becomes '_': refusing '_' keeps two UIDs
// from naming one cgroup.
func TestUIDsThatDifferOnlyInDashAndUnderscoreCannotBothPass(t *testing.T) {
	assert.Empty(t, podid.UIDProblem("a-b"))
	assert.NotEmpty(t, podid.UIDProblem("a_b"))
}
