package validation

// The annotations a pod's validation reads: mirror pod, tolerations, deletion cost, and the
// deprecated seccomp and AppArmor annotations, alone and against the fields that replaced them.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validatePodSpecificAnnotations is the API server's ValidatePodSpecificAnnotations: a mirror pod
// names its node, the tolerations annotation holds valid tolerations, the deletion cost is a
// 32-bit integer, and the seccomp and AppArmor annotations hold profiles (an AppArmor one for a
// container of the pod).
func validatePodSpecificAnnotations(annotations map[string]string, spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if value, ok := annotations[v1.MirrorPodAnnotationKey]; ok && spec.NodeName == "" {
		allErrs = append(allErrs, field.Invalid(fldPath.Key(v1.MirrorPodAnnotationKey), value, "must set spec.nodeName if mirror pod annotation is set"))
	}
	if annotations[v1.TolerationsAnnotationKey] != "" {
		allErrs = append(allErrs, validateTolerationsInPodAnnotations(annotations[v1.TolerationsAnnotationKey], fldPath)...)
	}
	// PodDeletionCost is on by default, so an invalid cost is refused.
	if value, ok := annotations[v1.PodDeletionCost]; ok && !isValidDeletionCost(value) {
		allErrs = append(allErrs, field.Invalid(fldPath.Key(v1.PodDeletionCost), value, "must be a 32bit integer"))
	}
	allErrs = append(allErrs, validateSeccompPodAnnotations(annotations, fldPath)...)
	return append(allErrs, validateAppArmorPodAnnotations(annotations, spec, fldPath)...)
}

// validateTolerationsInPodAnnotations is the API server's ValidateTolerationsInPodAnnotations:
// the annotation must decode as a JSON list of tolerations, each valid. The annotation is
// decoded as the API server does, into its internal type, so that a decoding error reads the
// same.
func validateTolerationsInPodAnnotations(value string, fldPath *field.Path) field.ErrorList {
	var decoded []apiToleration
	if err := json.Unmarshal([]byte(value), &decoded); err != nil {
		return field.ErrorList{field.Invalid(fldPath, v1.TolerationsAnnotationKey, apiJSONErrorText(err))}
	}
	if len(decoded) == 0 {
		return nil
	}
	tolerations := make([]v1.Toleration, len(decoded))
	for i, t := range decoded {
		tolerations[i] = t.v1()
	}
	return validateTolerations(tolerations, fldPath.Child(v1.TolerationsAnnotationKey))
}

// isValidDeletionCost reports whether value is a deletion cost the API server accepts: a
// decimal int32 without a plus sign or a leading zero.
func isValidDeletionCost(value string) bool {
	if value == "" {
		return false
	}
	switch first := value[0]; {
	case first == '-', first >= '1' && first <= '9', value == "0":
	default:
		return false
	}
	_, err := strconv.ParseInt(value, 10, 32)
	return err == nil
}

// validateSeccompPodAnnotations is the API server's ValidateSeccompPodAnnotations: the pod's and
// each container's seccomp annotation name a profile. The API server takes the container
// annotations in map order; here they come sorted by key.
func validateSeccompPodAnnotations(annotations map[string]string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if p, ok := annotations[v1.SeccompPodAnnotationKey]; ok {
		allErrs = append(allErrs, validateSeccompProfileAnnotation(p, fldPath.Child(v1.SeccompPodAnnotationKey))...)
	}
	for _, k := range sortedKeys(annotations) {
		if strings.HasPrefix(k, v1.SeccompContainerAnnotationKeyPrefix) {
			allErrs = append(allErrs, validateSeccompProfileAnnotation(annotations[k], fldPath.Child(k))...)
		}
	}
	return allErrs
}

// validateSeccompProfileAnnotation is the API server's ValidateSeccompProfile: runtime/default,
// docker/default, unconfined, or localhost/ and a relative path that stays below the profile
// directory.
func validateSeccompProfileAnnotation(p string, fldPath *field.Path) field.ErrorList {
	switch {
	case p == v1.SeccompProfileRuntimeDefault, p == v1.DeprecatedSeccompProfileDockerDefault, p == v1.SeccompProfileNameUnconfined:
		return nil
	case strings.HasPrefix(p, v1.SeccompLocalhostProfileNamePrefix):
		return validateLocalDescendingPath(strings.TrimPrefix(p, v1.SeccompLocalhostProfileNamePrefix), fldPath)
	}
	return field.ErrorList{field.Invalid(fldPath, p, "must be a valid seccomp profile")}
}

// validateAppArmorPodAnnotations is the API server's ValidateAppArmorPodAnnotations: each
// container AppArmor annotation names a container of the pod and a profile. The API server takes
// the annotations in map order; here they come sorted by key.
func validateAppArmorPodAnnotations(annotations map[string]string, spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for _, k := range sortedKeys(annotations) {
		if !strings.HasPrefix(k, v1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix) {
			continue
		}
		name := strings.TrimPrefix(k, v1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix)
		if !podSpecHasContainer(spec, name) {
			allErrs = append(allErrs, field.Invalid(fldPath.Key(k), name, "container not found"))
		}
		if p := annotations[k]; !isAppArmorProfileAnnotation(p) {
			allErrs = append(allErrs, field.Invalid(fldPath.Key(k), p, fmt.Sprintf("invalid AppArmor profile name: %q", p)))
		}
	}
	return allErrs
}

// isAppArmorProfileAnnotation reports whether p is empty, runtime/default, unconfined or starts
// with localhost/.
func isAppArmorProfileAnnotation(p string) bool {
	return p == "" || p == v1.DeprecatedAppArmorBetaProfileRuntimeDefault || p == v1.DeprecatedAppArmorBetaProfileNameUnconfined ||
		strings.HasPrefix(p, v1.DeprecatedAppArmorBetaProfileNamePrefix)
}

// podSpecHasContainer reports whether spec has an init, regular or ephemeral container named
// name.
func podSpecHasContainer(spec *v1.PodSpec, name string) bool {
	found := false
	forEachContainer(spec, field.NewPath("spec"), func(c *v1.Container, _ *field.Path) bool {
		found = c.Name == name
		return !found
	})
	return found
}

// validateSeccompAnnotationsAndFields is the API server's validateSeccompAnnotationsAndFields:
// where the pod or a container has both a seccomp annotation and a seccompProfile, they name
// the same profile.
func validateSeccompAnnotationsAndFields(meta *metav1.ObjectMeta, spec *v1.PodSpec, specPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if sc := spec.SecurityContext; sc != nil && sc.SeccompProfile != nil {
		if annotation, ok := meta.Annotations[v1.SeccompPodAnnotationKey]; ok {
			path := specPath.Child("securityContext").Child("seccompProfile")
			if err := seccompAnnotationMismatch(annotation, sc.SeccompProfile, path); err != nil {
				allErrs = append(allErrs, err)
			}
		}
	}
	forEachContainer(spec, specPath, func(c *v1.Container, cPath *field.Path) bool {
		if c.SecurityContext == nil || c.SecurityContext.SeccompProfile == nil {
			return true
		}
		if annotation, ok := meta.Annotations[v1.SeccompContainerAnnotationKeyPrefix+c.Name]; ok {
			path := cPath.Child("securityContext").Child("seccompProfile")
			if err := seccompAnnotationMismatch(annotation, c.SecurityContext.SeccompProfile, path); err != nil {
				allErrs = append(allErrs, err)
			}
		}
		return true
	})
	return allErrs
}

// seccompAnnotationMismatch is the API server's validateSeccompAnnotationsAndFieldsMatch: the
// error when the annotation names another profile than the field.
func seccompAnnotationMismatch(annotation string, sp *v1.SeccompProfile, fldPath *field.Path) *field.Error {
	typeMismatch := field.Forbidden(fldPath.Child("type"), "seccomp type in annotation and field must match")
	switch sp.Type {
	case v1.SeccompProfileTypeUnconfined:
		if annotation != v1.SeccompProfileNameUnconfined {
			return typeMismatch
		}
	case v1.SeccompProfileTypeRuntimeDefault:
		if annotation != v1.SeccompProfileRuntimeDefault && annotation != v1.DeprecatedSeccompProfileDockerDefault {
			return typeMismatch
		}
	case v1.SeccompProfileTypeLocalhost:
		if !strings.HasPrefix(annotation, v1.SeccompLocalhostProfileNamePrefix) {
			return typeMismatch
		}
		if sp.LocalhostProfile == nil || strings.TrimPrefix(annotation, v1.SeccompLocalhostProfileNamePrefix) != *sp.LocalhostProfile {
			return field.Forbidden(fldPath.Child("localhostProfile"), "seccomp profile in annotation and field must match")
		}
	}
	return nil
}

// validateAppArmorAnnotationsAndFieldsMatchOnCreate is the API server's
// validateAppArmorAnnotationsAndFieldsMatchOnCreate: where a container has an AppArmor
// annotation and an appArmorProfile (its own or the pod's), they name the same profile. Windows
// pods are not checked.
func validateAppArmorAnnotationsAndFieldsMatchOnCreate(meta *metav1.ObjectMeta, spec *v1.PodSpec, specPath *field.Path) field.ErrorList {
	if spec.OS != nil && spec.OS.Name == v1.Windows {
		return nil
	}
	var podProfile *v1.AppArmorProfile
	if spec.SecurityContext != nil {
		podProfile = spec.SecurityContext.AppArmorProfile
	}
	var allErrs field.ErrorList
	forEachContainer(spec, specPath, func(c *v1.Container, cPath *field.Path) bool {
		profile := podProfile
		if c.SecurityContext != nil && c.SecurityContext.AppArmorProfile != nil {
			profile = c.SecurityContext.AppArmorProfile
		}
		if profile == nil {
			return true
		}
		if annotation, ok := meta.Annotations[v1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix+c.Name]; ok {
			if err := appArmorAnnotationMismatch(annotation, profile, cPath.Child("securityContext").Child("appArmorProfile")); err != nil {
				allErrs = append(allErrs, err)
			}
		}
		return true
	})
	return allErrs
}

// appArmorAnnotationMismatch is the error when an AppArmor annotation names another profile
// than the field.
func appArmorAnnotationMismatch(annotation string, profile *v1.AppArmorProfile, fldPath *field.Path) *field.Error {
	typeMismatch := field.Forbidden(fldPath.Child("type"), "apparmor type in annotation and field must match")
	switch profile.Type {
	case v1.AppArmorProfileTypeUnconfined:
		if annotation != v1.DeprecatedAppArmorBetaProfileNameUnconfined {
			return typeMismatch
		}
	case v1.AppArmorProfileTypeRuntimeDefault:
		if annotation != v1.DeprecatedAppArmorBetaProfileRuntimeDefault {
			return typeMismatch
		}
	case v1.AppArmorProfileTypeLocalhost:
		if !strings.HasPrefix(annotation, v1.DeprecatedAppArmorBetaProfileNamePrefix) {
			return typeMismatch
		}
		if profile.LocalhostProfile == nil || strings.TrimPrefix(annotation, v1.DeprecatedAppArmorBetaProfileNamePrefix) != *profile.LocalhostProfile {
			return field.Forbidden(fldPath.Child("localhostProfile"), "apparmor profile in annotation and field must match")
		}
	}
	return nil
}
