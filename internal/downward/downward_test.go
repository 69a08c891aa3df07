package downward

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestPodFieldValue(t *testing.T) {
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "n", Namespace: "ns", UID: "u",
		Labels: map[string]string{"b": "2", "a": "x\ny"}, Annotations: map[string]string{"K": "v"}}}
	for _, tc := range []struct{ name, path, want, err string }{
		{"labels are sorted, quoted, without a trailing newline", "metadata.labels", "a=\"x\\ny\"\nb=\"2\"", ""},
		{"an annotation subscript is checked lower-cased", "metadata.annotations['K']", "v", ""},
		{"a label subscript must be a qualified name", "metadata.labels['-x']", "", "invalid key subscript in metadata.labels['-x']: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
		{"a subscript on another field is rejected", "metadata.name['x']", "", `fieldPath "metadata.name['x']" does not support subscript`},
		{"spec fields are not pod metadata", "spec.nodeName", "", "unsupported fieldPath: spec.nodeName"},
		{"uid", "metadata.uid", "u", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := PodFieldValue(pod, tc.path)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestResourceValue(t *testing.T) {
	alloc := func(rn v1.ResourceName) (resource.Quantity, bool) {
		return map[v1.ResourceName]resource.Quantity{v1.ResourceCPU: resource.MustParse("2")}[rn], rn == v1.ResourceCPU
	}
	limits := v1.ResourceList{v1.ResourceMemory: resource.MustParse("1500Ki"), "hugepages-2Mi": resource.MustParse("0")}
	for _, tc := range []struct {
		name, res, divisor, want, err string
		def                           bool
	}{
		{"an unset cpu limit is the default, in cores rounded up", "limits.cpu", "", "2", "", true},
		{"cpu is divided in millicores", "limits.cpu", "1m", "2000", "", true},
		{"no default: an unset limit is 0", "limits.cpu", "", "0", "", false},
		{"memory is rounded up", "limits.memory", "1Mi", "2", "", true},
		{"hugepages are never defaulted", "limits.hugepages-2Mi", "", "0", "", true},
		{"an unknown resource is rejected", "limits.gpu", "", "", "unsupported container resource : limits.gpu", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d resource.Quantity
			if tc.divisor != "" {
				d = resource.MustParse(tc.divisor)
			}
			var def func(v1.ResourceName) (resource.Quantity, bool)
			if tc.def {
				def = alloc
			}
			got, err := ResourceValue(tc.res, d, limits, nil, def)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
