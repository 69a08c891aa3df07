package validation

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func TestObjectMeta(t *testing.T) {
	pfRun(t, []pfCase{
		{
			name: "a namespace with a newline and a nameserver line is refused, the newline escaped",
			edit: func(p *v1.Pod) { p.Namespace = "default\nnameserver 10.0.0.1" },
			want: []string{`metadata.namespace: Invalid value: "default\nnameserver 10.0.0.1": ` + pfLabelMsg},
		},
		{
			name: "the namespace placeholder FILLED BY THE OPERATOR is refused",
			edit: func(p *v1.Pod) { p.Namespace = "FILLED BY THE OPERATOR" },
			want: []string{`metadata.namespace: Invalid value: "FILLED BY THE OPERATOR": ` + pfLabelMsg},
		},
		{
			name: "a namespace with '_' is refused",
			edit: func(p *v1.Pod) { p.Namespace = "team_a" },
			want: []string{`metadata.namespace: Invalid value: "team_a": ` + pfLabelMsg},
		},
		{
			name: "a namespace longer than 63 characters is refused for its length",
			edit: func(p *v1.Pod) { p.Namespace = strings.Repeat("n", 64) },
			want: []string{`metadata.namespace: Invalid value: "` + strings.Repeat("n", 64) + `": must be no more than 63 characters`},
		},
		{
			name: "a pod without a namespace is refused",
			edit: func(p *v1.Pod) { p.Namespace = "" },
			want: []string{"metadata.namespace: Required value"},
		},
		{
			name: "a pod name with '_' is refused",
			edit: func(p *v1.Pod) { p.Name = "web_1" },
			want: []string{`metadata.name: Invalid value: "web_1": ` + pfSubdomainMsg},
		},
		{
			name: "a pod without a name is refused",
			edit: func(p *v1.Pod) { p.Name = "" },
			want: []string{"metadata.name: Required value: name or generateName is required"},
		},
		{
			name: "a generateName that is not a subdomain prefix is refused, a trailing dash allowed",
			edit: func(p *v1.Pod) { p.GenerateName = "Web-" },
			want: []string{`metadata.generateName: Invalid value: "Web-": ` + pfSubdomainMsg},
		},
		{
			name: "a negative generation is refused",
			edit: func(p *v1.Pod) { p.Generation = -1 },
			want: []string{"metadata.generation: Invalid value: -1: must be greater than or equal to 0"},
		},
		{
			name: "bad labels are refused in key order, the key then the value",
			edit: func(p *v1.Pod) { p.Labels = map[string]string{"b": "x y", "a b": "ok"} },
			want: []string{
				`metadata.labels: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
				`metadata.labels: Invalid value: "x y": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
			},
		},
		{
			name: "an annotation key that is not a qualified name is refused, upper case allowed",
			edit: func(p *v1.Pod) { p.Annotations = map[string]string{"Example.com/Owner": "x", "a:b": "y"} },
			want: []string{`metadata.annotations: Invalid value: "a:b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`},
		},
		{
			name: "annotations above 256 KiB in all are refused",
			edit: func(p *v1.Pod) { p.Annotations = map[string]string{"a": strings.Repeat("x", 256*1024)} },
			want: []string{"metadata.annotations: Too long: may not be more than 262144 bytes"},
		},
		{
			name: "an ownerReference without its fields is refused for each",
			edit: func(p *v1.Pod) { p.OwnerReferences = []metav1.OwnerReference{{}} },
			want: []string{
				"metadata.ownerReferences[0].apiVersion: Required value: must not be empty",
				"metadata.ownerReferences[0].kind: Required value: must not be empty",
				"metadata.ownerReferences[0].name: Required value: must not be empty",
				"metadata.ownerReferences[0].uid: Required value: must not be empty",
			},
		},
		{
			name: "a finalizer without a domain that is not a standard one is refused; standard and qualified ones pass",
			edit: func(p *v1.Pod) { p.Finalizers = []string{"kubernetes", "example.com/cleanup", "cleanup", "orphan"} },
			want: []string{`metadata.finalizers[2]: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified`},
		},
		{
			name: "a finalizer that is not a qualified name is refused by apimachinery before the API server's own check",
			edit: func(p *v1.Pod) { p.Finalizers = []string{"a b"} },
			want: []string{
				`metadata.finalizers: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
				`metadata.finalizers[0]: Invalid value: "a b": name is neither a standard finalizer name nor is it fully qualified`,
			},
		},
		{
			name: "orphan and foregroundDeletion together are refused",
			edit: func(p *v1.Pod) { p.Finalizers = []string{"orphan", "foregroundDeletion"} },
			want: []string{`metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set`},
		},
		{
			name: "a managedFields entry without an operation is refused",
			edit: func(p *v1.Pod) { p.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kubectl"}} },
			want: []string{"metadata.managedFields[0].operation: Required value: must not be empty"},
		},
	})
}

func TestObjectMetaOfAClusterScopedObjectRefusesANamespace(t *testing.T) {
	meta := &metav1.ObjectMeta{Name: "n", Namespace: "x"}
	errs := validateObjectMeta(meta, false, validatePodName, field.NewPath("metadata"))
	assert.Equal(t, []string{"metadata.namespace: Forbidden: not allowed on this type"}, pfTexts(errs))
}
