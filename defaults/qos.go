package defaults

import v1 "k8s.io/api/core/v1"

// podQOS is the QoS class the API server writes into status.qosClass on create
// (pkg/apis/core/helper/qos.ComputePodQOS): pod-level resources decide when the pod has them
// (with PodLevelResourcesFixKubeletQOSClass, only when they name cpu, memory or hugepages);
// otherwise the init and regular containers do, ephemeral containers never.
func podQOS(pod *v1.Pod, gates FeatureGates) v1.PodQOSClass {
	if r := pod.Spec.Resources; gates.PodLevelResources && r != nil &&
		(!gates.PodLevelResourcesFixKubeletQOSClass || setsPodLevelResource(r)) {
		return requirementsQOS(r)
	}
	var class v1.PodQOSClass
	for _, list := range [2][]v1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range list {
			c := requirementsQOS(&list[i].Resources)
			switch {
			case c == v1.PodQOSBurstable:
				return c
			case class == "":
				class = c
			case class != c:
				return v1.PodQOSBurstable
			}
		}
	}
	if class == "" {
		return v1.PodQOSBestEffort
	}
	return class
}

// setsPodLevelResource mirrors IsPodLevelResourcesSet: a request or limit of a resource pod-level
// resources support.
func setsPodLevelResource(r *v1.ResourceRequirements) bool {
	for _, list := range [2]v1.ResourceList{r.Requests, r.Limits} {
		for name := range list {
			if isSupportedPodLevelResource(name) {
				return true
			}
		}
	}
	return false
}

// requirementsQOS classifies one set of requirements by cpu and memory: both unset or zero is
// BestEffort, both with equal non-zero request and limit Guaranteed, anything else Burstable.
func requirementsQOS(r *v1.ResourceRequirements) v1.PodQOSClass {
	if len(r.Requests) == 0 && len(r.Limits) == 0 {
		return v1.PodQOSBestEffort
	}
	var class v1.PodQOSClass
	for _, name := range [2]v1.ResourceName{v1.ResourceCPU, v1.ResourceMemory} {
		req, lim := r.Requests[name], r.Limits[name]
		c := v1.PodQOSGuaranteed
		switch {
		case !req.Equal(lim):
			return v1.PodQOSBurstable
		case req.IsZero():
			c = v1.PodQOSBestEffort
		}
		if class != "" && class != c {
			return v1.PodQOSBurstable
		}
		class = c
	}
	return class
}
