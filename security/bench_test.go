package security_test

import (
	"context"
	"strconv"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/internal/benchpod"
	"github.com/podconfig/podconfig/offline"
	"github.com/podconfig/podconfig/security"
)

// benchPod is a Burstable pod with pod- and container-level security contexts, the shape the
// configgen BenchmarkLinuxContainerConfig renders.
func benchPod() *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "6c1a0a8e-1b7e-4d7e-9d3c-0f1f5c2f0a11"},
		Spec: v1.PodSpec{
			SecurityContext: &v1.PodSecurityContext{
				RunAsUser: ptr.To[int64](1000), RunAsGroup: ptr.To[int64](3000), RunAsNonRoot: ptr.To(true),
				FSGroup: ptr.To[int64](2000), SupplementalGroups: []int64{4000},
				SeccompProfile: &v1.SeccompProfile{Type: v1.SeccompProfileTypeRuntimeDefault},
			},
			Containers: []v1.Container{{
				Name: "app", Image: "app:1",
				Resources: v1.ResourceRequirements{
					Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("250m"), v1.ResourceMemory: resource.MustParse("256Mi")},
					Limits:   v1.ResourceList{v1.ResourceCPU: resource.MustParse("1"), v1.ResourceMemory: resource.MustParse("512Mi")},
				},
				SecurityContext: &v1.SecurityContext{
					AllowPrivilegeEscalation: ptr.To(false),
					ReadOnlyRootFilesystem:   ptr.To(true),
					Capabilities:             &v1.Capabilities{Add: []v1.Capability{"NET_BIND_SERVICE"}, Drop: []v1.Capability{"ALL"}},
				},
			}},
		},
	}
}

func BenchmarkContainerSecurityContext(b *testing.B) {
	r := security.New(security.Config{ThermalThrottle: offline.ThermalPaths{
		"/sys/devices/system/cpu/cpu0/thermal_throttle", "/sys/devices/system/cpu/cpu1/thermal_throttle",
	}})
	pod := benchPod()
	in := security.ContainerInput{Pod: pod, Container: &pod.Spec.Containers[0], ImageUID: ptr.To[int64](0)}
	ctx := context.Background()
	if _, err := r.ContainerSecurityContext(ctx, in); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if _, err := r.ContainerSecurityContext(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerifyRunAsNonRoot(b *testing.B) {
	pod := benchPod()
	uid := ptr.To[int64](1000)
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if err := security.VerifyRunAsNonRoot(pod, &pod.Spec.Containers[0], uid, ""); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSandboxSecurityContext(b *testing.B) {
	r := security.New(security.Config{ThermalThrottle: offline.ThermalPaths{}})
	pod := benchPod()
	ctx := context.Background()
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if _, err := r.SandboxSecurityContext(ctx, pod, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyUserNamespaceToMounts gives eight mounts a hostUsers: false pod's mappings.
func BenchmarkApplyUserNamespaceToMounts(b *testing.B) {
	mapping := func() []*runtimeapi.IDMapping {
		return []*runtimeapi.IDMapping{{HostId: 65536, Length: 65536}}
	}
	ns := &runtimeapi.NamespaceOption{UsernsOptions: &runtimeapi.UserNamespace{
		Mode: runtimeapi.NamespaceMode_POD, Uids: mapping(), Gids: mapping()}}
	mounts := make([]*runtimeapi.Mount, 8)
	for i := range mounts {
		mounts[i] = &runtimeapi.Mount{}
	}
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		security.ApplyUserNamespaceToMounts(mounts, ns)
	}
}

// BenchmarkSandboxSysctls sets twelve sysctls of a pod's securityContext.
func BenchmarkSandboxSysctls(b *testing.B) {
	r := security.New(security.Config{ThermalThrottle: offline.ThermalPaths{}})
	pod := benchPod()
	for i := range 12 {
		pod.Spec.SecurityContext.Sysctls = append(pod.Spec.SecurityContext.Sysctls,
			v1.Sysctl{Name: "net.ipv4.conf.eth" + strconv.Itoa(i) + ".rp_filter", Value: "1"})
	}
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if len(r.SandboxSysctls(pod)) != 12 {
			b.Fatal("not twelve sysctls")
		}
	}
}
