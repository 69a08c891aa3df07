package defaults

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
)

// podWith returns a pod with one container, one init container and one ephemeral container, all
// named, after edit has changed it.
func podWith(edit func(*v1.Pod)) *v1.Pod {
	pod := &v1.Pod{
		Spec: v1.PodSpec{
			InitContainers:      []v1.Container{{Name: "init", Image: "busybox:1.36"}},
			Containers:          []v1.Container{{Name: "app", Image: "nginx:1.25"}},
			EphemeralContainers: []v1.EphemeralContainer{{EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: "debug", Image: "busybox:1.36"}}},
		},
	}
	if edit != nil {
		edit(pod)
	}
	return pod
}

// ctrs returns the init, regular and ephemeral container of a podWith pod.
func ctrs(pod *v1.Pod) map[string]*v1.Container {
	return map[string]*v1.Container{
		"init":      &pod.Spec.InitContainers[0],
		"app":       &pod.Spec.Containers[0],
		"ephemeral": (*v1.Container)(&pod.Spec.EphemeralContainers[0].EphemeralContainerCommon),
	}
}

// eachContainer applies edit to the init, regular and ephemeral container of a podWith pod.
func eachContainer(edit func(*v1.Container)) func(*v1.Pod) {
	return func(pod *v1.Pod) {
		for _, c := range ctrs(pod) {
			edit(c)
		}
	}
}

func resourceMust(s string) resource.Quantity { return resource.MustParse(s) }

// assertSemantic asserts that got equals want as the API machinery compares objects: quantities by
// value, not by their cached text.
func assertSemantic(t *testing.T, want, got any, msgAndArgs ...any) {
	t.Helper()
	if !equality.Semantic.DeepEqual(want, got) {
		assert.Equal(t, want, got, msgAndArgs...)
		t.Fail()
	}
}
