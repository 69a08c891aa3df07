package defaults

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

// specWith is a pod spec with one init, one regular and one ephemeral container, after edit.
func specWith(edit func(*v1.PodSpec)) *v1.PodSpec {
	spec := &v1.PodSpec{
		InitContainers:      []v1.Container{{Name: "init", Image: "busybox"}},
		Containers:          []v1.Container{{Name: "app", Image: "nginx"}},
		EphemeralContainers: []v1.EphemeralContainer{{EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: "dbg", Image: "busybox"}}},
	}
	if edit != nil {
		edit(spec)
	}
	return spec
}

// everyContainer applies edit to each container of a specWith spec.
func everyContainer(edit func(*v1.Container)) func(*v1.PodSpec) {
	return func(s *v1.PodSpec) { visitContainers(s, edit) }
}

func TestDropDisabledFields(t *testing.T) {
	uid := ptr.To[int64](1000)
	userVolumes := func(withUsers bool) func(*v1.PodSpec) {
		u := func() *int64 {
			if withUsers {
				return uid
			}
			return nil
		}
		return func(s *v1.PodSpec) {
			s.Volumes = []v1.Volume{
				{Name: "s", VolumeSource: v1.VolumeSource{Secret: &v1.SecretVolumeSource{DefaultUser: u(), Items: []v1.KeyToPath{{Key: "k", Path: "p", User: u()}}}}},
				{Name: "c", VolumeSource: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{DefaultUser: u(), Items: []v1.KeyToPath{{Key: "k", Path: "p", User: u()}}}}},
				{Name: "d", VolumeSource: v1.VolumeSource{DownwardAPI: &v1.DownwardAPIVolumeSource{DefaultUser: u(), Items: []v1.DownwardAPIVolumeFile{{Path: "p", User: u()}}}}},
				{Name: "p", VolumeSource: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultUser: u(), Sources: []v1.VolumeProjection{
					{Secret: &v1.SecretProjection{Items: []v1.KeyToPath{{Key: "k", Path: "s", User: u()}}}},
					{ConfigMap: &v1.ConfigMapProjection{Items: []v1.KeyToPath{{Key: "k", Path: "c", User: u()}}}},
					{DownwardAPI: &v1.DownwardAPIProjection{Items: []v1.DownwardAPIVolumeFile{{Path: "d", User: u()}}}},
					{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "t", User: u()}},
					{ClusterTrustBundle: &v1.ClusterTrustBundleProjection{Path: "b", User: u()}},
					{PodCertificate: &v1.PodCertificateProjection{CredentialBundlePath: "pc", User: u()}},
				}}}},
			}
		}
	}
	secondSource := func(s *v1.PodSpec) {
		s.Volumes = []v1.Volume{{Name: "two", VolumeSource: v1.VolumeSource{
			Secret:    &v1.SecretVolumeSource{SecretName: "s"},
			ConfigMap: &v1.ConfigMapVolumeSource{DefaultUser: uid},
		}}}
	}
	probes := func(s *v1.PodSpec) {
		c := &s.Containers[0]
		c.LivenessProbe = &v1.Probe{ProbeHandler: v1.ProbeHandler{GRPC: &v1.GRPCAction{Port: 9, Mode: ptr.To(v1.GRPCProbeMode("TLS"))}}}
		c.ReadinessProbe = &v1.Probe{ProbeHandler: v1.ProbeHandler{HTTPGet: &v1.HTTPGetAction{Path: "/", Protocol: ptr.To(v1.HTTPProtocol("HTTP1"))}}}
		c.Lifecycle = &v1.Lifecycle{PreStop: &v1.LifecycleHandler{HTTPGet: &v1.HTTPGetAction{Protocol: ptr.To(v1.HTTPProtocol("HTTP1"))}}}
	}
	probesDropped := func(s *v1.PodSpec) {
		c := &s.Containers[0]
		c.LivenessProbe = &v1.Probe{ProbeHandler: v1.ProbeHandler{GRPC: &v1.GRPCAction{Port: 9}}}
		c.ReadinessProbe = &v1.Probe{ProbeHandler: v1.ProbeHandler{HTTPGet: &v1.HTTPGetAction{Path: "/"}}}
		c.Lifecycle = &v1.Lifecycle{PreStop: &v1.LifecycleHandler{HTTPGet: &v1.HTTPGetAction{}}}
	}
	restartRules := func(s *v1.PodSpec) {
		s.InitContainers = append(s.InitContainers, v1.Container{Name: "side", RestartPolicy: ptr.To(v1.ContainerRestartPolicyAlways)})
		s.InitContainers[0].RestartPolicy = ptr.To(v1.ContainerRestartPolicy("Never"))
		rules := []v1.ContainerRestartRule{{Action: "Restart"}}
		s.InitContainers[1].RestartPolicyRules = rules
		s.Containers[0].RestartPolicy = ptr.To(v1.ContainerRestartPolicy("Never"))
		s.Containers[0].RestartPolicyRules = rules
		s.EphemeralContainers[0].RestartPolicy = ptr.To(v1.ContainerRestartPolicy("Never"))
	}
	projected := func(s *v1.PodSpec) {
		s.Volumes = []v1.Volume{{Name: "p", VolumeSource: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{Sources: []v1.VolumeProjection{
			{ClusterTrustBundle: &v1.ClusterTrustBundleProjection{Path: "b"}},
			{PodCertificate: &v1.PodCertificateProjection{CredentialBundlePath: "pc"}},
		}}}}}
	}
	tests := []struct {
		name        string
		gates       func(*FeatureGates)
		input, want func(*v1.PodSpec)
	}{
		{"emptyDir.mode is dropped without EmptyDirVolumeMode",
			nil,
			func(s *v1.PodSpec) {
				s.Volumes = []v1.Volume{{Name: "e", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Mode: ptr.To[int32](0o700)}}}}
			},
			func(s *v1.PodSpec) {
				s.Volumes = []v1.Volume{{Name: "e", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}}}
			}},
		{"emptyDir.mode is kept with EmptyDirVolumeMode",
			func(g *FeatureGates) { g.EmptyDirVolumeMode = true },
			func(s *v1.PodSpec) {
				s.Volumes = []v1.Volume{{Name: "e", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Mode: ptr.To[int32](0o700)}}}}
			},
			func(s *v1.PodSpec) {
				s.Volumes = []v1.Volume{{Name: "e", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Mode: ptr.To[int32](0o700)}}}}
			}},
		{"volume user fields are dropped from every source without AtomicWriteVolumeUserFields",
			nil, userVolumes(true), userVolumes(false)},
		{"volume user fields are kept with AtomicWriteVolumeUserFields",
			func(g *FeatureGates) { g.AtomicWriteVolumeUserFields = true }, userVolumes(true), userVolumes(true)},
		{"the user fields of a volume's second source are kept, as the API server looks at its first",
			nil, secondSource, secondSource},
		{"bindMountOptions are dropped from every container without VolumeBindMountOptions",
			nil,
			everyContainer(func(c *v1.Container) {
				c.VolumeMounts = []v1.VolumeMount{{Name: "v", MountPath: "/v", BindMountOptions: []string{"nosuid"}}}
			}),
			everyContainer(func(c *v1.Container) { c.VolumeMounts = []v1.VolumeMount{{Name: "v", MountPath: "/v"}} })},
		{"a stopSignal is dropped without ContainerStopSignals, and the lifecycle it alone filled with it",
			nil,
			func(s *v1.PodSpec) {
				s.Containers[0].Lifecycle = &v1.Lifecycle{StopSignal: ptr.To(v1.SIGTERM)}
				s.InitContainers[0].Lifecycle = &v1.Lifecycle{StopSignal: ptr.To(v1.SIGTERM), PreStop: &v1.LifecycleHandler{Sleep: &v1.SleepAction{Seconds: 1}}}
			},
			func(s *v1.PodSpec) {
				s.InitContainers[0].Lifecycle = &v1.Lifecycle{PreStop: &v1.LifecycleHandler{Sleep: &v1.SleepAction{Seconds: 1}}}
			}},
		{"a stopSignal is kept with ContainerStopSignals",
			func(g *FeatureGates) { g.ContainerStopSignals = true },
			func(s *v1.PodSpec) { s.Containers[0].Lifecycle = &v1.Lifecycle{StopSignal: ptr.To(v1.SIGTERM)} },
			func(s *v1.PodSpec) { s.Containers[0].Lifecycle = &v1.Lifecycle{StopSignal: ptr.To(v1.SIGTERM)} }},
		{"a gRPC probe's mode and httpGet protocols are dropped without GRPCContainerProbeTLS and H2CContainerProbe",
			nil, probes, probesDropped},
		{"a gRPC probe's mode and httpGet protocols are kept with GRPCContainerProbeTLS and H2CContainerProbe",
			func(g *FeatureGates) { g.GRPCContainerProbeTLS, g.H2CContainerProbe = true, true }, probes, probes},
		{"evictionResponders and schedulingGroup are dropped without EvictionRequestAPI and GenericWorkload",
			nil,
			func(s *v1.PodSpec) {
				s.EvictionResponders = []v1.EvictionResponder{{Name: "r"}}
				s.SchedulingGroup = &v1.PodSchedulingGroup{}
			},
			nil},
		{"evictionResponders and schedulingGroup are kept with EvictionRequestAPI and GenericWorkload",
			func(g *FeatureGates) { g.EvictionRequestAPI, g.GenericWorkload = true, true },
			func(s *v1.PodSpec) {
				s.EvictionResponders = []v1.EvictionResponder{{Name: "r"}}
				s.SchedulingGroup = &v1.PodSchedulingGroup{}
			},
			func(s *v1.PodSpec) {
				s.EvictionResponders = []v1.EvictionResponder{{Name: "r"}}
				s.SchedulingGroup = &v1.PodSchedulingGroup{}
			}},
		{"restart policies and rules are kept with ContainerRestartRules",
			nil, restartRules, restartRules},
		{"without ContainerRestartRules only a sidecar's restartPolicy Always is kept",
			func(g *FeatureGates) { g.ContainerRestartRules = false },
			restartRules,
			func(s *v1.PodSpec) {
				s.InitContainers = append(s.InitContainers, v1.Container{Name: "side", RestartPolicy: ptr.To(v1.ContainerRestartPolicyAlways)})
			}},
		{"fileKeyRef is kept with EnvFiles and dropped without",
			func(g *FeatureGates) { g.EnvFiles = false },
			everyContainer(func(c *v1.Container) {
				c.Env = []v1.EnvVar{{Name: "A", ValueFrom: &v1.EnvVarSource{FileKeyRef: &v1.FileKeySelector{VolumeName: "v", Path: "p", Key: "k"}}}}
			}),
			everyContainer(func(c *v1.Container) { c.Env = []v1.EnvVar{{Name: "A", ValueFrom: &v1.EnvVarSource{}}} })},
		{"projected clusterTrustBundle and podCertificate sources are kept by default",
			nil, projected, projected},
		{"projected clusterTrustBundle and podCertificate sources become empty sources without their gates",
			func(g *FeatureGates) { g.ClusterTrustBundleProjection, g.PodCertificateRequest = false, false },
			projected,
			func(s *v1.PodSpec) {
				s.Volumes = []v1.Volume{{Name: "p", VolumeSource: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{Sources: []v1.VolumeProjection{{}, {}}}}}}
			}},
		{"fields of gates locked on are kept",
			nil,
			func(s *v1.PodSpec) {
				s.HostUsers = ptr.To(false)
				s.HostnameOverride = ptr.To("h")
				s.SecurityContext = &v1.PodSecurityContext{SELinuxChangePolicy: ptr.To(v1.SELinuxChangePolicyRecursive),
					SupplementalGroupsPolicy: ptr.To(v1.SupplementalGroupsPolicyStrict)}
				s.Containers[0].ResizePolicy = []v1.ContainerResizePolicy{{ResourceName: v1.ResourceCPU, RestartPolicy: v1.NotRequired}}
				s.Containers[0].VolumeMounts = []v1.VolumeMount{{Name: "v", MountPath: "/v", RecursiveReadOnly: ptr.To(v1.RecursiveReadOnlyEnabled)}}
				s.Containers[0].SecurityContext = &v1.SecurityContext{ProcMount: ptr.To(v1.UnmaskedProcMount)}
				s.ResourceClaims = []v1.PodResourceClaim{{Name: "gpu"}}
				s.Volumes = []v1.Volume{{Name: "img", VolumeSource: v1.VolumeSource{Image: &v1.ImageVolumeSource{Reference: "busybox"}}}}
				s.TopologySpreadConstraints = []v1.TopologySpreadConstraint{{NodeAffinityPolicy: ptr.To(v1.NodeInclusionPolicyHonor)}}
			},
			func(s *v1.PodSpec) {
				s.HostUsers = ptr.To(false)
				s.HostnameOverride = ptr.To("h")
				s.SecurityContext = &v1.PodSecurityContext{SELinuxChangePolicy: ptr.To(v1.SELinuxChangePolicyRecursive),
					SupplementalGroupsPolicy: ptr.To(v1.SupplementalGroupsPolicyStrict)}
				s.Containers[0].ResizePolicy = []v1.ContainerResizePolicy{{ResourceName: v1.ResourceCPU, RestartPolicy: v1.NotRequired}}
				s.Containers[0].VolumeMounts = []v1.VolumeMount{{Name: "v", MountPath: "/v", RecursiveReadOnly: ptr.To(v1.RecursiveReadOnlyEnabled)}}
				s.Containers[0].SecurityContext = &v1.SecurityContext{ProcMount: ptr.To(v1.UnmaskedProcMount)}
				s.ResourceClaims = []v1.PodResourceClaim{{Name: "gpu"}}
				s.Volumes = []v1.Volume{{Name: "img", VolumeSource: v1.VolumeSource{Image: &v1.ImageVolumeSource{Reference: "busybox"}}}}
				s.TopologySpreadConstraints = []v1.TopologySpreadConstraint{{NodeAffinityPolicy: ptr.To(v1.NodeInclusionPolicyHonor)}}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gates := DefaultFeatureGates()
			if tt.gates != nil {
				tt.gates(&gates)
			}
			got := specWith(tt.input)
			dropDisabledFields(got, nil, gates)
			assertSemantic(t, specWith(tt.want), got)
		})
	}
}
