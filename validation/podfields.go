package validation

// Object metadata, pod annotations, the pod's security context and those of its containers, DNS,
// host namespaces, names, resource claims, OS and the other spec-level fields. This file holds
// the spec-level fields; meta.go, annotations.go, security*.go, dns.go and podfields_os.go the
// rest.

import (
	"fmt"
	"math"

	v1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
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

// gatherPodResourceClaimNames returns the names of the pod's resource claims, empty ones left
// out (validatePodResourceClaims refuses those).
func gatherPodResourceClaimNames(claims []v1.PodResourceClaim) sets.Set[string] {
	names := sets.New[string]()
	for _, c := range claims {
		if c.Name != "" {
			names.Insert(c.Name)
		}
	}
	return names
}

// validatePodResourceClaims is the API server's validatePodResourceClaims: a static (mirror)
// pod has none, and each claim has a unique DNS-label name and exactly one of
// resourceClaimName and resourceClaimTemplateName, a DNS subdomain.
func validatePodResourceClaims(podMeta *metav1.ObjectMeta, claims []v1.PodResourceClaim, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	names := sets.New[string]()
	for i, claim := range claims {
		allErrs = append(allErrs, validatePodResourceClaim(podMeta, claim, names, fldPath.Index(i))...)
	}
	return allErrs
}

// validatePodResourceClaim checks one claim; names holds the names of the claims before it.
func validatePodResourceClaim(podMeta *metav1.ObjectMeta, claim v1.PodResourceClaim, names sets.Set[string], fldPath *field.Path) field.ErrorList {
	if podMeta != nil {
		if _, mirror := podMeta.Annotations[v1.MirrorPodAnnotationKey]; mirror {
			// The API server reports this on the empty path, once per claim.
			return field.ErrorList{field.Forbidden(field.NewPath(""), "static pods do not support resource claims")}
		}
	}
	var allErrs field.ErrorList
	switch namePath := fldPath.Child("name"); {
	case claim.Name == "":
		allErrs = append(allErrs, field.Required(namePath, ""))
	case names.Has(claim.Name):
		allErrs = append(allErrs, field.Duplicate(namePath, claim.Name))
	default:
		allErrs = append(allErrs, validateDNS1123Label(claim.Name, namePath)...)
		names.Insert(claim.Name)
	}
	switch {
	case claim.ResourceClaimName != nil && claim.ResourceClaimTemplateName != nil:
		allErrs = append(allErrs, field.Invalid(fldPath, apiPodResourceClaimOf(claim), "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified"))
	case claim.ResourceClaimName == nil && claim.ResourceClaimTemplateName == nil:
		allErrs = append(allErrs, field.Invalid(fldPath, apiPodResourceClaimOf(claim), "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"))
	}
	if n := claim.ResourceClaimName; n != nil {
		allErrs = append(allErrs, invalidName(*n, apimachineryvalidation.NameIsDNSSubdomain(*n, false), fldPath.Child("resourceClaimName"))...)
	}
	if n := claim.ResourceClaimTemplateName; n != nil {
		allErrs = append(allErrs, invalidName(*n, apimachineryvalidation.NameIsDNSSubdomain(*n, false), fldPath.Child("resourceClaimTemplateName"))...)
	}
	return allErrs
}

// invalidName turns the messages of a name check into Invalid errors, without an origin, as the
// API server reports names of other objects.
func invalidName(name string, msgs []string, fldPath *field.Path) field.ErrorList {
	return invalidFor(name, msgs, fldPath, "")
}

// validatePodHostNetworkDeps is the API server's validatePodHostNetworkDeps: with hostNetwork,
// each regular container's hostPort equals its containerPort; a template (isPod false) may also
// leave it 0, which the pod's defaults will set to the containerPort.
func validatePodHostNetworkDeps(spec *v1.PodSpec, isPod bool, fldPath *field.Path) field.ErrorList {
	if !spec.HostNetwork {
		return nil
	}
	var allErrs field.ErrorList
	for i, c := range spec.Containers {
		for j, port := range c.Ports {
			// A pod's hostPort was defaulted to its containerPort; a template's 0 will be.
			if (isPod || port.HostPort != 0) && port.HostPort != port.ContainerPort {
				allErrs = append(allErrs, field.Invalid(fldPath.Child("containers").Index(i).Child("ports").Index(j).Child("hostPort"),
					port.HostPort, "must match `containerPort` when `hostNetwork` is true"))
			}
		}
	}
	return allErrs
}

// validateRestartPolicy is the API server's validateRestartPolicy: Always, OnFailure or Never.
func validateRestartPolicy(policy *v1.RestartPolicy, fldPath *field.Path) field.ErrorList {
	switch *policy {
	case v1.RestartPolicyAlways, v1.RestartPolicyOnFailure, v1.RestartPolicyNever:
		return nil
	case "":
		return field.ErrorList{field.Required(fldPath, "")}
	}
	return field.ErrorList{field.NotSupported(fldPath, *policy,
		[]v1.RestartPolicy{v1.RestartPolicyAlways, v1.RestartPolicyOnFailure, v1.RestartPolicyNever})}
}

// validateShareProcessNamespace is the API server's validateShareProcessNamespace: a pod on the
// host's PID namespace does not share one of its own.
func validateShareProcessNamespace(spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	if spec.HostPID && spec.ShareProcessNamespace != nil && *spec.ShareProcessNamespace {
		return field.ErrorList{field.Invalid(fldPath.Child("shareProcessNamespace"), true, "ShareProcessNamespace and HostPID cannot both be enabled")}
	}
	return nil
}

// validateImagePullSecrets is the API server's validateImagePullSecrets: a reference holds only
// a name. v1's LocalObjectReference has no other field, so this refuses nothing today; it stays
// for the day the type grows one.
func validateImagePullSecrets(secrets []v1.LocalObjectReference, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i, s := range secrets {
		if s != (v1.LocalObjectReference{Name: s.Name}) {
			allErrs = append(allErrs, field.Invalid(fldPath.Index(i), apiLocalObjectReference{Name: s.Name}, "only name may be set"))
		}
	}
	return allErrs
}

// validatePodSpecFields is the API server's ValidatePodSpec from validateWindowsHostProcessPod
// to the subdomain: host process, hostUsers, hostname override, service account, node name,
// active deadline, hostname and subdomain.
func validatePodSpecFields(spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	allErrs := validateWindowsHostProcessPod(spec, fldPath)
	allErrs = append(allErrs, validateHostUsers(spec, fldPath)...)
	allErrs = append(allErrs, validatePodHostName(spec, fldPath)...)
	if sa := spec.ServiceAccountName; sa != "" {
		allErrs = append(allErrs, invalidName(sa, apimachineryvalidation.ValidateServiceAccountName(sa, false), fldPath.Child("serviceAccountName"))...)
	}
	if dsa := spec.DeprecatedServiceAccount; dsa != spec.ServiceAccountName {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("deprecatedServiceAccount"), dsa, fmt.Sprintf("must be the same as serviceAccountName: %q", spec.ServiceAccountName)))
	}
	if n := spec.NodeName; n != "" {
		allErrs = append(allErrs, invalidName(n, apimachineryvalidation.NameIsDNSSubdomain(n, false), fldPath.Child("nodeName"))...)
	}
	if d := spec.ActiveDeadlineSeconds; d != nil && (*d < 1 || *d > math.MaxInt32) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("activeDeadlineSeconds"), *d, validation.InclusiveRangeError(1, math.MaxInt32)))
	}
	if spec.Hostname != "" {
		allErrs = append(allErrs, validateDNS1123Label(spec.Hostname, fldPath.Child("hostname"))...)
	}
	if spec.Subdomain != "" {
		allErrs = append(allErrs, validateDNS1123Label(spec.Subdomain, fldPath.Child("subdomain"))...)
	}
	return allErrs
}

// maxHostnameOverrideLength is the longest hostnameOverride, the kernel's limit on a hostname.
const maxHostnameOverrideLength = 64

// validatePodHostName is the API server's validatePodHostName: a hostnameOverride is a DNS
// subdomain of at most 64 bytes, set neither with setHostnameAsFQDN nor with hostNetwork.
func validatePodHostName(spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	if spec.HostnameOverride == nil {
		return nil
	}
	path := fldPath.Child("hostnameOverride")
	var allErrs field.ErrorList
	if spec.SetHostnameAsFQDN != nil && *spec.SetHostnameAsFQDN {
		allErrs = append(allErrs, field.Forbidden(path, "may not be specified when setHostnameAsFQDN is true"))
	}
	if spec.HostNetwork {
		allErrs = append(allErrs, field.Forbidden(path, "may not be specified when hostNetwork is true"))
	}
	if len(*spec.HostnameOverride) > maxHostnameOverrideLength {
		allErrs = append(allErrs, field.TooLong(path, "", maxHostnameOverrideLength))
	}
	return append(allErrs, validateDNS1123Subdomain(*spec.HostnameOverride, path)...)
}

// validatePodSpecTail is the API server's ValidatePodSpec from the host aliases to the
// scheduling group: host aliases, priority class, runtime class, preemption policy, overhead, OS.
func validatePodSpecTail(spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if len(spec.HostAliases) > 0 {
		allErrs = append(allErrs, validateHostAliases(spec.HostAliases, fldPath.Child("hostAliases"))...)
	}
	if n := spec.PriorityClassName; n != "" {
		allErrs = append(allErrs, invalidName(n, apimachineryvalidation.NameIsDNSSubdomain(n, false), fldPath.Child("priorityClassName"))...)
	}
	if n := spec.RuntimeClassName; n != nil {
		allErrs = append(allErrs, invalidName(*n, apimachineryvalidation.NameIsDNSSubdomain(*n, false), fldPath.Child("runtimeClassName"))...)
	}
	if spec.PreemptionPolicy != nil {
		allErrs = append(allErrs, validatePreemptionPolicy(spec.PreemptionPolicy, fldPath.Child("preemptionPolicy"))...)
	}
	if spec.Overhead != nil {
		allErrs = append(allErrs, validateOverhead(spec.Overhead, fldPath.Child("overhead"))...)
	}
	if spec.OS != nil {
		allErrs = append(allErrs, validatePodOS(spec, fldPath)...)
	}
	if spec.SchedulingGroup != nil {
		allErrs = append(allErrs, validateSchedulingGroup(spec.SchedulingGroup, fldPath.Child("schedulingGroup"))...)
		if len(spec.EvictionResponders) > 0 {
			allErrs = append(allErrs, field.Forbidden(fldPath.Child("schedulingGroup"), "may not be set when evictionResponders is set").
				WithOrigin("dependentForbidden").MarkCoveredByDeclarative())
		}
	}
	return allErrs
}

// validatePreemptionPolicy is the API server's ValidatePreemptionPolicy: PreemptLowerPriority
// or Never.
func validatePreemptionPolicy(policy *v1.PreemptionPolicy, fldPath *field.Path) field.ErrorList {
	switch *policy {
	case v1.PreemptLowerPriority, v1.PreemptNever:
		return nil
	case "":
		return field.ErrorList{field.Required(fldPath, "")}
	}
	return field.ErrorList{field.NotSupported(fldPath, policy, []v1.PreemptionPolicy{v1.PreemptLowerPriority, v1.PreemptNever})}
}

// validateSchedulingGroup is the API server's validateSchedulingGroup: a group names its
// PodGroup, a DNS subdomain.
func validateSchedulingGroup(group *v1.PodSchedulingGroup, fldPath *field.Path) field.ErrorList {
	path := fldPath.Child("podGroupName")
	if group.PodGroupName == nil {
		return field.ErrorList{field.Invalid(path, group.PodGroupName, "must specify one of: `podGroupName`")}
	}
	n := *group.PodGroupName
	return invalidName(n, apimachineryvalidation.NameIsDNSSubdomain(n, false), path)
}
