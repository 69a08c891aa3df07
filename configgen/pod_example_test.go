package configgen_test

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
)

// A provider creates the pod remotely before it has an IP, so it resolves every container's
// environment with UnknownIPsEmpty and records the warnings as events.
func ExampleMakePodEnvironmentVariables() {
	ip := v1.EnvVar{Name: "POD_IP", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "status.podIP"}}}
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "cart-0"},
		Spec: v1.PodSpec{
			EnableServiceLinks: ptr.To(false),
			InitContainers:     []v1.Container{{Name: "setup", Env: []v1.EnvVar{{Name: "MODE", Value: "init"}}}},
			Containers:         []v1.Container{{Name: "cart", Env: []v1.EnvVar{ip, {Name: "URL", Value: "http://$(POD_IP):8080"}}}},
		},
	}
	envs, warnings, err := configgen.MakePodEnvironmentVariables(context.Background(), configgen.PodEnvInput{
		Pod: pod, UnknownIPs: configgen.UnknownIPsEmpty,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, ce := range envs {
		fmt.Printf("%s (%s): %v\n", ce.Container.Name, ce.Kind, ce.Env)
	}
	for _, w := range warnings {
		fmt.Printf("event for %s: %s\n", w.Container, w)
	}
	// Output:
	// setup (init): [{MODE init nil}]
	// cart (regular): [{POD_IP  nil} {URL http://:8080 nil}]
	// event for cart: PodIPNotKnown: status.podIP is empty: the pod has no IP yet
}
