package validation

// What the workloads share: a pod template, the template's labels against the selector, and
// annotations.

import (
	"maps"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// selectorMismatchMsg is the API server's words for a template its workload's selector does not
// select.
const selectorMismatchMsg = "`selector` does not match template `labels`"

// validatePodTemplateSpec is the API server's ValidatePodTemplateSpec: the template's labels and
// annotations, its spec as a pod's (with no pod metadata, as the API server validates a template's
// spec), the seccomp and AppArmor fields against the template's annotations, and no ephemeral
// containers.
func validatePodTemplateSpec(template *v1.PodTemplateSpec, fldPath *field.Path) field.ErrorList {
	specPath := fldPath.Child("spec")
	allErrs := validateLabels(template.Labels, fldPath.Child("labels"))
	allErrs = append(allErrs, validateAnnotations(template.Annotations, fldPath.Child("annotations"))...)
	allErrs = append(allErrs, validatePodSpecificAnnotations(template.Annotations, &template.Spec, fldPath.Child("annotations"))...)
	allErrs = append(allErrs, validatePodSpec(&template.Spec, nil, specPath)...)
	allErrs = append(allErrs, validateSeccompAnnotationsAndFields(&template.ObjectMeta, &template.Spec, specPath)...)
	allErrs = append(allErrs, validateAppArmorAnnotationsAndFieldsMatchOnCreate(&template.ObjectMeta, &template.Spec, specPath)...)
	if len(template.Spec.EphemeralContainers) > 0 {
		allErrs = append(allErrs, field.Forbidden(specPath.Child("ephemeralContainers"), "ephemeral containers not allowed in pod template"))
	}
	return allErrs
}

// validateTemplateSelected refuses a template whose labels selector does not select, when the
// selector selects anything at all (an empty selector is refused, if at all, by its workload).
func validateTemplateSelected(selector labels.Selector, template *v1.PodTemplateSpec, fldPath *field.Path) field.ErrorList {
	if selector.Empty() || selector.Matches(labels.Set(template.Labels)) {
		return nil
	}
	return field.ErrorList{field.Invalid(fldPath.Child("metadata", "labels"), template.Labels, selectorMismatchMsg)}
}

// validateAnnotations is apimachinery's ValidateAnnotations with the keys checked in sorted order
// (the API server walks the map in Go's random order; see validateLabelSelector).
func validateAnnotations(annotations map[string]string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for _, k := range slices.Sorted(maps.Keys(annotations)) {
		// Case does not matter in an annotation key.
		for _, msg := range validation.IsQualifiedName(strings.ToLower(k)) {
			allErrs = append(allErrs, field.Invalid(fldPath, k, msg).WithOrigin("format=k8s-label-key"))
		}
	}
	if apimachineryvalidation.ValidateAnnotationsSize(annotations) != nil {
		allErrs = append(allErrs, field.TooLong(fldPath, "", apimachineryvalidation.TotalAnnotationSizeLimitB))
	}
	return allErrs
}

// restartAlways refuses a template whose restartPolicy is not Always and one with an
// activeDeadlineSeconds, as the API server does for the workloads that keep their pods running
// (kind names the workload in its message: "activeDeadlineSeconds in ReplicaSet is not
// Supported").
func restartAlways(spec *v1.PodSpec, kind string, specPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if spec.RestartPolicy != v1.RestartPolicyAlways {
		allErrs = append(allErrs, field.NotSupported(specPath.Child("restartPolicy"), spec.RestartPolicy, []string{string(v1.RestartPolicyAlways)}))
	}
	if spec.ActiveDeadlineSeconds != nil {
		allErrs = append(allErrs, field.Forbidden(specPath.Child("activeDeadlineSeconds"), "activeDeadlineSeconds in "+kind+" is not Supported"))
	}
	return allErrs
}
