package defaults_test

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podconfig/podconfig/defaults"
)

// A pod as written in a manifest, with no namespace, UID or defaults, gets what the API server
// would give it, and a render identity, before podconfig renders it.
func ExampleSetObjectDefaultsPod() {
	pod := &v1.Pod{Spec: v1.PodSpec{
		HostNetwork: true,
		Containers: []v1.Container{{
			Name:  "web",
			Image: "nginx",
			Ports: []v1.ContainerPort{{ContainerPort: 8080}},
			Resources: v1.ResourceRequirements{
				Limits: v1.ResourceList{v1.ResourceMemory: resource.MustParse("256Mi")},
			},
			ReadinessProbe: &v1.Probe{ProbeHandler: v1.ProbeHandler{HTTPGet: &v1.HTTPGetAction{}}},
		}},
	}}
	pod.Name = "web"

	defaults.SetObjectDefaultsPod(pod)
	defaults.SetRenderIdentity(pod)

	c := pod.Spec.Containers[0]
	fmt.Println("namespace:", pod.Namespace, "uid:", pod.UID)
	fmt.Println("dnsPolicy:", pod.Spec.DNSPolicy, "restartPolicy:", pod.Spec.RestartPolicy, "enableServiceLinks:", *pod.Spec.EnableServiceLinks)
	fmt.Println("imagePullPolicy:", c.ImagePullPolicy, "terminationMessagePath:", c.TerminationMessagePath)
	fmt.Println("port:", c.Ports[0].Protocol, c.Ports[0].HostPort)
	fmt.Println("memory request:", c.Resources.Requests.Memory())
	fmt.Println("readiness:", c.ReadinessProbe.HTTPGet.Scheme, c.ReadinessProbe.HTTPGet.Path, c.ReadinessProbe.PeriodSeconds, c.ReadinessProbe.TimeoutSeconds)
	// Output:
	// namespace: default uid: e1ff9f8b-76eb-572b-bb09-376b1a72b073
	// dnsPolicy: ClusterFirst restartPolicy: Always enableServiceLinks: true
	// imagePullPolicy: Always terminationMessagePath: /dev/termination-log
	// port: TCP 8080
	// memory request: 256Mi
	// readiness: HTTP / 10 1
}

// An API server with the alpha gate H2CContainerProbe on also defaults httpGet.protocol.
func ExampleWithFeatureGates() {
	gates := defaults.DefaultFeatureGates()
	gates.H2CContainerProbe = true
	pod := &v1.Pod{Spec: v1.PodSpec{Containers: []v1.Container{{
		Name:          "web",
		Image:         "nginx:1.27",
		LivenessProbe: &v1.Probe{ProbeHandler: v1.ProbeHandler{HTTPGet: &v1.HTTPGetAction{}}},
	}}}}

	defaults.SetObjectDefaultsPod(pod, defaults.WithFeatureGates(gates))

	fmt.Println(*pod.Spec.Containers[0].LivenessProbe.HTTPGet.Protocol, pod.Spec.Containers[0].ImagePullPolicy)
	// Output:
	// HTTP1 IfNotPresent
}
