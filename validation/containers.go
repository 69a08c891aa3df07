package validation

// Containers, their ports, environment, mounts, devices, probes, lifecycle, resources (and the
// pod's resources and overhead), resize and restart policies.

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateContainers is the API server's validateContainers: the pod's regular containers.
func validateContainers(spec *v1.PodSpec, vols map[string]v1.VolumeSource, claims sets.Set[string], fldPath *field.Path) field.ErrorList {
	return nil
}

// validateInitContainers is the API server's validateInitContainers.
func validateInitContainers(spec *v1.PodSpec, vols map[string]v1.VolumeSource, claims sets.Set[string], fldPath *field.Path) field.ErrorList {
	return nil
}

// validateEphemeralContainers is the API server's validateEphemeralContainers.
func validateEphemeralContainers(spec *v1.PodSpec, vols map[string]v1.VolumeSource, claims sets.Set[string], fldPath *field.Path) field.ErrorList {
	return nil
}

// validateContainersOnlyForPod is the API server's validateContainersOnlyForPod: what a pod's
// containers must satisfy that a template's need not.
func validateContainersOnlyForPod(containers []v1.Container, fldPath *field.Path) field.ErrorList {
	return nil
}

// validatePodResources is the API server's validatePodResources: spec.resources.
func validatePodResources(spec *v1.PodSpec, claims sets.Set[string], fldPath *field.Path) field.ErrorList {
	return nil
}

// validateOverhead is the API server's validateOverhead: spec.overhead.
func validateOverhead(overhead v1.ResourceList, fldPath *field.Path) field.ErrorList {
	return nil
}
