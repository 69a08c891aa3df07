package conformance

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/conformance/internal/validationside"
	"github.com/podconfig/podconfig/validation"
)

// notADNSLabel is the API server's words for a namespace that is not an RFC 1123 label.
const notADNSLabel = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"

// TestValidationHostile gives both validations the hostile objects of the validation issue,
// defaulted and prepared as the API server prepares them: the API server's refusal is pinned (or
// its acceptance), and package validation must give the same.
func TestValidationHostile(t *testing.T) {
	cases := []struct {
		name string
		obj  runtime.Object
		// want is the API server's refusal, or "" when it accepts the object.
		want string
	}{
		{
			name: "a namespace holding resolv.conf lines is refused",
			obj:  hostilePod(func(p *v1.Pod) { p.Namespace = "x\nnameserver 6.6.6.6\nsearch evil" }),
			want: `Pod "web" is invalid: metadata.namespace: Invalid value: "x\nnameserver 6.6.6.6\nsearch evil": ` + notADNSLabel,
		},
		{
			name: "a namespace left as a placeholder with spaces and capitals is refused",
			obj:  hostilePod(func(p *v1.Pod) { p.Namespace = "FILLED BY THE OPERATOR" }),
			want: `Pod "web" is invalid: metadata.namespace: Invalid value: "FILLED BY THE OPERATOR": ` + notADNSLabel,
		},
		{
			name: "namespace a, name b, uid c_d is accepted: the API server does not validate UIDs",
			obj:  hostilePod(func(p *v1.Pod) { p.Namespace, p.Name, p.UID = "a", "b", "c_d" }),
		},
		{
			name: "namespace a_b (name c, uid d), which would join to the same a_b_c_d as a/b/c_d, is refused",
			obj:  hostilePod(func(p *v1.Pod) { p.Namespace, p.Name, p.UID = "a_b", "c", "d" }),
			want: `Pod "c" is invalid: metadata.namespace: Invalid value: "a_b": ` + notADNSLabel,
		},
		{
			name: "a pod with no containers is refused",
			obj:  hostilePod(func(p *v1.Pod) { p.Spec.Containers = nil }),
			want: `Pod "web" is invalid: spec.containers: Required value`,
		},
		{
			name: "a container without an image is refused",
			obj:  hostilePod(func(p *v1.Pod) { p.Spec.Containers[0].Image = "" }),
			want: `Pod "web" is invalid: spec.containers[0].image: Required value`,
		},
		{
			name: "a memory request above the memory limit is refused",
			obj: hostilePod(func(p *v1.Pod) {
				p.Spec.Containers[0].Resources = v1.ResourceRequirements{
					Requests: v1.ResourceList{v1.ResourceMemory: resource.MustParse("2Gi")},
					Limits:   v1.ResourceList{v1.ResourceMemory: resource.MustParse("1Gi")},
				}
			}),
			want: `Pod "web" is invalid: spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi`,
		},
		{
			name: "a Deployment whose selector does not match its template's labels is refused",
			obj: func() runtime.Object {
				pod := hostilePod(nil)
				return &appsv1.Deployment{
					ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "dep-uid"},
					Spec: appsv1.DeploymentSpec{
						Replicas: ptr.To[int32](1),
						Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "api"}},
						Template: v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}}, Spec: pod.Spec},
					},
				}
			}(),
			want: "Deployment.apps \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			validationside.Default(c.obj)
			obj, err := validationside.Prepare(c.obj)
			require.NoError(t, err)
			apiErrs, kind, err := validationside.Validate(obj.DeepCopyObject())
			require.NoError(t, err)
			m, err := meta.Accessor(obj)
			require.NoError(t, err)
			api := ""
			if len(apiErrs) > 0 {
				api = apierrors.NewInvalid(kind, m.GetName(), apiErrs).Error()
			}
			require.Equal(t, c.want, api, "the API server's answer")
			if pod, ok := obj.(*v1.Pod); ok {
				assert.Nil(t, CompareValidation(CheckCreate, apiErrs, validation.ValidatePodCreate(pod.DeepCopy())), "ValidatePodCreate")
			}
			got := ""
			if err := validation.ValidateObject(obj.DeepCopyObject()); err != nil {
				got = err.Error()
			}
			assert.Equal(t, c.want, got, "ValidateObject")
		})
	}
}

// hostilePod is a valid pod changed by change.
func hostilePod(change func(*v1.Pod)) *v1.Pod {
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: types.UID("0f1e2d3c-0000-4000-8000-000000000001")},
		Spec:       v1.PodSpec{Containers: []v1.Container{{Name: "app", Image: "busybox:1.36"}}},
	}
	if change != nil {
		change(pod)
	}
	return pod
}
