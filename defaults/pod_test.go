package defaults

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

func TestPodSpecRules(t *testing.T) {
	tests := []struct {
		name string
		edit func(*v1.Pod)
		get  func(*v1.Pod) any
		want any
	}{
		{"enableServiceLinks defaults to true", nil,
			func(p *v1.Pod) any { return p.Spec.EnableServiceLinks }, ptr.To(true)},
		{"enableServiceLinks false is kept", func(p *v1.Pod) { p.Spec.EnableServiceLinks = ptr.To(false) },
			func(p *v1.Pod) any { return p.Spec.EnableServiceLinks }, ptr.To(false)},
		{"dnsPolicy defaults to ClusterFirst", nil,
			func(p *v1.Pod) any { return p.Spec.DNSPolicy }, v1.DNSClusterFirst},
		{"dnsPolicy defaults to ClusterFirst on the host network too", func(p *v1.Pod) { p.Spec.HostNetwork = true },
			func(p *v1.Pod) any { return p.Spec.DNSPolicy }, v1.DNSClusterFirst},
		{"dnsPolicy Default is kept", func(p *v1.Pod) { p.Spec.DNSPolicy = v1.DNSDefault },
			func(p *v1.Pod) any { return p.Spec.DNSPolicy }, v1.DNSDefault},
		{"restartPolicy defaults to Always", nil,
			func(p *v1.Pod) any { return p.Spec.RestartPolicy }, v1.RestartPolicyAlways},
		{"restartPolicy OnFailure is kept", func(p *v1.Pod) { p.Spec.RestartPolicy = v1.RestartPolicyOnFailure },
			func(p *v1.Pod) any { return p.Spec.RestartPolicy }, v1.RestartPolicyOnFailure},
		{"securityContext defaults to an empty one", nil,
			func(p *v1.Pod) any { return p.Spec.SecurityContext }, &v1.PodSecurityContext{}},
		{"securityContext set is kept", func(p *v1.Pod) { p.Spec.SecurityContext = &v1.PodSecurityContext{RunAsUser: ptr.To[int64](1000)} },
			func(p *v1.Pod) any { return p.Spec.SecurityContext }, &v1.PodSecurityContext{RunAsUser: ptr.To[int64](1000)}},
		{"terminationGracePeriodSeconds defaults to 30", nil,
			func(p *v1.Pod) any { return p.Spec.TerminationGracePeriodSeconds }, ptr.To[int64](30)},
		{"terminationGracePeriodSeconds 0 is kept", func(p *v1.Pod) { p.Spec.TerminationGracePeriodSeconds = ptr.To[int64](0) },
			func(p *v1.Pod) any { return p.Spec.TerminationGracePeriodSeconds }, ptr.To[int64](0)},
		{"terminationGracePeriodSeconds 5 is kept", func(p *v1.Pod) { p.Spec.TerminationGracePeriodSeconds = ptr.To[int64](5) },
			func(p *v1.Pod) any { return p.Spec.TerminationGracePeriodSeconds }, ptr.To[int64](5)},
		{"a negative terminationGracePeriodSeconds becomes 1", func(p *v1.Pod) { p.Spec.TerminationGracePeriodSeconds = ptr.To[int64](-7) },
			func(p *v1.Pod) any { return p.Spec.TerminationGracePeriodSeconds }, ptr.To[int64](1)},
		{"schedulerName defaults to default-scheduler", nil,
			func(p *v1.Pod) any { return p.Spec.SchedulerName }, "default-scheduler"},
		{"schedulerName set is kept", func(p *v1.Pod) { p.Spec.SchedulerName = "batch" },
			func(p *v1.Pod) any { return p.Spec.SchedulerName }, "batch"},
		{"serviceAccountName comes from the deprecated serviceAccount", func(p *v1.Pod) { p.Spec.DeprecatedServiceAccount = "old" },
			func(p *v1.Pod) any { return [2]string{p.Spec.ServiceAccountName, p.Spec.DeprecatedServiceAccount} }, [2]string{"old", "old"}},
		{"serviceAccount follows serviceAccountName", func(p *v1.Pod) { p.Spec.ServiceAccountName = "new" },
			func(p *v1.Pod) any { return [2]string{p.Spec.ServiceAccountName, p.Spec.DeprecatedServiceAccount} }, [2]string{"new", "new"}},
		{"serviceAccountName wins over a different serviceAccount", func(p *v1.Pod) { p.Spec.ServiceAccountName, p.Spec.DeprecatedServiceAccount = "new", "old" },
			func(p *v1.Pod) any { return [2]string{p.Spec.ServiceAccountName, p.Spec.DeprecatedServiceAccount} }, [2]string{"new", "new"}},
		{"no service account stays empty", nil,
			func(p *v1.Pod) any { return [2]string{p.Spec.ServiceAccountName, p.Spec.DeprecatedServiceAccount} }, [2]string{"", ""}},
		{"status podIPs comes from podIP", func(p *v1.Pod) { p.Status.PodIP = "10.0.0.1" },
			func(p *v1.Pod) any { return p.Status.PodIPs }, []v1.PodIP{{IP: "10.0.0.1"}}},
		{"status podIP comes from podIPs", func(p *v1.Pod) { p.Status.PodIPs = []v1.PodIP{{IP: "fd00::1"}, {IP: "10.0.0.1"}} },
			func(p *v1.Pod) any { return p.Status.PodIP }, "fd00::1"},
		{"status podIP wins over disagreeing podIPs", func(p *v1.Pod) {
			p.Status.PodIP = "10.0.0.1"
			p.Status.PodIPs = []v1.PodIP{{IP: "10.0.0.2"}, {IP: "fd00::2"}}
		}, func(p *v1.Pod) any { return p.Status.PodIPs }, []v1.PodIP{{IP: "10.0.0.1"}}},
		{"status podIP and podIPs that agree are kept", func(p *v1.Pod) {
			p.Status.PodIP = "10.0.0.1"
			p.Status.PodIPs = []v1.PodIP{{IP: "10.0.0.1"}, {IP: "fd00::1"}}
		}, func(p *v1.Pod) any { return p.Status.PodIPs }, []v1.PodIP{{IP: "10.0.0.1"}, {IP: "fd00::1"}}},
		{"namespace and UID are not API defaults", nil,
			func(p *v1.Pod) any { return [2]string{p.Namespace, string(p.UID)} }, [2]string{"", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := podWith(tt.edit)
			SetObjectDefaultsPod(pod)
			assert.Equal(t, tt.want, tt.get(pod))
		})
	}
}

func TestNilIsLeftAlone(t *testing.T) {
	assert.NotPanics(t, func() {
		SetObjectDefaultsPod(nil)
		SetDefaultsPodTemplateSpec(nil)
		SetRenderIdentity(nil)
		DefaultPodLevelResources(nil)
		SetObjectDefaultsPod(&v1.Pod{}, nil)
	})
}

func TestPodTemplateSpec(t *testing.T) {
	template := &v1.PodTemplateSpec{Spec: v1.PodSpec{
		HostNetwork:                   true,
		TerminationGracePeriodSeconds: ptr.To[int64](-1),
		Volumes:                       []v1.Volume{{Name: "scratch"}},
		Containers: []v1.Container{{
			Name:  "app",
			Image: "nginx",
			Ports: []v1.ContainerPort{{ContainerPort: 80}},
			Resources: v1.ResourceRequirements{
				Limits: v1.ResourceList{v1.ResourceCPU: resourceMust("500m")},
			},
			LivenessProbe: &v1.Probe{ProbeHandler: v1.ProbeHandler{HTTPGet: &v1.HTTPGetAction{}}},
		}},
	}}
	SetDefaultsPodTemplateSpec(template)

	spec := template.Spec
	c := spec.Containers[0]
	t.Run("the pod spec rules apply", func(t *testing.T) {
		assert.Equal(t, v1.DNSClusterFirst, spec.DNSPolicy)
		assert.Equal(t, v1.RestartPolicyAlways, spec.RestartPolicy)
		assert.Equal(t, &v1.PodSecurityContext{}, spec.SecurityContext)
		assert.Equal(t, "default-scheduler", spec.SchedulerName)
	})
	t.Run("volumes and containers are defaulted", func(t *testing.T) {
		assert.Equal(t, &v1.EmptyDirVolumeSource{}, spec.Volumes[0].EmptyDir)
		assert.Equal(t, v1.PullAlways, c.ImagePullPolicy)
		assert.Equal(t, "/dev/termination-log", c.TerminationMessagePath)
		assert.Equal(t, v1.ProtocolTCP, c.Ports[0].Protocol)
		assert.Equal(t, int32(10), c.LivenessProbe.PeriodSeconds)
		assert.Equal(t, "/", c.LivenessProbe.HTTPGet.Path)
	})
	t.Run("the Pod-only rules do not apply to a template", func(t *testing.T) {
		assert.Nil(t, spec.EnableServiceLinks)
		assert.Equal(t, int32(0), c.Ports[0].HostPort)
		assert.Nil(t, c.Resources.Requests)
		assert.Equal(t, ptr.To[int64](-1), spec.TerminationGracePeriodSeconds)
	})
}
