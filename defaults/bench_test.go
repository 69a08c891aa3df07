package defaults

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// benchPod is a realistic web pod as written in a Deployment: two containers and a sidecar,
// probes, env from the downward API, a projected service-account token, configMap, secret and
// emptyDir volumes, and limits with no requests.
func benchPod() *v1.Pod {
	probe := func(port int32) *v1.Probe {
		return &v1.Probe{ProbeHandler: v1.ProbeHandler{HTTPGet: &v1.HTTPGetAction{Path: "/healthz", Port: intstr.FromInt32(port)}}}
	}
	limits := v1.ResourceList{v1.ResourceCPU: resourceMust("500m"), v1.ResourceMemory: resourceMust("512Mi")}
	env := []v1.EnvVar{
		{Name: "POD_NAME", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
		{Name: "POD_IP", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{FieldPath: "status.podIP"}}},
		{Name: "LOG_LEVEL", Value: "info"},
	}
	return &v1.Pod{Spec: v1.PodSpec{
		InitContainers: []v1.Container{{
			Name: "proxy", Image: "envoyproxy/envoy:v1.31.0", RestartPolicy: ptr.To(v1.ContainerRestartPolicyAlways),
			Ports:     []v1.ContainerPort{{Name: "admin", ContainerPort: 9901}},
			Resources: v1.ResourceRequirements{Limits: limits.DeepCopy()}, ReadinessProbe: probe(9901),
		}},
		Containers: []v1.Container{
			{
				Name: "web", Image: "registry.example.com/shop/web", Env: env,
				Ports:     []v1.ContainerPort{{Name: "http", ContainerPort: 8080}, {Name: "metrics", ContainerPort: 9090}},
				Resources: v1.ResourceRequirements{Limits: limits.DeepCopy()}, LivenessProbe: probe(8080), ReadinessProbe: probe(8080),
				Lifecycle:    &v1.Lifecycle{PreStop: &v1.LifecycleHandler{HTTPGet: &v1.HTTPGetAction{Path: "/drain", Port: intstr.FromInt32(8080)}}},
				VolumeMounts: []v1.VolumeMount{{Name: "config", MountPath: "/etc/web"}, {Name: "cache", MountPath: "/cache"}},
			},
			{
				Name: "worker", Image: "registry.example.com/shop/worker:2.4.1", Env: env,
				Resources: v1.ResourceRequirements{Limits: limits.DeepCopy()}, LivenessProbe: probe(8081),
			},
		},
		Volumes: []v1.Volume{
			{Name: "config", VolumeSource: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "web"}}}},
			{Name: "tls", VolumeSource: v1.VolumeSource{Secret: &v1.SecretVolumeSource{SecretName: "web-tls"}}},
			{Name: "cache", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
			{Name: "kube-api-access", VolumeSource: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{Sources: []v1.VolumeProjection{
				{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "token"}},
				{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "kube-root-ca.crt"}}},
				{DownwardAPI: &v1.DownwardAPIProjection{Items: []v1.DownwardAPIVolumeFile{{Path: "namespace", FieldRef: &v1.ObjectFieldSelector{FieldPath: "metadata.namespace"}}}}},
			}}}},
		},
	}}
}

// BenchmarkSetObjectDefaultsPod defaults a fresh copy of benchPod each time; BenchmarkDeepCopyPod
// measures the copy alone, to subtract.
func BenchmarkSetObjectDefaultsPod(b *testing.B) {
	base := benchPod()
	b.ReportAllocs()
	for b.Loop() {
		SetObjectDefaultsPod(base.DeepCopy())
	}
}

func BenchmarkDeepCopyPod(b *testing.B) {
	base := benchPod()
	b.ReportAllocs()
	for b.Loop() {
		_ = base.DeepCopy()
	}
}

// BenchmarkSetObjectDefaultsPodDefaulted defaults a pod that is already defaulted, as a kubelet
// that defaults every pod it receives from the API server would.
func BenchmarkSetObjectDefaultsPodDefaulted(b *testing.B) {
	pod := benchPod()
	SetObjectDefaultsPod(pod)
	b.ReportAllocs()
	for b.Loop() {
		SetObjectDefaultsPod(pod)
	}
}

func BenchmarkPullPolicyForImage(b *testing.B) {
	for _, image := range []string{"nginx:1.27", "nginx", "registry.example.com:5000/shop/web:latest"} {
		b.Run(image, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				pullPolicyForImage(image)
			}
		})
	}
}

// BenchmarkPrepareForCreate prepares a fresh copy of the defaulted benchPod each time; subtract
// BenchmarkDeepCopyPod.
func BenchmarkPrepareForCreate(b *testing.B) {
	base := benchPod()
	SetObjectDefaultsPod(base)
	b.ReportAllocs()
	for b.Loop() {
		PrepareForCreate(base.DeepCopy())
	}
}
