package mutate

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// combination makes a pod hold fields that are valid alone and refused together (or refused only
// in a pod of some shape), and returns the field it changed last.
type combination struct {
	name  string
	apply func(m *Mutator, pod *v1.Pod) string
}

// PodCombination applies one combination, drawn at random, to pod. A pod has at least one
// container; one without is given one first.
func (m *Mutator) PodCombination(pod *v1.Pod) Change {
	if len(pod.Spec.Containers) == 0 {
		pod.Spec.Containers = []v1.Container{{Name: "c0", Image: "busybox"}}
	}
	c := pick(m, combinations)
	return Change{c.apply(m, pod), "(" + c.name + ")"}
}

// container returns a random regular container of pod and its path.
func (m *Mutator) container(pod *v1.Pod) (*v1.Container, string) {
	i := m.r.IntN(len(pod.Spec.Containers))
	return &pod.Spec.Containers[i], fmt.Sprintf("spec.containers[%d]", i)
}

func (m *Mutator) securityContext(c *v1.Container) *v1.SecurityContext {
	if c.SecurityContext == nil {
		c.SecurityContext = &v1.SecurityContext{}
	}
	return c.SecurityContext
}

var combinations = []combination{
	{"requests above limits", func(m *Mutator, pod *v1.Pod) string {
		c, p := m.container(pod)
		name := pick(m, []v1.ResourceName{v1.ResourceMemory, v1.ResourceCPU, v1.ResourceEphemeralStorage})
		if c.Resources.Limits == nil {
			c.Resources.Limits = v1.ResourceList{}
		}
		if c.Resources.Requests == nil {
			c.Resources.Requests = v1.ResourceList{}
		}
		c.Resources.Limits[name] = resource.MustParse("1")
		c.Resources.Requests[name] = resource.MustParse("2")
		return p + ".resources.requests[" + string(name) + "]"
	}},
	{"hugepages without cpu or memory", func(m *Mutator, pod *v1.Pod) string {
		c, p := m.container(pod)
		c.Resources = v1.ResourceRequirements{
			Limits:   v1.ResourceList{"hugepages-2Mi": resource.MustParse("4Mi")},
			Requests: v1.ResourceList{"hugepages-2Mi": resource.MustParse("4Mi")},
		}
		return p + ".resources"
	}},
	{"pod resources below a container's", func(m *Mutator, pod *v1.Pod) string {
		c, _ := m.container(pod)
		c.Resources.Limits = v1.ResourceList{v1.ResourceMemory: resource.MustParse("2Gi")}
		c.Resources.Requests = v1.ResourceList{v1.ResourceMemory: resource.MustParse("2Gi")}
		pod.Spec.Resources = &v1.ResourceRequirements{Limits: v1.ResourceList{v1.ResourceMemory: resource.MustParse("1Gi")}}
		return "spec.resources.limits[memory]"
	}},
	{"host network with a hostPort unlike the containerPort", func(m *Mutator, pod *v1.Pod) string {
		c, p := m.container(pod)
		pod.Spec.HostNetwork = true
		c.Ports = append(c.Ports, v1.ContainerPort{ContainerPort: 8080, HostPort: 9090, Protocol: v1.ProtocolTCP})
		return fmt.Sprintf("%s.ports[%d].hostPort", p, len(c.Ports)-1)
	}},
	{"one hostPort in two containers", func(m *Mutator, pod *v1.Pod) string {
		pod.Spec.Containers = append(pod.Spec.Containers, *pod.Spec.Containers[0].DeepCopy())
		last := len(pod.Spec.Containers) - 1
		pod.Spec.Containers[last].Name += "-twin"
		for _, i := range []int{0, last} {
			pod.Spec.Containers[i].Ports = append(pod.Spec.Containers[i].Ports, v1.ContainerPort{ContainerPort: 80, HostPort: 8000, Protocol: v1.ProtocolTCP})
		}
		return fmt.Sprintf("spec.containers[%d].ports", last)
	}},
	{"a port name twice in a container", func(m *Mutator, pod *v1.Pod) string {
		c, p := m.container(pod)
		c.Ports = append(c.Ports, v1.ContainerPort{Name: "web", ContainerPort: 80, Protocol: v1.ProtocolTCP},
			v1.ContainerPort{Name: "web", ContainerPort: 81, Protocol: v1.ProtocolTCP})
		return p + ".ports"
	}},
	{"dnsPolicy None without nameservers", func(m *Mutator, pod *v1.Pod) string {
		pod.Spec.DNSPolicy = v1.DNSNone
		pod.Spec.DNSConfig = nil
		return "spec.dnsConfig"
	}},
	{"shared process namespace with hostPID", func(m *Mutator, pod *v1.Pod) string {
		pod.Spec.ShareProcessNamespace = ptr.To(true)
		pod.Spec.HostPID = true
		return "spec.shareProcessNamespace"
	}},
	{"hostUsers false with a host namespace", func(m *Mutator, pod *v1.Pod) string {
		pod.Spec.HostUsers = ptr.To(false)
		switch m.r.IntN(3) {
		case 0:
			pod.Spec.HostNetwork = true
		case 1:
			pod.Spec.HostPID = true
		default:
			pod.Spec.HostIPC = true
		}
		return "spec.hostUsers"
	}},
	{"procMount Unmasked in the host user namespace", func(m *Mutator, pod *v1.Pod) string {
		c, p := m.container(pod)
		m.securityContext(c).ProcMount = ptr.To(v1.UnmaskedProcMount)
		pod.Spec.HostUsers = nil
		return p + ".securityContext.procMount"
	}},
	{"a net sysctl with host network", func(m *Mutator, pod *v1.Pod) string {
		pod.Spec.HostNetwork = true
		if pod.Spec.SecurityContext == nil {
			pod.Spec.SecurityContext = &v1.PodSecurityContext{}
		}
		pod.Spec.SecurityContext.Sysctls = append(pod.Spec.SecurityContext.Sysctls, v1.Sysctl{Name: "net.ipv4.ip_forward", Value: "1"})
		return "spec.securityContext.sysctls"
	}},
	{"a mount of an undefined volume", func(m *Mutator, pod *v1.Pod) string {
		c, p := m.container(pod)
		c.VolumeMounts = append(c.VolumeMounts, v1.VolumeMount{Name: "nowhere", MountPath: "/nowhere"})
		return fmt.Sprintf("%s.volumeMounts[%d].name", p, len(c.VolumeMounts)-1)
	}},
	{"subPath and subPathExpr together", func(m *Mutator, pod *v1.Pod) string {
		c, p := m.container(pod)
		pod.Spec.Volumes = append(pod.Spec.Volumes, v1.Volume{Name: "both", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}})
		c.VolumeMounts = append(c.VolumeMounts, v1.VolumeMount{Name: "both", MountPath: "/both", SubPath: "a", SubPathExpr: "$(POD)"})
		return fmt.Sprintf("%s.volumeMounts[%d].subPathExpr", p, len(c.VolumeMounts)-1)
	}},
	{"one mountPath twice", func(m *Mutator, pod *v1.Pod) string {
		c, p := m.container(pod)
		pod.Spec.Volumes = append(pod.Spec.Volumes, v1.Volume{Name: "twice", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}})
		c.VolumeMounts = append(c.VolumeMounts, v1.VolumeMount{Name: "twice", MountPath: "/twice"}, v1.VolumeMount{Name: "twice", MountPath: "/twice"})
		return p + ".volumeMounts"
	}},
	{"a volume with two sources", func(m *Mutator, pod *v1.Pod) string {
		pod.Spec.Volumes = append(pod.Spec.Volumes, v1.Volume{Name: "two", VolumeSource: v1.VolumeSource{
			EmptyDir: &v1.EmptyDirVolumeSource{}, HostPath: &v1.HostPathVolumeSource{Path: "/tmp"}}})
		return fmt.Sprintf("spec.volumes[%d]", len(pod.Spec.Volumes)-1)
	}},
	{"a probe on an init container that is not a sidecar", func(m *Mutator, pod *v1.Pod) string {
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, v1.Container{Name: "init-probed", Image: "busybox",
			TerminationMessagePolicy: v1.TerminationMessageReadFile, TerminationMessagePath: v1.TerminationMessagePathDefault,
			ImagePullPolicy: v1.PullIfNotPresent,
			ReadinessProbe: &v1.Probe{ProbeHandler: v1.ProbeHandler{Exec: &v1.ExecAction{Command: []string{"true"}}},
				TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3}})
		return fmt.Sprintf("spec.initContainers[%d].readinessProbe", len(pod.Spec.InitContainers)-1)
	}},
	{"an init container named like a container", func(m *Mutator, pod *v1.Pod) string {
		c, _ := m.container(pod)
		init := *c.DeepCopy()
		init.Ports = nil
		init.ReadinessProbe, init.LivenessProbe, init.StartupProbe, init.Lifecycle = nil, nil, nil, nil
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, init)
		return fmt.Sprintf("spec.initContainers[%d].name", len(pod.Spec.InitContainers)-1)
	}},
	{"a restartPolicy on a regular container", func(m *Mutator, pod *v1.Pod) string {
		c, p := m.container(pod)
		c.RestartPolicy = ptr.To(pick(m, []v1.ContainerRestartPolicy{v1.ContainerRestartPolicyAlways, "OnFailure", "Never"}))
		return p + ".restartPolicy"
	}},
	{"privileged without privilege escalation", func(m *Mutator, pod *v1.Pod) string {
		c, p := m.container(pod)
		sc := m.securityContext(c)
		sc.Privileged = ptr.To(true)
		sc.AllowPrivilegeEscalation = ptr.To(false)
		return p + ".securityContext"
	}},
	{"CAP_SYS_ADMIN without privilege escalation", func(m *Mutator, pod *v1.Pod) string {
		c, p := m.container(pod)
		sc := m.securityContext(c)
		sc.Capabilities = &v1.Capabilities{Add: []v1.Capability{"SYS_ADMIN"}}
		sc.AllowPrivilegeEscalation = ptr.To(false)
		return p + ".securityContext"
	}},
	{"a seccomp annotation unlike the field", func(m *Mutator, pod *v1.Pod) string {
		if pod.Spec.SecurityContext == nil {
			pod.Spec.SecurityContext = &v1.PodSecurityContext{}
		}
		pod.Spec.SecurityContext.SeccompProfile = &v1.SeccompProfile{Type: v1.SeccompProfileTypeRuntimeDefault}
		if pod.Annotations == nil {
			pod.Annotations = map[string]string{}
		}
		pod.Annotations[v1.SeccompPodAnnotationKey] = "unconfined"
		return "spec.securityContext.seccompProfile.type"
	}},
	{"an AppArmor annotation unlike the field", func(m *Mutator, pod *v1.Pod) string {
		c, p := m.container(pod)
		m.securityContext(c).AppArmorProfile = &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeRuntimeDefault}
		if pod.Annotations == nil {
			pod.Annotations = map[string]string{}
		}
		pod.Annotations[v1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix+c.Name] = "unconfined"
		return p + ".securityContext.appArmorProfile.type"
	}},
	{"a nodeName with scheduling gates", func(m *Mutator, pod *v1.Pod) string {
		pod.Spec.NodeName = "node-1"
		pod.Spec.SchedulingGates = []v1.PodSchedulingGate{{Name: "example.com/wait"}}
		return "spec.nodeName"
	}},
	{"lifecycle hooks on an init container that is not a sidecar", func(m *Mutator, pod *v1.Pod) string {
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, v1.Container{Name: "init-hooked", Image: "busybox",
			TerminationMessagePolicy: v1.TerminationMessageReadFile, TerminationMessagePath: v1.TerminationMessagePathDefault,
			ImagePullPolicy: v1.PullIfNotPresent,
			Lifecycle:       &v1.Lifecycle{PostStart: &v1.LifecycleHandler{Exec: &v1.ExecAction{Command: []string{"true"}}}}})
		return fmt.Sprintf("spec.initContainers[%d].lifecycle", len(pod.Spec.InitContainers)-1)
	}},
	{"a token volume without a service account", func(m *Mutator, pod *v1.Pod) string {
		pod.Spec.ServiceAccountName = ""
		pod.Spec.DeprecatedServiceAccount = ""
		pod.Spec.Volumes = append(pod.Spec.Volumes, v1.Volume{Name: "token", VolumeSource: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{
			Sources:     []v1.VolumeProjection{{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr.To[int64](3600)}}},
			DefaultMode: ptr.To[int32](0o644)}}})
		return fmt.Sprintf("spec.volumes[%d].projected", len(pod.Spec.Volumes)-1)
	}},
	{"topology spread minDomains with ScheduleAnyway", func(m *Mutator, pod *v1.Pod) string {
		pod.Spec.TopologySpreadConstraints = append(pod.Spec.TopologySpreadConstraints, v1.TopologySpreadConstraint{
			MaxSkew: 1, TopologyKey: "topology.kubernetes.io/zone", WhenUnsatisfiable: v1.ScheduleAnyway, MinDomains: ptr.To[int32](2),
			LabelSelector: &metav1.LabelSelector{MatchLabels: pod.Labels}})
		return fmt.Sprintf("spec.topologySpreadConstraints[%d].minDomains", len(pod.Spec.TopologySpreadConstraints)-1)
	}},
	{"an ephemeral container with ports and probes", func(m *Mutator, pod *v1.Pod) string {
		pod.Spec.EphemeralContainers = append(pod.Spec.EphemeralContainers, v1.EphemeralContainer{EphemeralContainerCommon: v1.EphemeralContainerCommon{
			Name: "debugger", Image: "busybox", TerminationMessagePolicy: v1.TerminationMessageReadFile,
			TerminationMessagePath: v1.TerminationMessagePathDefault, ImagePullPolicy: v1.PullIfNotPresent,
			Ports:          []v1.ContainerPort{{ContainerPort: 80, Protocol: v1.ProtocolTCP}},
			ReadinessProbe: &v1.Probe{ProbeHandler: v1.ProbeHandler{Exec: &v1.ExecAction{Command: []string{"true"}}}, TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3},
		}})
		return fmt.Sprintf("spec.ephemeralContainers[%d]", len(pod.Spec.EphemeralContainers)-1)
	}},
	{"a pod without containers", func(m *Mutator, pod *v1.Pod) string {
		pod.Spec.Containers = nil
		return "spec.containers"
	}},
	{"a container without an image", func(m *Mutator, pod *v1.Pod) string {
		c, p := m.container(pod)
		c.Image = ""
		return p + ".image"
	}},
}
