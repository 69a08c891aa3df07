package admission_test

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/admission"
	"github.com/podconfig/podconfig/defaults"
)

// A node-critical pod read from a file, admitted as the API server admits it: it gets its
// priority, the default ServiceAccount's token volume in every container, and the not-ready and
// unreachable tolerations.
func ExampleAdmit() {
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "agent", Namespace: "kube-system"},
		Spec: v1.PodSpec{
			PriorityClassName: "system-node-critical",
			Containers:        []v1.Container{{Name: "agent", Image: "agent:1"}},
		},
	}
	defaults.SetObjectDefaultsPod(pod, defaults.ObjectDefaultsOnly())
	if err := admission.Admit(pod, &admission.Objects{}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("priority:", *pod.Spec.Priority)
	fmt.Println("service account:", pod.Spec.ServiceAccountName)
	m := pod.Spec.Containers[0].VolumeMounts[0]
	fmt.Println("mount:", m.Name, m.MountPath, m.ReadOnly)
	for _, t := range pod.Spec.Tolerations {
		fmt.Println("toleration:", t.Key, *t.TolerationSeconds)
	}
	// Output:
	// priority: 2000001000
	// service account: default
	// mount: kube-api-access-w77rp /var/run/secrets/kubernetes.io/serviceaccount true
	// toleration: node.kubernetes.io/not-ready 300
	// toleration: node.kubernetes.io/unreachable 300
}

// A ServiceAccount the input does not hold is an error, as on a cluster.
func ExampleAdmit_missingServiceAccount() {
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"},
		Spec:       v1.PodSpec{ServiceAccountName: "web", Containers: []v1.Container{{Name: "web", Image: "web:1"}}},
	}
	fmt.Println(admission.Admit(pod, nil))
	// Output:
	// pods "web" is forbidden: error looking up service account shop/web: serviceaccount "web" not found
}

// The objects of an input prepared once, and each of its pods admitted against them: every pod
// gets the defaults of its namespace's LimitRange.
func ExamplePrepared_Admit() {
	objects := admission.Prepare(&admission.Objects{LimitRanges: []*v1.LimitRange{{
		ObjectMeta: metav1.ObjectMeta{Name: "defaults", Namespace: "shop"},
		Spec: v1.LimitRangeSpec{Limits: []v1.LimitRangeItem{{
			Type:    v1.LimitTypeContainer,
			Default: v1.ResourceList{v1.ResourceMemory: resource.MustParse("256Mi")},
		}}},
	}}})
	for _, name := range []string{"web", "worker"} {
		pod := &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop"},
			Spec:       v1.PodSpec{Containers: []v1.Container{{Name: name, Image: name + ":1"}}},
		}
		defaults.SetObjectDefaultsPod(pod, defaults.ObjectDefaultsOnly())
		if err := objects.Admit(pod); err != nil {
			fmt.Println(err)
			return
		}
		r := pod.Spec.Containers[0].Resources
		fmt.Println(name, "memory limit", r.Limits.Memory(), "request", r.Requests.Memory())
	}
	// Output:
	// web memory limit 256Mi request 256Mi
	// worker memory limit 256Mi request 256Mi
}
