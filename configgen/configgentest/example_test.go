package configgentest_test

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/security"
)

// A unit test of a pod spec: does the container pass runAsNonRoot with the image it uses?
func ExampleNewNode() {
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "0b1d"},
		Spec: v1.PodSpec{
			EnableServiceLinks: ptr.To(true),
			SecurityContext:    &v1.PodSecurityContext{RunAsNonRoot: ptr.To(true)},
			Containers:         []v1.Container{{Name: "web", Image: "web:1"}},
		},
	}
	node := configgentest.NewNode()
	gen, _ := node.Generator()
	_, err := gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], ImageRef: "web:1", Volumes: node.Volumes(pod)})
	fmt.Println(err)

	node.ImageUsers["web:1"] = security.ImageUser{UID: ptr.To[int64](1000)}
	gen, _ = node.Generator()
	cfg, err := gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], ImageRef: "web:1", Volumes: node.Volumes(pod)})
	fmt.Println(err, cfg.Linux.SecurityContext.RunAsUser.Value)
	// Output:
	// container has runAsNonRoot and image will run as root (pod: "web_shop(0b1d)", container: web)
	// <nil> 1000
}
