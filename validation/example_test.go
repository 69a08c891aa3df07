package validation_test

import (
	"errors"
	"fmt"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/validation"
)

// A pod the API server would refuse is refused with its field paths and words, every error at
// once: this one was not defaulted (no terminationGracePeriodSeconds) and its container has no
// image.
func ExampleValidateObject() {
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web"},
		Spec: v1.PodSpec{
			RestartPolicy: v1.RestartPolicyAlways, DNSPolicy: v1.DNSClusterFirst,
			Containers: []v1.Container{{Name: "web", TerminationMessagePolicy: v1.TerminationMessageReadFile, ImagePullPolicy: v1.PullIfNotPresent}},
		},
	}
	err := validation.ValidateObject(pod)
	fmt.Println(err)
	fmt.Println(errors.Is(err, validation.ErrInvalid))
	// Output:
	// Pod "web" is invalid: [spec.terminationGracePeriodSeconds: Required value, spec.containers[0].image: Required value]
	// true
}
