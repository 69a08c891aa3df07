package configgen_test

import (
	"context"
	"errors"
	"fmt"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
)

// A provider decides from the error's category whether to retry, and records its reason as an
// event. The missing ConfigMap may yet be created, so this one is worth a retry.
func ExampleError() {
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "cart-0"},
		Spec: v1.PodSpec{
			EnableServiceLinks: ptr.To(false),
			Containers: []v1.Container{{Name: "cart", Env: []v1.EnvVar{{Name: "LEVEL", ValueFrom: &v1.EnvVarSource{
				ConfigMapKeyRef: &v1.ConfigMapKeySelector{LocalObjectReference: v1.LocalObjectReference{Name: "settings"}, Key: "level"},
			}}}}},
		},
	}
	_, _, err := configgen.MakeEnvironmentVariables(context.Background(), configgen.EnvInput{
		Pod: pod, Container: &pod.Spec.Containers[0],
		ConfigMaps: configgen.ConfigMapGetterFunc(func(_ context.Context, _, name string) (*v1.ConfigMap, error) {
			return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "configmaps"}, name)
		}),
	})

	var e *configgen.Error
	if errors.As(err, &e) {
		fmt.Println("message:", e)
		fmt.Println("reason:", e.Reason)
		fmt.Println("retry:", errors.Is(err, configgen.ErrDependencyFailed))
		fmt.Println("cause is NotFound:", apierrors.IsNotFound(e.Cause))
	}
	// Output:
	// message: configmaps "settings" not found
	// reason: MandatoryConfigMapNotFound
	// retry: true
	// cause is NotFound: true
}
