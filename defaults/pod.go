package defaults

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

// SetObjectDefaultsPod fills the fields of pod that the v1.37 API server defaults when the pod is
// created: what SetObjectDefaults_Pod applies (SetDefaults_Pod, SetDefaults_PodSpec, and the
// defaulters of volumes, containers, probes and resource lists), then the pod-level resource
// defaulting of the pod create strategy. The package documentation lists every rule. Fields that
// are set are kept, except where an API server rule rewrites them (marked "rewrites" there).
// Applying it twice gives the same pod as applying it once. A nil pod is left alone. The rest of
// the create strategy, applied after admission, is PrepareForCreate.
func SetObjectDefaultsPod(pod *v1.Pod, opts ...Option) {
	if pod == nil {
		return
	}
	s := newSettings(opts)

	setPodOnlyDefaults(pod, s.gates)
	setPodSpecDefaults(&pod.Spec)
	setPodSpecMemberDefaults(&pod.Spec)
	setPodStatusDefaults(&pod.Status)

	if !s.objectDefaultsOnly && s.gates.PodLevelResources && s.gates.PodLevelResourcesFixDefaulting {
		DefaultPodLevelResources(pod)
	}
}

// SetDefaultsPodTemplateSpec fills the fields of a pod template that the v1.37 API server defaults
// in a workload's template (SetObjectDefaults_PodTemplate, and the same defaulting of
// spec.template in Deployments, ReplicaSets, StatefulSets, DaemonSets, ReplicationControllers,
// Jobs and CronJobs): every rule of SetObjectDefaultsPod except the Pod-only ones of
// SetDefaults_Pod (requests from limits, enableServiceLinks, host-network ports, a negative grace
// period, pod-level resources, httpGet protocols). A Pod made from a defaulted template still needs
// SetObjectDefaultsPod, as a controller's Pod is defaulted again when it is created; the result is
// the same as SetObjectDefaultsPod on a Pod made from the template as written.
func SetDefaultsPodTemplateSpec(template *v1.PodTemplateSpec) {
	if template == nil {
		return
	}
	setPodSpecDefaults(&template.Spec)
	setPodSpecMemberDefaults(&template.Spec)
}

// setPodOnlyDefaults mirrors SetDefaults_Pod, which runs on Pods but not on templates. It runs
// before the resource lists are rounded, as upstream, so that pod-level sums are of the values
// as written.
func setPodOnlyDefaults(pod *v1.Pod, gates FeatureGates) {
	spec := &pod.Spec
	if spec.TerminationGracePeriodSeconds != nil && *spec.TerminationGracePeriodSeconds < 0 {
		spec.TerminationGracePeriodSeconds = ptr.To[int64](1)
	}

	for i := range spec.Containers {
		requestsFromLimits(&spec.Containers[i].Resources)
	}
	for i := range spec.InitContainers {
		requestsFromLimits(&spec.InitContainers[i].Resources)
	}

	if gates.PodLevelResources && !gates.PodLevelResourcesFixDefaulting {
		objectDefaultHugePagePodLimits(pod)
		objectDefaultPodRequests(pod)
	}

	if spec.EnableServiceLinks == nil {
		spec.EnableServiceLinks = ptr.To(v1.DefaultEnableServiceLinks)
	}

	if spec.HostNetwork {
		hostNetworkPorts(spec.Containers)
		hostNetworkPorts(spec.InitContainers)
	}

	if gates.H2CContainerProbe {
		for i := range spec.Containers {
			setHTTPProtocols(&spec.Containers[i])
		}
		for i := range spec.InitContainers {
			setHTTPProtocols(&spec.InitContainers[i])
		}
		for i := range spec.EphemeralContainers {
			setHTTPProtocols((*v1.Container)(&spec.EphemeralContainers[i].EphemeralContainerCommon))
		}
	}
}

// hostNetworkPorts mirrors defaultHostNetworkPorts: in the host's network namespace a container
// port is a host port.
func hostNetworkPorts(containers []v1.Container) {
	for i := range containers {
		for j := range containers[i].Ports {
			if containers[i].Ports[j].HostPort == 0 {
				containers[i].Ports[j].HostPort = containers[i].Ports[j].ContainerPort
			}
		}
	}
}

// setPodSpecDefaults mirrors SetDefaults_PodSpec, which runs on Pods and templates.
func setPodSpecDefaults(spec *v1.PodSpec) {
	// serviceAccount is the deprecated alias of serviceAccountName; the API server keeps them
	// equal, serviceAccountName winning.
	if spec.ServiceAccountName == "" {
		spec.ServiceAccountName = spec.DeprecatedServiceAccount
	}
	spec.DeprecatedServiceAccount = spec.ServiceAccountName

	if spec.DNSPolicy == "" {
		spec.DNSPolicy = v1.DNSClusterFirst
	}
	if spec.RestartPolicy == "" {
		spec.RestartPolicy = v1.RestartPolicyAlways
	}
	if spec.SecurityContext == nil {
		spec.SecurityContext = &v1.PodSecurityContext{}
	}
	if spec.TerminationGracePeriodSeconds == nil {
		spec.TerminationGracePeriodSeconds = ptr.To[int64](v1.DefaultTerminationGracePeriodSeconds)
	}
	if spec.SchedulerName == "" {
		spec.SchedulerName = v1.DefaultSchedulerName
	}
}

// setPodSpecMemberDefaults applies the defaulters that the generated SetObjectDefaults_Pod and
// SetObjectDefaults_PodTemplate run on a spec's volumes, containers and resource lists, in their
// order.
func setPodSpecMemberDefaults(spec *v1.PodSpec) {
	for i := range spec.Volumes {
		setVolumeDefaults(&spec.Volumes[i])
	}
	for i := range spec.InitContainers {
		setContainerDefaults(&spec.InitContainers[i])
	}
	for i := range spec.Containers {
		setContainerDefaults(&spec.Containers[i])
	}
	for i := range spec.EphemeralContainers {
		setContainerDefaults((*v1.Container)(&spec.EphemeralContainers[i].EphemeralContainerCommon))
	}
	roundResourceList(spec.Overhead)
	if spec.Resources != nil {
		roundResourceList(spec.Resources.Limits)
		roundResourceList(spec.Resources.Requests)
	}
}

// setPodStatusDefaults mirrors SetDefaults_PodStatus and the rounding of the status's resource
// lists in SetObjectDefaults_Pod.
func setPodStatusDefaults(status *v1.PodStatus) {
	hasIP, hasIPs := status.PodIP != "", len(status.PodIPs) > 0
	switch {
	case hasIP && !hasIPs:
		status.PodIPs = []v1.PodIP{{IP: status.PodIP}}
	case !hasIP && hasIPs:
		status.PodIP = status.PodIPs[0].IP
	case hasIP && hasIPs && status.PodIPs[0].IP != status.PodIP:
		// Older kubelets set only podIP, so the API server takes it as the truth.
		status.PodIPs = []v1.PodIP{{IP: status.PodIP}}
	}

	for _, statuses := range [][]v1.ContainerStatus{status.InitContainerStatuses, status.ContainerStatuses, status.EphemeralContainerStatuses} {
		for i := range statuses {
			roundResourceList(statuses[i].AllocatedResources)
			if r := statuses[i].Resources; r != nil {
				roundResourceList(r.Limits)
				roundResourceList(r.Requests)
			}
		}
	}
	roundResourceList(status.AllocatedResources)
	if status.Resources != nil {
		roundResourceList(status.Resources.Limits)
		roundResourceList(status.Resources.Requests)
	}
}
