package defaults

import (
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/resources"
)

// podQOS is the QoS class the API server writes into status.qosClass on create
// (pkg/apis/core/helper/qos.ComputePodQOS): pod-level resources decide when the pod has them
// (with PodLevelResourcesFixKubeletQOSClass, only when they name cpu, memory or hugepages);
// otherwise the init and regular containers do, ephemeral containers never. The classification is
// kubelet's too, so resources.ComputePodQOS makes it; only the choice of pod-level resources is
// the API server's own.
func podQOS(pod *v1.Pod, gates FeatureGates) v1.PodQOSClass {
	r := pod.Spec.Resources
	podLevel := gates.PodLevelResources && r != nil && (!gates.PodLevelResourcesFixKubeletQOSClass || setsPodLevelResource(r))
	return resources.ComputePodQOS(pod, podLevel)
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
