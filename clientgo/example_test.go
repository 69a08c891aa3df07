package clientgo_test

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/clientgo"
	"github.com/podconfig/podconfig/configgen"
)

// A provider serves configgen's getters from its informers; here over a fake clientset.
func ExampleFromInformers() {
	client := fake.NewSimpleClientset(
		&v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "settings"}, Data: map[string]string{"level": "debug"}},
	)
	factory := informers.NewSharedInformerFactory(client, 0)
	sources := clientgo.FromInformers(factory, "vk-node")
	ctx, cancel := context.WithCancel(context.Background())
	defer func() {
		cancel()
		factory.Shutdown()
	}()
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())

	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "cart-0"},
		Spec: v1.PodSpec{EnableServiceLinks: ptr.To(false), Containers: []v1.Container{{Name: "cart", Env: []v1.EnvVar{{
			Name: "LEVEL", ValueFrom: &v1.EnvVarSource{ConfigMapKeyRef: &v1.ConfigMapKeySelector{
				LocalObjectReference: v1.LocalObjectReference{Name: "settings"}, Key: "level"}},
		}}}}},
	}
	envs, _, err := configgen.MakePodEnvironmentVariables(ctx, configgen.PodEnvInput{
		Pod: pod, ConfigMaps: sources.ConfigMaps, Secrets: sources.Secrets, Services: sources.Services, Node: sources.Node,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(envs[0].Container.Name, envs[0].Env)
	// Output:
	// cart [{LEVEL debug nil}]
}
