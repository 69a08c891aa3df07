package validation

// Object metadata, pod annotations, the pod's security context and those of its containers, DNS,
// host namespaces, names, resource claims, OS and the other spec-level fields.

import (
	v1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validatePodName is the API server's ValidatePodName: a DNS subdomain.
var validatePodName = apimachineryvalidation.NameIsDNSSubdomain

// forEachContainer calls fn with each init, regular and ephemeral container of spec, in that
// order, and its path under specPath, until fn returns false (the API server's
// VisitContainersWithPath).
func forEachContainer(spec *v1.PodSpec, specPath *field.Path, fn func(c *v1.Container, path *field.Path) bool) {
	for i := range spec.InitContainers {
		if !fn(&spec.InitContainers[i], specPath.Child("initContainers").Index(i)) {
			return
		}
	}
	for i := range spec.Containers {
		if !fn(&spec.Containers[i], specPath.Child("containers").Index(i)) {
			return
		}
	}
	for i := range spec.EphemeralContainers {
		if !fn((*v1.Container)(&spec.EphemeralContainers[i].EphemeralContainerCommon), specPath.Child("ephemeralContainers").Index(i)) {
			return
		}
	}
}

// gatherPodResourceClaimNames returns the names of the pod's resource claims.
func gatherPodResourceClaimNames(claims []v1.PodResourceClaim) sets.Set[string] {
	names := sets.New[string]()
	for _, c := range claims {
		names.Insert(c.Name)
	}
	return names
}

// validatePodResourceClaims is the API server's validatePodResourceClaims.
func validatePodResourceClaims(podMeta *metav1.ObjectMeta, claims []v1.PodResourceClaim, fldPath *field.Path) field.ErrorList {
	return nil
}

// validatePodHostNetworkDeps is the API server's validatePodHostNetworkDeps.
func validatePodHostNetworkDeps(spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	return nil
}

// validateRestartPolicy is the API server's validateRestartPolicy.
func validateRestartPolicy(policy *v1.RestartPolicy, fldPath *field.Path) field.ErrorList {
	return nil
}

// validateDNSPolicy is the API server's validateDNSPolicy.
func validateDNSPolicy(policy *v1.DNSPolicy, fldPath *field.Path) field.ErrorList {
	return nil
}

// validateShareProcessNamespace is the API server's validateShareProcessNamespace.
func validateShareProcessNamespace(spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	return nil
}

// validateImagePullSecrets is the API server's validateImagePullSecrets.
func validateImagePullSecrets(secrets []v1.LocalObjectReference, fldPath *field.Path) field.ErrorList {
	return nil
}

// validatePodDNSConfig is the API server's validatePodDNSConfig.
func validatePodDNSConfig(dc *v1.PodDNSConfig, policy *v1.DNSPolicy, fldPath *field.Path) field.ErrorList {
	return nil
}

// validatePodSpecFields is the API server's ValidatePodSpec from validateWindowsHostProcessPod
// to the subdomain: host process, hostUsers, hostname, service account, node name, active
// deadline, hostname and subdomain.
func validatePodSpecFields(spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	return nil
}

// validatePodSpecTail is the API server's ValidatePodSpec from the host aliases to the
// scheduling group: host aliases, priority class, runtime class, preemption policy, overhead, OS.
func validatePodSpecTail(spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	return nil
}
