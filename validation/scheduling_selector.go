package validation

// Label selectors, label maps and the matchLabelKeys and mismatchLabelKeys merged into selectors.

import (
	"maps"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// strictSelector is how every selector checked here is validated: label values in expressions
// must be valid.
var strictSelector = metav1validation.LabelSelectorValidationOptions{AllowInvalidLabelValueInSelector: false}

// validateLabelSelector is apimachinery's ValidateLabelSelector, strict, with matchLabels checked in
// key order. The API server walks the map in Go's random order; any one order is one it may give,
// and a sorted one makes the result repeatable.
func validateLabelSelector(ps *metav1.LabelSelector, fldPath *field.Path) field.ErrorList {
	if ps == nil {
		return nil
	}
	allErrs := validateLabels(ps.MatchLabels, fldPath.Child("matchLabels"))
	for i, expr := range ps.MatchExpressions {
		allErrs = append(allErrs, metav1validation.ValidateLabelSelectorRequirement(expr, strictSelector, fldPath.Child("matchExpressions").Index(i))...)
	}
	return allErrs
}

// validateLabels is apimachinery's ValidateLabels in key order (see validateLabelSelector).
func validateLabels(labels map[string]string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		allErrs = append(allErrs, metav1validation.ValidateLabels(map[string]string{k: labels[k]}, fldPath)...)
	}
	return allErrs
}

// validateMatchLabelKeys is the API server's ValidateMatchLabelKeysAndMismatchLabelKeys for a pod
// affinity term (fldPath is the term's) or a topology spread constraint (mismatch nil): the keys
// are label names and need a label selector; a matchLabelKeys key that the selector (as the API
// server's create strategy, defaults.PrepareForCreate, merged it) names twice is refused at
// fldPath[i], i its last place in matchLabelKeys, as the API server words and places it; a key in
// both lists is refused.
func validateMatchLabelKeys(fldPath *field.Path, match, mismatch []string, selector *metav1.LabelSelector) field.ErrorList {
	allErrs := validateLabelKeys(fldPath.Child("matchLabelKeys"), match, selector)
	allErrs = append(allErrs, validateLabelKeys(fldPath.Child("mismatchLabelKeys"), mismatch, selector)...)
	if selector != nil {
		lastIndex := make(map[string]int, len(match))
		for i, k := range match {
			lastIndex[k] = i
		}
		named := sets.New[string]()
		for k := range selector.MatchLabels {
			named.Insert(k)
		}
		for _, expr := range selector.MatchExpressions {
			if i, ok := lastIndex[expr.Key]; ok && named.Has(expr.Key) {
				allErrs = append(allErrs, field.Invalid(fldPath.Index(i), expr.Key, "exists in both matchLabelKeys and labelSelector").WithOrigin("duplicatedLabelKeys"))
			}
			named.Insert(expr.Key)
		}
	}
	mismatchSet := sets.New(mismatch...)
	for i, k := range match {
		if mismatchSet.Has(k) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("matchLabelKeys").Index(i), k, "exists in both matchLabelKeys and mismatchLabelKeys").WithOrigin("duplicatedMismatchLabelKeys"))
		}
	}
	return allErrs
}

// validateLabelKeys is the API server's validateLabelKeys: keys given without a label selector are
// refused once; otherwise each key is a label name.
func validateLabelKeys(fldPath *field.Path, keys []string, selector *metav1.LabelSelector) field.ErrorList {
	if len(keys) == 0 {
		return nil
	}
	if selector == nil {
		return field.ErrorList{field.Forbidden(fldPath, "must not be specified when labelSelector is not set")}
	}
	var allErrs field.ErrorList
	for i, k := range keys {
		allErrs = append(allErrs, metav1validation.ValidateLabelName(k, fldPath.Index(i))...)
	}
	return allErrs
}
