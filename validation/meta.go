package validation

// Object metadata: apimachinery's ValidateObjectMeta and the API server's finalizer-name rule.

import (
	"maps"
	"slices"
	"strings"

	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// standardFinalizers are the finalizer names without a domain that the API server accepts.
var standardFinalizers = []string{"kubernetes", metav1.FinalizerOrphanDependents, metav1.FinalizerDeleteDependents}

// validateObjectMeta is the API server's ValidateObjectMeta for an object being created:
// apimachinery's checks of generateName, name, namespace, generation, labels, annotations,
// owner references, finalizers and managed fields, in that order, then the API server's rule that
// a finalizer without a "/" is a standard one.
//
// apimachinery walks labels and annotations in map order, so the API server lists two bad
// labels in either order; here they come sorted by key.
func validateObjectMeta(meta *metav1.ObjectMeta, requiresNamespace bool, nameFn apimachineryvalidation.ValidateNameFunc, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if meta.GenerateName != "" {
		for _, msg := range nameFn(meta.GenerateName, true) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("generateName"), meta.GenerateName, msg))
		}
	}
	if meta.Name == "" {
		allErrs = append(allErrs, field.Required(fldPath.Child("name"), "name or generateName is required"))
	} else {
		for _, msg := range nameFn(meta.Name, false) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("name"), meta.Name, msg))
		}
	}
	allErrs = append(allErrs, validateMetaNamespace(meta.Namespace, requiresNamespace, fldPath.Child("namespace"))...)
	allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(meta.Generation, fldPath.Child("generation")).MarkCoveredByDeclarative()...)
	allErrs = append(allErrs, validateLabelsInOrder(meta.Labels, fldPath.Child("labels"))...)
	allErrs = append(allErrs, validateAnnotationsInOrder(meta.Annotations, fldPath.Child("annotations"))...)
	allErrs = append(allErrs, apimachineryvalidation.ValidateOwnerReferences(meta.OwnerReferences, fldPath.Child("ownerReferences"))...)
	allErrs = append(allErrs, apimachineryvalidation.ValidateFinalizers(meta.Finalizers, fldPath.Child("finalizers"))...)
	allErrs = append(allErrs, metav1validation.ValidateManagedFields(meta.ManagedFields, fldPath.Child("managedFields"), metav1validation.CoveredByDeclarative)...)
	for i, name := range meta.Finalizers {
		allErrs = append(allErrs, validateKubeFinalizerName(name, fldPath.Child("finalizers").Index(i))...)
	}
	return allErrs
}

// validateMetaNamespace requires a DNS label as the namespace of a namespaced object and none
// on another.
func validateMetaNamespace(namespace string, requiresNamespace bool, fldPath *field.Path) field.ErrorList {
	if !requiresNamespace {
		if namespace != "" {
			return field.ErrorList{field.Forbidden(fldPath, "not allowed on this type")}
		}
		return nil
	}
	if namespace == "" {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	var allErrs field.ErrorList
	for _, msg := range apimachineryvalidation.ValidateNamespaceName(namespace, false) {
		allErrs = append(allErrs, field.Invalid(fldPath, namespace, msg))
	}
	return allErrs
}

// validateLabelsInOrder is apimachinery's ValidateLabels with the labels taken in key order:
// each key must be a qualified name and each value a label value.
func validateLabelsInOrder(labels map[string]string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for _, k := range sortedKeys(labels) {
		allErrs = append(allErrs, metav1validation.ValidateLabelName(k, fldPath)...)
		for _, msg := range validation.IsValidLabelValue(labels[k]) {
			allErrs = append(allErrs, field.Invalid(fldPath, labels[k], msg).WithOrigin("format=k8s-label-value"))
		}
	}
	return allErrs
}

// validateAnnotationsInOrder is apimachinery's ValidateAnnotations with the keys taken in order:
// each key, lowercased, must be a qualified name, and keys and values together must fit in
// 256 KiB.
func validateAnnotationsInOrder(annotations map[string]string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for _, k := range sortedKeys(annotations) {
		for _, msg := range validation.IsQualifiedName(strings.ToLower(k)) {
			allErrs = append(allErrs, field.Invalid(fldPath, k, msg).WithOrigin("format=k8s-label-key"))
		}
	}
	if err := apimachineryvalidation.ValidateAnnotationsSize(annotations); err != nil {
		allErrs = append(allErrs, field.TooLong(fldPath, "", apimachineryvalidation.TotalAnnotationSizeLimitB))
	}
	return allErrs
}

// validateKubeFinalizerName refuses a finalizer name without a "/" that is not one of the
// standard ones.
func validateKubeFinalizerName(name string, fldPath *field.Path) field.ErrorList {
	if strings.Contains(name, "/") || slices.Contains(standardFinalizers, name) {
		return nil
	}
	return field.ErrorList{field.Invalid(fldPath, name, "name is neither a standard finalizer name nor is it fully qualified")}
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
