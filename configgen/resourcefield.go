package configgen

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podconfig/podconfig/internal/downward"
)

// resourceFieldRef resolves a resourceFieldRef (kubelet: defaultPodLimitsForDownwardAPI then
// containerResourceRuntimeValue). Instead of deep-copying the pod to default its limits, it applies
// the same defaulting to the one quantity it reads.
func (b *envBuilder) resourceFieldRef(fs *v1.ResourceFieldSelector) (string, error) {
	if _, err := b.getNode(); err != nil {
		return "", newEnvError(ErrNode, "failed to find node object, expected a node", err)
	}
	container, defaulted := b.in.Container, true
	if fs.ContainerName != "" {
		var err error
		if container, defaulted, err = findContainer(b.in.Pod, fs.ContainerName); err != nil {
			return "", err
		}
	}

	var defaultLimit func(v1.ResourceName) (resource.Quantity, bool)
	var unknown v1.ResourceName // a default the node would give, with no node known
	switch {
	case !defaulted:
	case b.in.Node == nil && b.in.UnknownIPs != UnknownIPsAsKubelet:
		defaultLimit = func(rn v1.ResourceName) (resource.Quantity, bool) {
			unknown = rn
			return resource.Quantity{}, false
		}
	default:
		defaultLimit = b.allocatable
	}
	v, err := downward.ResourceValue(fs.Resource, fs.Divisor, container.Resources.Limits, container.Resources.Requests, defaultLimit)
	if err != nil {
		return "", newEnvError(ErrFieldRef, err.Error(), nil)
	}
	if unknown != "" {
		// Without a node the limit would read as a plausible 0; say so, as for unknown IPs.
		msg := fmt.Sprintf("%s of container %s is the node's allocatable %s, and no node is known", fs.Resource, container.Name, unknown)
		if b.in.UnknownIPs == UnknownIPsEmpty {
			b.warn(ReasonNodeNotKnown, "resourceFieldRef "+msg+": empty")
			return "", nil
		}
		return "", newEnvError(ErrNode, b.where()+": "+msg, nil)
	}
	return v, nil
}

// findContainer finds a container by name among the pod's containers, then its init containers
// (kubelet: the lookup in the defaulted pod, whose regular containers only have their limits
// defaulted).
func findContainer(pod *v1.Pod, name string) (c *v1.Container, defaulted bool, err error) {
	for i := range pod.Spec.Containers {
		if pod.Spec.Containers[i].Name == name {
			return &pod.Spec.Containers[i], true, nil
		}
	}
	for i := range pod.Spec.InitContainers {
		if pod.Spec.InitContainers[i].Name == name {
			return &pod.Spec.InitContainers[i], false, nil
		}
	}
	return nil, false, newEnvError(ErrFieldRef, fmt.Sprintf("container %s not found", name), nil)
}

// allocatable returns the default limit for a container resource: the node's allocatable amount,
// replaced by a non-zero pod-level limit when PodLevelResources is on and the pod sets limits
// (kubelet: defaultPodLimitsForDownwardAPI and MergeContainerResourceLimits). Only cpu, memory and
// ephemeral-storage are defaulted, and only when the node reports them.
func (b *envBuilder) allocatable(res v1.ResourceName) (resource.Quantity, bool) {
	alloc, ok := b.node.Status.Allocatable[res]
	if !ok {
		return resource.Quantity{}, false
	}
	if b.gates.PodLevelResources && (res == v1.ResourceCPU || res == v1.ResourceMemory) && podLevelLimitsSet(b.in.Pod) {
		if limit, ok := b.in.Pod.Spec.Resources.Limits[res]; ok && !limit.IsZero() {
			return limit, true
		}
	}
	return alloc, true
}

// podLevelLimitsSet reports whether the pod sets a limit on a resource that pod-level resources
// support: cpu, memory or hugepages (kubelet: resourcehelper.IsPodLevelLimitsSet).
func podLevelLimitsSet(pod *v1.Pod) bool {
	if pod.Spec.Resources == nil {
		return false
	}
	for name := range pod.Spec.Resources.Limits {
		if name == v1.ResourceCPU || name == v1.ResourceMemory || strings.HasPrefix(string(name), v1.ResourceHugePagesPrefix) {
			return true
		}
	}
	return false
}
