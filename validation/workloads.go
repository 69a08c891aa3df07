package validation

// Workloads that carry a pod template, and the entry point for any object.

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateObject returns the API server's refusal of obj being created, as an *Error, or nil when
// it accepts obj. It validates Pods (ValidatePodCreate, and ValidateEphemeralContainers for the
// ephemeral containers a pod read back from a cluster holds) and the workloads that carry a pod
// template: Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, ReplicationController
// and PodTemplate. Other kinds are not validated.
func ValidateObject(obj runtime.Object) error {
	switch o := obj.(type) {
	case *v1.Pod:
		return NewError(schema.GroupKind{Kind: "Pod"}, o.Name, validatePodReadBack(o))
	}
	return nil
}

// validatePodReadBack validates a pod as created and, when it holds ephemeral containers (a pod
// read back from a cluster, where they were added later through the ephemeralcontainers
// subresource), those as that subresource does.
func validatePodReadBack(pod *v1.Pod) field.ErrorList {
	if len(pod.Spec.EphemeralContainers) == 0 {
		return ValidatePodCreate(pod)
	}
	created := *pod
	created.Spec.EphemeralContainers = nil
	return append(ValidatePodCreate(&created), ValidateEphemeralContainers(pod)...)
}
