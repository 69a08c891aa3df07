package configgen_test

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
)

// A pod reads its settings from a ConfigMap, names itself through the downward API and builds a URL
// from the kubernetes Service's variables. The getters are plain functions over objects in memory.
func ExampleMakeEnvironmentVariables() {
	settings := &v1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "settings"},
		Data:       map[string]string{"LOG_LEVEL": "info", "CACHE": "on"},
	}
	apiServer := &v1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "kubernetes"},
		Spec:       v1.ServiceSpec{ClusterIP: "10.96.0.1", Ports: []v1.ServicePort{{Name: "https", Port: 443}}},
	}
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "cart-0"},
		Spec: v1.PodSpec{
			EnableServiceLinks: ptr.To(false),
			Containers: []v1.Container{{
				Name:    "cart",
				EnvFrom: []v1.EnvFromSource{{ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "settings"}}}},
				Env: []v1.EnvVar{
					{Name: "POD_NAME", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
					{Name: "API", Value: "https://$(KUBERNETES_SERVICE_HOST):$(KUBERNETES_SERVICE_PORT)"},
					{Name: "LOG_LEVEL", Value: "debug"},
				},
			}},
		},
	}

	envs, warnings, err := configgen.MakeEnvironmentVariables(context.Background(), configgen.EnvInput{
		Pod:       pod,
		Container: &pod.Spec.Containers[0],
		ConfigMaps: configgen.ConfigMapGetterFunc(func(_ context.Context, ns, name string) (*v1.ConfigMap, error) {
			if ns == settings.Namespace && name == settings.Name {
				return settings, nil
			}
			return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "configmaps"}, name)
		}),
		Services: configgen.ServiceListerFunc(func(_ context.Context, ns string) ([]*v1.Service, error) {
			if ns == "default" {
				return []*v1.Service{apiServer}, nil
			}
			return nil, nil
		}),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range envs {
		fmt.Printf("%s=%s\n", e.Name, e.Value)
	}
	fmt.Println(len(warnings), "warnings")
	// Output:
	// CACHE=on
	// LOG_LEVEL=debug
	// POD_NAME=cart-0
	// API=https://10.96.0.1:443
	// KUBERNETES_PORT=tcp://10.96.0.1:443
	// KUBERNETES_PORT_443_TCP=tcp://10.96.0.1:443
	// KUBERNETES_PORT_443_TCP_ADDR=10.96.0.1
	// KUBERNETES_PORT_443_TCP_PORT=443
	// KUBERNETES_PORT_443_TCP_PROTO=tcp
	// KUBERNETES_SERVICE_HOST=10.96.0.1
	// KUBERNETES_SERVICE_PORT=443
	// KUBERNETES_SERVICE_PORT_HTTPS=443
	// 0 warnings
}

// Command and args refer to the container's variables; "$$" escapes and unknown names stay.
func ExampleExpandContainerCommandAndArgs() {
	container := &v1.Container{
		Command: []string{"/server"},
		Args:    []string{"--listen=$(POD_IP):$(PORT)", "$$(LITERAL)", "--undef=$(NOPE)"},
	}
	envs := []configgen.EnvVar{{Name: "POD_IP", Value: "10.244.1.17"}, {Name: "PORT", Value: "8080"}}
	command, args, err := configgen.ExpandContainerCommandAndArgs(container, envs)
	fmt.Printf("%q %q %v\n", command, args, err)
	// Output:
	// ["/server"] ["--listen=10.244.1.17:8080" "$(LITERAL)" "--undef=$(NOPE)"] <nil>
}

// A subPathExpr naming an undefined variable fails with kubelet's error.
func ExampleExpandContainerVolumeMounts() {
	envs := []configgen.EnvVar{{Name: "POD_NAME", Value: "web-0"}}
	path, err := configgen.ExpandContainerVolumeMounts(v1.VolumeMount{SubPathExpr: "logs/$(POD_NAME)"}, envs)
	fmt.Println(path, err)
	_, err = configgen.ExpandContainerVolumeMounts(v1.VolumeMount{SubPathExpr: "$(ZONE)/$(NODE)"}, envs)
	fmt.Println(err)
	// Output:
	// logs/web-0 <nil>
	// missing value for NODE, ZONE
}
