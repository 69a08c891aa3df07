package validation

import (
	"strings"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidatePodCreate returns every error the API server's validation gives a Pod being created
// (kube-apiserver's ValidatePodCreate, run by the pod strategy after defaulting, mutating
// admission and the create strategy, which defaults.PrepareForCreate applies), in its order, each
// text once as the API server reports it, with its field paths and words. An empty list means
// the API server accepts the pod. A pod that holds ephemeral containers is refused, as on
// create; see ValidateEphemeralContainers for a pod read back from a cluster.
func ValidatePodCreate(pod *v1.Pod) field.ErrorList {
	if pod == nil {
		return field.ErrorList{field.Required(field.NewPath("metadata"), "a pod is required")}
	}
	specPath := field.NewPath("spec")
	allErrs := validatePodMetadataAndSpec(pod)
	if len(pod.Spec.EphemeralContainers) > 0 {
		allErrs = append(allErrs, field.Forbidden(specPath.Child("ephemeralContainers"), "cannot be set on create"))
	}
	if pod.Spec.NodeName != "" && len(pod.Spec.SchedulingGates) != 0 {
		allErrs = append(allErrs, field.Forbidden(specPath.Child("nodeName"), "cannot be set until all schedulingGates have been cleared"))
	}
	allErrs = append(allErrs, validateSeccompAnnotationsAndFields(&pod.ObjectMeta, &pod.Spec, specPath)...)
	allErrs = append(allErrs, validateAppArmorAnnotationsAndFieldsMatchOnCreate(&pod.ObjectMeta, &pod.Spec, specPath)...)
	return uniqueErrors(allErrs)
}

// ValidateEphemeralContainers returns the errors the API server's ephemeralcontainers
// subresource gives when a pod's ephemeral containers are added to it: the whole pod is
// validated, and the errors about the ephemeral containers are returned (those a pod read back
// from a cluster passed when each was added). A static (mirror) pod's are refused, as the API
// server refuses them. The rest of the pod is for ValidatePodCreate.
func ValidateEphemeralContainers(pod *v1.Pod) field.ErrorList {
	if pod == nil || len(pod.Spec.EphemeralContainers) == 0 {
		return nil
	}
	if _, mirror := pod.Annotations[v1.MirrorPodAnnotationKey]; mirror {
		return field.ErrorList{field.Forbidden(field.NewPath(""), "static pods do not support ephemeral containers")}
	}
	const list = "spec.ephemeralContainers"
	var errs field.ErrorList
	for _, e := range validatePodMetadataAndSpec(pod) {
		if e.Field == list || strings.HasPrefix(e.Field, list+"[") {
			errs = append(errs, e)
		}
	}
	return uniqueErrors(errs)
}

// validatePodMetadataAndSpec is the part of the API server's pod validation that pods share with
// nothing else: the metadata, the spec, and what only a pod (not a template) must satisfy.
func validatePodMetadataAndSpec(pod *v1.Pod) field.ErrorList {
	metaPath := field.NewPath("metadata")
	specPath := field.NewPath("spec")
	allErrs := validateObjectMeta(&pod.ObjectMeta, true, validatePodName, metaPath)
	allErrs = append(allErrs, validatePodSpecificAnnotations(pod.Annotations, &pod.Spec, metaPath.Child("annotations"))...)
	allErrs = append(allErrs, validatePodSpec(&pod.Spec, &pod.ObjectMeta, specPath)...)
	if pod.Spec.ServiceAccountName == "" {
		for vi, vol := range pod.Spec.Volumes {
			if vol.Projected == nil {
				continue
			}
			for si, src := range vol.Projected.Sources {
				if src.ServiceAccountToken != nil {
					allErrs = append(allErrs, field.Forbidden(specPath.Child("volumes").Index(vi).Child("projected", "sources").Index(si).Child("serviceAccountToken"),
						"must not be specified when serviceAccountName is not set"))
				}
			}
		}
	}
	if g := pod.Spec.TerminationGracePeriodSeconds; g != nil {
		allErrs = append(allErrs, validateNonnegativeField(*g, specPath.Child("terminationGracePeriodSeconds"))...)
	}
	allErrs = append(allErrs, validateContainersOnlyForPod(pod.Spec.Containers, specPath.Child("containers"))...)
	allErrs = append(allErrs, validateContainersOnlyForPod(pod.Spec.InitContainers, specPath.Child("initContainers"))...)
	return allErrs
}

// validatePodSpec is the API server's ValidatePodSpec: a pod's or a template's spec, each part in
// the API server's order. podMeta is the pod's metadata, and nil for a template, as the API
// server passes it: a template's spec is also held to a pod's rules only where a controller's
// defaults cannot still fill it in.
func validatePodSpec(spec *v1.PodSpec, podMeta *metav1.ObjectMeta, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if spec.TerminationGracePeriodSeconds == nil {
		allErrs = append(allErrs, field.Required(fldPath.Child("terminationGracePeriodSeconds"), ""))
	}
	vols, errs := validateVolumes(spec.Volumes, podMeta, fldPath.Child("volumes"))
	allErrs = append(allErrs, errs...)
	claims := gatherPodResourceClaimNames(spec.ResourceClaims)
	allErrs = append(allErrs, validatePodResourceClaims(podMeta, spec.ResourceClaims, fldPath.Child("resourceClaims"))...)
	allErrs = append(allErrs, validateContainers(spec, vols, claims, fldPath.Child("containers"))...)
	allErrs = append(allErrs, validateInitContainers(spec, vols, claims, fldPath.Child("initContainers"))...)
	allErrs = append(allErrs, validateEphemeralContainers(spec, vols, claims, fldPath.Child("ephemeralContainers"))...)
	allErrs = append(allErrs, validatePodResources(spec, claims, fldPath)...)
	allErrs = append(allErrs, validatePodHostNetworkDeps(spec, podMeta != nil, fldPath)...)
	allErrs = append(allErrs, validateRestartPolicy(&spec.RestartPolicy, fldPath.Child("restartPolicy"))...)
	allErrs = append(allErrs, validateDNSPolicy(&spec.DNSPolicy, fldPath.Child("dnsPolicy"))...)
	allErrs = append(allErrs, metav1validation.ValidateLabels(spec.NodeSelector, fldPath.Child("nodeSelector"))...)
	allErrs = append(allErrs, validatePodSpecSecurityContext(spec.SecurityContext, spec, fldPath, fldPath.Child("securityContext"))...)
	allErrs = append(allErrs, validateShareProcessNamespace(spec, fldPath)...)
	allErrs = append(allErrs, validateImagePullSecrets(spec.ImagePullSecrets, fldPath.Child("imagePullSecrets"))...)
	allErrs = append(allErrs, validateAffinity(spec.Affinity, fldPath.Child("affinity"))...)
	allErrs = append(allErrs, validatePodDNSConfig(spec.DNSConfig, &spec.DNSPolicy, fldPath.Child("dnsConfig"))...)
	allErrs = append(allErrs, validateReadinessGates(spec.ReadinessGates, fldPath.Child("readinessGates"))...)
	allErrs = append(allErrs, validateSchedulingGates(spec.SchedulingGates, fldPath.Child("schedulingGates"))...)
	allErrs = append(allErrs, validateTopologySpreadConstraints(spec.TopologySpreadConstraints, fldPath.Child("topologySpreadConstraints"))...)
	allErrs = append(allErrs, validatePodSpecFields(spec, fldPath)...)
	if len(spec.Tolerations) > 0 {
		allErrs = append(allErrs, validateTolerations(spec.Tolerations, fldPath.Child("tolerations"))...)
	}
	allErrs = append(allErrs, validatePodSpecTail(spec, fldPath)...)
	allErrs = append(allErrs, validateFileKeyRefVolumes(spec, fldPath)...)
	return allErrs
}
