package resources

import (
	"strings"

	v1 "k8s.io/api/core/v1"
)

const (
	// configSourceAnnotation and configMirrorAnnotation mark static and mirror pods
	// (kubelet: types.ConfigSourceAnnotationKey, ConfigMirrorAnnotationKey).
	configSourceAnnotation = "kubernetes.io/config.source"
	configMirrorAnnotation = "kubernetes.io/config.mirror"
	// apiserverSource is the config source of pods that came from the API server.
	apiserverSource = "api"
	// systemCriticalPriority is scheduling.SystemCriticalPriority.
	systemCriticalPriority = 2000000000
	// systemNodeCritical is the name of the built-in node-critical priority class.
	systemNodeCritical = "system-node-critical"
)

// GetPodQOS returns the pod's QoS class as kubelet's v1qos.GetPodQOS does: status.qosClass when
// the pod has one, else ComputePodQOS.
func GetPodQOS(pod *v1.Pod, podLevelResources bool) v1.PodQOSClass {
	pod = orEmptyPod(pod)
	if pod.Status.QOSClass != "" {
		return pod.Status.QOSClass
	}
	return ComputePodQOS(pod, podLevelResources)
}

// ComputePodQOS evaluates the pod's QoS class from its spec, as kubelet's v1qos.ComputePodQOS
// does. With podLevelResources (the PodLevelResources gate) and spec.resources present, only the
// pod-level resources count. Otherwise every init and regular container counts: all BestEffort
// gives BestEffort, all Guaranteed (cpu and memory requests equal to limits) gives Guaranteed,
// anything else Burstable. Ephemeral containers do not count.
func ComputePodQOS(pod *v1.Pod, podLevelResources bool) v1.PodQOSClass {
	pod = orEmptyPod(pod)
	if podLevelResources && pod.Spec.Resources != nil {
		return resourceQOS(pod.Spec.Resources)
	}
	var podQOS v1.PodQOSClass
	for _, list := range [2][]v1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range list {
			qos := resourceQOS(&list[i].Resources)
			switch {
			case qos == v1.PodQOSBurstable:
				return qos
			case podQOS == "":
				podQOS = qos
			case podQOS != qos:
				return v1.PodQOSBurstable
			}
		}
	}
	if podQOS == "" {
		return v1.PodQOSBestEffort
	}
	return podQOS
}

// resourceQOS classifies one set of requirements; only cpu and memory decide.
func resourceQOS(r *v1.ResourceRequirements) v1.PodQOSClass {
	if len(r.Requests) == 0 && len(r.Limits) == 0 {
		return v1.PodQOSBestEffort
	}
	cpuBE, ok := bestEffortResource(r, v1.ResourceCPU)
	if !ok {
		return v1.PodQOSBurstable
	}
	memBE, ok := bestEffortResource(r, v1.ResourceMemory)
	if !ok || cpuBE != memBE {
		return v1.PodQOSBurstable
	}
	if cpuBE {
		return v1.PodQOSBestEffort
	}
	return v1.PodQOSGuaranteed
}

// bestEffortResource reports whether request and limit of name are both zero; ok is false when
// they differ, which makes the requirements Burstable.
func bestEffortResource(r *v1.ResourceRequirements, name v1.ResourceName) (bestEffort, ok bool) {
	req, lim := r.Requests[name], r.Limits[name]
	if req.Cmp(lim) != 0 {
		return false, false
	}
	return req.IsZero(), true
}

// IsStaticPod reports whether the pod came from a source other than the API server (a manifest
// file or URL), as kubelet's types.IsStaticPod does.
func IsStaticPod(pod *v1.Pod) bool {
	if pod == nil {
		return false
	}
	source, ok := pod.Annotations[configSourceAnnotation]
	return ok && source != apiserverSource
}

// isMirrorPod reports whether the pod is the API-server mirror of a static pod, as kubelet's
// types.IsMirrorPod does.
func isMirrorPod(pod *v1.Pod) bool {
	if pod == nil {
		return false
	}
	_, ok := pod.Annotations[configMirrorAnnotation]
	return ok
}

// isCriticalPod reports whether the pod is static, mirror or has a priority of at least
// 2000000000 (system-cluster-critical), as kubelet's types.IsCriticalPod does.
func isCriticalPod(pod *v1.Pod) bool {
	if pod == nil {
		return false
	}
	return IsStaticPod(pod) || isMirrorPod(pod) ||
		(pod.Spec.Priority != nil && *pod.Spec.Priority >= systemCriticalPriority)
}

// isNodeCriticalPod reports whether the pod is critical and uses the system-node-critical
// priority class, as kubelet's types.IsNodeCriticalPod does.
func isNodeCriticalPod(pod *v1.Pod) bool {
	if pod == nil {
		return false
	}
	return isCriticalPod(pod) && pod.Spec.PriorityClassName == systemNodeCritical
}

// isPodLevelResourceName reports whether name is one pod-level resources support: cpu, memory
// and hugepages (component-helpers: IsSupportedPodLevelResource).
func isPodLevelResourceName(name v1.ResourceName) bool {
	return name == v1.ResourceCPU || name == v1.ResourceMemory || strings.HasPrefix(string(name), v1.ResourceHugePagesPrefix)
}

func hasPodLevelName(list v1.ResourceList) bool {
	for name := range list {
		if isPodLevelResourceName(name) {
			return true
		}
	}
	return false
}

// IsPodLevelResourcesSet reports whether spec.resources sets a supported request or limit
// (component-helpers: resource.IsPodLevelResourcesSet).
func IsPodLevelResourcesSet(pod *v1.Pod) bool {
	if pod == nil {
		return false
	}
	r := pod.Spec.Resources
	return r != nil && (hasPodLevelName(r.Requests) || hasPodLevelName(r.Limits))
}

// isPodLevelRequestsSet reports whether spec.resources sets a supported request
// (component-helpers: resource.IsPodLevelRequestsSet).
func isPodLevelRequestsSet(pod *v1.Pod) bool {
	if pod == nil {
		return false
	}
	r := pod.Spec.Resources
	return r != nil && hasPodLevelName(r.Requests)
}

// orEmptyPod lets the exported helpers take a nil pod as an empty one instead of panicking.
func orEmptyPod(pod *v1.Pod) *v1.Pod {
	if pod == nil {
		return &v1.Pod{}
	}
	return pod
}

// orEmptyContainer is orEmptyPod for a container.
func orEmptyContainer(c *v1.Container) *v1.Container {
	if c == nil {
		return &v1.Container{}
	}
	return c
}
