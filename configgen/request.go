package configgen

import (
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/mounts"
)

// ContainerRequest is what GenerateContainerConfig and GenerateRunContainerOptions need to know
// about one container: what kubelet's generateContainerConfig takes, named.
type ContainerRequest struct {
	// Pod is the pod the container belongs to. Required.
	Pod *v1.Pod
	// Container is the container to generate for: one of Pod's containers, init containers, or
	// an ephemeral container as PodContainers gives it (v1.Container(ec.EphemeralContainerCommon)).
	// Required.
	Container *v1.Container
	// RestartCount is the container's attempt: its status's restart count plus one after a
	// restart, or RestartCountFromLogs for a container with no status.
	RestartCount int
	// PodIPs are the sandbox's IPs, first the one of the node's preferred family (see
	// PodSandboxIPs). They fill status.podIP(s) and the pod's /etc/hosts. A host-network pod
	// with none gets the node's IPs (HostNetworkPodIPs).
	PodIPs []string
	// ImageRef is the image the runtime resolved (its ID or digest reference); the container's
	// image field is sent as the user-specified image beside it. GenerateRunContainerOptions
	// ignores it.
	ImageRef string
	// Volumes are the pod's mounted volumes by name; image volumes come as Volume.Image.
	Volumes mounts.VolumeMap
	// NamespaceTarget is the runtime ID of the container an ephemeral container targets
	// (spec.ephemeralContainers[].targetContainerName), empty otherwise.
	// GenerateRunContainerOptions ignores it.
	NamespaceTarget string
}
