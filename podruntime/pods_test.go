package podruntime_test

import (
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/defaults"
)

// The images of the tests: present on the runtime, or in its registry to be pulled.
const (
	presentImage   = "registry.example/app:1"
	presentImageID = "sha256:app1"
	pulledImage    = "registry.example/pulled:1"
	pulledImageID  = "sha256:pulled1"
)

// testPod is a pod as the API server stores it, with the defaults applied.
func testPod(mutate func(*v1.Pod)) *v1.Pod {
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "0b6e3d7a-0000-4000-8000-000000000001"},
		Spec: v1.PodSpec{
			HostNetwork: true,
			Containers:  []v1.Container{{Name: "main", Image: presentImage, ImagePullPolicy: v1.PullIfNotPresent}},
		},
	}
	if mutate != nil {
		mutate(pod)
	}
	defaults.SetObjectDefaultsPod(pod)
	return pod
}

// container is a container of the tests' image.
func container(name string) v1.Container {
	return v1.Container{Name: name, Image: presentImage, ImagePullPolicy: v1.PullIfNotPresent}
}

// sidecar is an init container that keeps running.
func sidecar(name string) v1.Container {
	c := container(name)
	always := v1.ContainerRestartPolicyAlways
	c.RestartPolicy = &always
	return c
}
