package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
)

// The API server's messages for names, written out so that a test pins their text.
const (
	pfLabelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
	pfSubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)

// pfPod returns a pod as the API server's defaulting leaves it, one it accepts, changed by edit.
func pfPod(edit func(p *v1.Pod)) *v1.Pod {
	p := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: v1.PodSpec{
			Containers: []v1.Container{{
				Name: "app", Image: "nginx", ImagePullPolicy: v1.PullIfNotPresent,
				TerminationMessagePath: v1.TerminationMessagePathDefault, TerminationMessagePolicy: v1.TerminationMessageReadFile,
			}},
			RestartPolicy:                 v1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: ptr.To[int64](30),
			DNSPolicy:                     v1.DNSClusterFirst,
			SecurityContext:               &v1.PodSecurityContext{},
			SchedulerName:                 v1.DefaultSchedulerName,
		},
	}
	if edit != nil {
		edit(p)
	}
	return p
}

// pfPodSC returns the pod's securityContext, for an edit to set fields of.
func pfPodSC(p *v1.Pod) *v1.PodSecurityContext { return p.Spec.SecurityContext }

// pfContainerSC returns the first container's securityContext, created if unset.
func pfContainerSC(p *v1.Pod) *v1.SecurityContext {
	if p.Spec.Containers[0].SecurityContext == nil {
		p.Spec.Containers[0].SecurityContext = &v1.SecurityContext{}
	}
	return p.Spec.Containers[0].SecurityContext
}

// pfTexts returns the texts of errs.
func pfTexts(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// pfCase is a pod, as an edit of pfPod, and the errors ValidatePodCreate gives it.
type pfCase struct {
	name string
	edit func(p *v1.Pod)
	want []string
}

// pfRun checks each case's errors, in order.
func pfRun(t *testing.T, cases []pfCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, pfTexts(ValidatePodCreate(pfPod(tc.edit))))
		})
	}
}

func TestPodFieldsBasePodIsAccepted(t *testing.T) {
	assert.Empty(t, ValidatePodCreate(pfPod(nil)), "a defaulted minimal pod is accepted")
}
