package configgen

import (
	"context"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/internal/benchpod"
	"github.com/podconfig/podconfig/resources"
)

// noThermalPaths masks no thermal_throttle directory, whatever the machine has. (The offline
// package's ThermalPaths builds on this package, so its internal tests cannot import it.)
type noThermalPaths struct{}

func (noThermalPaths) ThermalThrottlePaths() []string { return nil }

// BenchmarkLinuxContainerConfig measures the CRI LinuxContainerConfig of a Burstable container
// with pod and container security contexts: security context plus resources (kubelet's
// generateLinuxContainerConfig).
func BenchmarkLinuxContainerConfig(b *testing.B) {
	res := resources.DefaultConfig(resources.Node{CgroupV2: true, MemoryCapacity: 32 << 30, HugePageSizes: []string{"2MB", "1GB"}})
	opts := Options{Resources: &res}
	opts.Security.ThermalThrottle = noThermalPaths{}
	g, err := New(opts)
	if err != nil {
		b.Fatal(err)
	}
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "uid-1"},
		Spec: v1.PodSpec{
			SecurityContext: &v1.PodSecurityContext{
				RunAsUser: ptr.To[int64](1000), RunAsGroup: ptr.To[int64](3000), RunAsNonRoot: ptr.To(true),
				FSGroup: ptr.To[int64](2000), SupplementalGroups: []int64{4000},
				SeccompProfile: &v1.SeccompProfile{Type: v1.SeccompProfileTypeRuntimeDefault},
			},
			Containers: []v1.Container{{
				Name: "web", Image: "registry.example/web:1.2.3",
				Resources: v1.ResourceRequirements{
					Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("250m"), v1.ResourceMemory: resource.MustParse("256Mi")},
					Limits:   v1.ResourceList{v1.ResourceCPU: resource.MustParse("1"), v1.ResourceMemory: resource.MustParse("512Mi")},
				},
				SecurityContext: &v1.SecurityContext{
					AllowPrivilegeEscalation: ptr.To(false), ReadOnlyRootFilesystem: ptr.To(true),
					Capabilities: &v1.Capabilities{Drop: []v1.Capability{"ALL"}, Add: []v1.Capability{"NET_BIND_SERVICE"}},
				},
			}},
		},
	}
	c := &pod.Spec.Containers[0]
	ctx := context.Background()
	uid := ptr.To[int64](1000)
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if _, err := g.linuxContainerConfig(ctx, pod, c, uid, "", ""); err != nil {
			b.Fatal(err)
		}
	}
}
