package configgen_test

import (
	"context"
	"fmt"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/internal/benchpod"
)

// benchEnvInput is a container with 10 env entries (3 literals with $(VAR), 2 configMapKeyRef,
// 2 secretKeyRef, 2 fieldRef, 1 resourceFieldRef), envFrom one ConfigMap of 20 keys, and 10
// Services with the given number of named ports in the pod's namespace plus default/kubernetes,
// all served from memory.
func benchEnvInput(ports int) configgen.EnvInput {
	data := map[string]string{}
	for i := range 20 {
		data[fmt.Sprintf("SETTING_%02d", i)] = fmt.Sprintf("value-%d", i)
	}
	cms := map[string]*v1.ConfigMap{"ns/settings": cm("ns", "settings", data), "ns/app": cm("ns", "app", map[string]string{"mode": "fast", "region": "eu"})}
	secs := map[string]*v1.Secret{"ns/db": secret("ns", "db", map[string]string{"user": "admin", "password": "s3cret"})}
	byNS := map[string][]*v1.Service{"default": {kubernetesService()}}
	for i := range 10 {
		byNS["ns"] = append(byNS["ns"], svc("ns", fmt.Sprintf("backend-%d", i), fmt.Sprintf("10.0.1.%d", i+1),
			[]v1.ServicePort{port("http", 8080, ""), port("metrics", 9090, v1.ProtocolTCP)}[:ports]...))
	}
	node := &v1.Node{Status: v1.NodeStatus{
		Addresses:   []v1.NodeAddress{{Type: v1.NodeInternalIP, Address: "10.0.0.5"}},
		Allocatable: v1.ResourceList{v1.ResourceCPU: resource.MustParse("8"), v1.ResourceMemory: resource.MustParse("32Gi")},
	}}

	pod := testPod(
		lit("DB_URL", "postgres://$(DB_USER)@$(BACKEND_0_SERVICE_HOST):$(BACKEND_0_SERVICE_PORT)/app"),
		cmKey("MODE", "app", "mode", false),
		cmKey("REGION", "app", "region", false),
		secretKey("DB_USER", "db", "user", false),
		secretKey("DB_PASSWORD", "db", "password", false),
		fieldEnv("POD_NAME", "metadata.name"),
		fieldEnv("POD_IP", "status.podIP"),
		resourceEnv("MEM_LIMIT", "", "limits.memory", "1Mi"),
		lit("LISTEN", "$(POD_IP):8080"),
		lit("GREETING", "hello from $(POD_NAME) in $(REGION)"),
	)
	pod.Spec.Containers[0].EnvFrom = []v1.EnvFromSource{fromConfigMap("settings", "", false)}
	in := envInput(pod)
	in.PodIPs = []string{"10.244.1.17", "fd00::17"}
	in.ConfigMaps = configgen.ConfigMapGetterFunc(func(_ context.Context, ns, name string) (*v1.ConfigMap, error) {
		return cms[ns+"/"+name], nil
	})
	in.Secrets = configgen.SecretGetterFunc(func(_ context.Context, ns, name string) (*v1.Secret, error) {
		return secs[ns+"/"+name], nil
	})
	in.Services = configgen.ServiceListerFunc(func(_ context.Context, ns string) ([]*v1.Service, error) {
		return byNS[ns], nil
	})
	in.Node = staticNode(node)
	return in
}

func BenchmarkMakeEnvironmentVariables(b *testing.B) {
	for _, ports := range []int{1, 2} {
		b.Run(fmt.Sprintf("servicePorts=%d", ports), func(b *testing.B) {
			in := benchEnvInput(ports)
			ctx := context.Background()
			envs, _, err := configgen.MakeEnvironmentVariables(ctx, in)
			if err != nil {
				b.Fatal(err)
			}
			// 20 from the ConfigMap, 10 env entries, 8 for kubernetes, 3 + 5 per port per Service.
			if want := 20 + 10 + 8 + 10*(3+5*ports); len(envs) != want {
				b.Fatalf("got %d variables, want %d", len(envs), want)
			}
			b.ReportAllocs()
			defer benchpod.ReportCPU(b)()
			for b.Loop() {
				if _, _, err := configgen.MakeEnvironmentVariables(ctx, in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkExpandContainerCommandAndArgs expands three args against the environment of
// BenchmarkMakeEnvironmentVariables with one port per Service (118 variables, service links included), as
// generateContainerConfig does.
func BenchmarkExpandContainerCommandAndArgs(b *testing.B) {
	envs, _, err := configgen.MakeEnvironmentVariables(context.Background(), benchEnvInput(1))
	if err != nil {
		b.Fatal(err)
	}
	c := &v1.Container{Command: []string{"/server"}, Args: []string{"--listen=$(POD_IP):8080", "--name=$(POD_NAME)", "--verbose"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := configgen.ExpandContainerCommandAndArgs(c, envs); err != nil {
			b.Fatal(err)
		}
	}
}
