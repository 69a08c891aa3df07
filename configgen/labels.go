package configgen

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"strconv"

	v1 "k8s.io/api/core/v1"
)

// Label and annotation keys kubelet puts on sandboxes and containers.
const (
	LabelPodName       = "io.kubernetes.pod.name"
	LabelPodNamespace  = "io.kubernetes.pod.namespace"
	LabelPodUID        = "io.kubernetes.pod.uid"
	LabelContainerName = "io.kubernetes.container.name"

	AnnotationContainerHash                     = "io.kubernetes.container.hash"
	AnnotationContainerRestartCount             = "io.kubernetes.container.restartCount"
	AnnotationContainerTerminationMessagePath   = "io.kubernetes.container.terminationMessagePath"
	AnnotationContainerTerminationMessagePolicy = "io.kubernetes.container.terminationMessagePolicy"
	AnnotationPodDeletionGracePeriod            = "io.kubernetes.pod.deletionGracePeriod"
	AnnotationPodTerminationGracePeriod         = "io.kubernetes.pod.terminationGracePeriod"
	AnnotationContainerPreStopHandler           = "io.kubernetes.container.preStopHandler"
	AnnotationContainerPorts                    = "io.kubernetes.container.ports"
)

// containerLabels returns the four labels kubelet puts on a container (kuberuntime's
// newContainerLabels). Pod labels are not copied to containers.
func containerLabels(pod *v1.Pod, container *v1.Container) map[string]string {
	pod, container = orEmptyPod(pod), orEmptyContainer(container)
	return map[string]string{
		LabelPodName:       pod.Name,
		LabelPodNamespace:  pod.Namespace,
		LabelPodUID:        string(pod.UID),
		LabelContainerName: container.Name,
	}
}

// podLabels returns the sandbox labels: the pod's labels with kubelet's three pod keys on top
// (kuberuntime's newPodLabels).
func podLabels(pod *v1.Pod) map[string]string {
	pod = orEmptyPod(pod)
	// maps.Clone copies a small map's group whole instead of hashing each key again: the sandbox
	// config took 4% longer with a new map and maps.Copy (side by side on hostfs.OS, medians of 15
	// interleaved runs).
	labels := maps.Clone(pod.Labels)
	if labels == nil {
		labels = make(map[string]string, 3)
	}
	labels[LabelPodName] = pod.Name
	labels[LabelPodNamespace] = pod.Namespace
	labels[LabelPodUID] = string(pod.UID)
	return labels
}

// podAnnotations returns the sandbox annotations. Kubelet hands the runtime the pod's own map; this
// returns a copy so the caller's pod is never shared with the config (nil stays nil).
func podAnnotations(pod *v1.Pod) map[string]string {
	if pod == nil || pod.Annotations == nil {
		return nil
	}
	return maps.Clone(pod.Annotations)
}

// containerAnnotations returns the annotations kubelet puts on a container
// (kuberuntime's newContainerAnnotations). extra (device-plugin annotations) come first; kubelet's
// own keys overwrite them. A preStop handler that cannot be encoded is left out with a warning.
func containerAnnotations(pod *v1.Pod, container *v1.Container, restartCount int, extra map[string]string) (map[string]string, []Warning) {
	pod, container = orEmptyPod(pod), orEmptyContainer(container)
	annotations := make(map[string]string, len(extra)+8)
	for k, v := range extra {
		annotations[k] = v
	}
	annotations[AnnotationContainerHash] = strconv.FormatUint(HashContainer(container), 16)
	annotations[AnnotationContainerRestartCount] = strconv.Itoa(restartCount)
	annotations[AnnotationContainerTerminationMessagePath] = container.TerminationMessagePath
	annotations[AnnotationContainerTerminationMessagePolicy] = string(container.TerminationMessagePolicy)
	if pod.DeletionGracePeriodSeconds != nil {
		annotations[AnnotationPodDeletionGracePeriod] = strconv.FormatInt(*pod.DeletionGracePeriodSeconds, 10)
	}
	if pod.Spec.TerminationGracePeriodSeconds != nil {
		annotations[AnnotationPodTerminationGracePeriod] = strconv.FormatInt(*pod.Spec.TerminationGracePeriodSeconds, 10)
	}
	var warnings []Warning
	if container.Lifecycle != nil && container.Lifecycle.PreStop != nil {
		b, err := json.Marshal(container.Lifecycle.PreStop)
		if err != nil {
			warnings = append(warnings, Warning{Reason: ReasonAnnotationNotEncoded, Container: container.Name,
				Message: "unable to marshal lifecycle PreStop handler for container " + container.Name + ": " + err.Error()})
		} else {
			annotations[AnnotationContainerPreStopHandler] = string(b)
		}
	}
	if len(container.Ports) > 0 {
		// json.Marshal of ports cannot fail.
		b, _ := json.Marshal(container.Ports)
		annotations[AnnotationContainerPorts] = string(b)
	}
	return annotations, warnings
}

// HashContainer returns the hash kubelet records in the io.kubernetes.container.hash annotation
// (kubelet's container.HashContainer): FNV-32a over the debug dump of the JSON of the container's
// name and image. Only those two fields count, so a change of resources keeps the hash.
func HashContainer(container *v1.Container) uint64 {
	container = orEmptyContainer(container)
	// Kubelet hashes spew's rendering of json.Marshal's {"image":…,"name":…} (a map's keys come
	// sorted); for a byte slice that is its type and then its bytes as fmt's %v writes them.
	b, _ := json.Marshal(map[string]string{"name": container.Name, "image": container.Image})
	h := fnv.New32a()
	_, _ = fmt.Fprintf(h, "([]uint8)%v", b)
	return uint64(h.Sum32())
}

// orEmptyPod lets the pure helpers take a nil pod as an empty one instead of panicking.
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
