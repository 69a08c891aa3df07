package defaults_test

import (
	"fmt"

	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/admission"
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

// A pod read from a manifest goes through the API server's steps in its order: defaulting,
// admission, then the pod create strategy, which merges the pod's labels into its spread
// constraint, copies a deprecated AppArmor annotation into the field, drops the alpha
// emptyDir.mode and records the QoS class. Validation then sees what the API server would.
func ExamplePrepareForCreate() {
	pod := &v1.Pod{Spec: v1.PodSpec{
		Containers: []v1.Container{{Name: "web", Image: "nginx:1.27"}},
		Volumes:    []v1.Volume{{Name: "scratch", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Mode: ptr.To[int32](0o700)}}}},
		TopologySpreadConstraints: []v1.TopologySpreadConstraint{{
			MaxSkew: 1, TopologyKey: "topology.kubernetes.io/zone", WhenUnsatisfiable: v1.DoNotSchedule,
			LabelSelector:  &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			MatchLabelKeys: []string{"pod-template-hash"},
		}},
	}}
	pod.Name = "web-7c9d"
	pod.Labels = map[string]string{"app": "web", "pod-template-hash": "7c9d"}
	pod.Annotations = map[string]string{"container.apparmor.security.beta.kubernetes.io/web": "runtime/default"}

	defaults.SetRenderIdentity(pod)
	defaults.SetObjectDefaultsPod(pod, defaults.ObjectDefaultsOnly())
	if err := admission.Admit(pod, &admission.Objects{}); err != nil {
		fmt.Println(err)
		return
	}
	defaults.PrepareForCreate(pod)

	sel := pod.Spec.TopologySpreadConstraints[0].LabelSelector
	fmt.Println("spread selector:", metav1.FormatLabelSelector(sel))
	fmt.Println("web's AppArmor profile:", pod.Spec.Containers[0].SecurityContext.AppArmorProfile.Type)
	fmt.Println("emptyDir.mode kept:", pod.Spec.Volumes[0].EmptyDir.Mode != nil)
	fmt.Println("generation:", pod.Generation, "phase:", pod.Status.Phase, "qosClass:", pod.Status.QOSClass)
	// Output:
	// spread selector: app=web,pod-template-hash in (7c9d)
	// web's AppArmor profile: RuntimeDefault
	// emptyDir.mode kept: false
	// generation: 1 phase: Pending qosClass: BestEffort
}

// A Job read from a manifest gets the API server's defaults, then what its create strategy adds:
// the selector on its UID and the matching template labels that validation checks.
func ExampleSetObjectDefaultsWorkload() {
	job := &batchv1.Job{Spec: batchv1.JobSpec{Template: v1.PodTemplateSpec{Spec: v1.PodSpec{
		RestartPolicy: v1.RestartPolicyNever,
		Containers:    []v1.Container{{Name: "pi", Image: "perl:5.34"}},
	}}}}
	job.Name, job.Namespace, job.UID = "pi", "default", "8c5b1b3e-0f7a-4c55-9a38-4f0a6b1e2d11"

	defaults.SetObjectDefaultsWorkload(job)
	defaults.PrepareWorkloadForCreate(job)

	s := job.Spec
	fmt.Println("completions:", *s.Completions, "parallelism:", *s.Parallelism, "backoffLimit:", *s.BackoffLimit, "completionMode:", *s.CompletionMode)
	fmt.Println("podReplacementPolicy:", *s.PodReplacementPolicy, "generation:", job.Generation)
	fmt.Println("selector:", metav1.FormatLabelSelector(s.Selector))
	fmt.Println("template job-name:", s.Template.Labels["batch.kubernetes.io/job-name"], "imagePullPolicy:", s.Template.Spec.Containers[0].ImagePullPolicy)
	// Output:
	// completions: 1 parallelism: 1 backoffLimit: 6 completionMode: NonIndexed
	// podReplacementPolicy: TerminatingOrFailed generation: 1
	// selector: batch.kubernetes.io/controller-uid=8c5b1b3e-0f7a-4c55-9a38-4f0a6b1e2d11
	// template job-name: pi imagePullPolicy: IfNotPresent
}
