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

// A provider whose runtime takes a pod spec with plain env values resolves the whole pod and
// writes the values back in one call: init, regular and ephemeral containers alike, envFrom
// folded into env.
func ExamplePodEnv_ApplyTo() {
	name := v1.EnvVar{Name: "POD", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}}
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "cart-0"},
		Spec: v1.PodSpec{
			EnableServiceLinks: ptr.To(false),
			Containers:         []v1.Container{{Name: "cart", Env: []v1.EnvVar{name}}},
			EphemeralContainers: []v1.EphemeralContainer{{EphemeralContainerCommon: v1.EphemeralContainerCommon{
				Name: "debug", Env: []v1.EnvVar{name, {Name: "TARGET", Value: "$(POD)/cart"}}}}},
		},
	}
	envs, _, err := configgen.MakePodEnvironmentVariables(context.Background(), configgen.PodEnvInput{Pod: pod})
	if err != nil {
		fmt.Println(err)
		return
	}
	resolved := pod.DeepCopy()
	if err := envs.ApplyTo(resolved); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resolved.Spec.Containers[0].Env)
	fmt.Println(resolved.Spec.EphemeralContainers[0].Env)
	// The same values, in the type MakeEnvironmentVariables returns:
	fmt.Println(envs[1].Vars)
	// Output:
	// [{POD cart-0 nil}]
	// [{POD cart-0 nil} {TARGET cart-0/cart nil}]
	// [{POD cart-0} {TARGET cart-0/cart}]
}
