package validation

// Node affinity (node selector terms and their requirements, preferred terms) and pod
// (anti-)affinity terms.

import (
	v1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Messages of the affinity rules.
const (
	weightRangeErrorMsg = "must be in the range 1-100"
	badSelectorOpMsg    = "not a valid selector operator"
)

// validateNodeAffinity is the API server's validateNodeAffinity: the required node selector, whose
// label values must be valid, then the preferred terms, whose label values need not be (a term
// the one node of a cluster satisfies is useful whatever its values).
func validateNodeAffinity(na *v1.NodeAffinity, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if na.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		allErrs = append(allErrs, validateNodeSelector(na.RequiredDuringSchedulingIgnoredDuringExecution, fldPath.Child("requiredDuringSchedulingIgnoredDuringExecution"))...)
	}
	for i, term := range na.PreferredDuringSchedulingIgnoredDuringExecution {
		termPath := fldPath.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
		if term.Weight <= 0 || term.Weight > 100 {
			allErrs = append(allErrs, field.Invalid(termPath.Child("weight"), term.Weight, weightRangeErrorMsg))
		}
		allErrs = append(allErrs, validateNodeSelectorTerm(&term.Preference, false, termPath.Child("preference"))...)
	}
	return allErrs
}

// validateNodeSelector is the API server's ValidateNodeSelector for a required node affinity: at
// least one term, each checked with its label values.
func validateNodeSelector(ns *v1.NodeSelector, fldPath *field.Path) field.ErrorList {
	termsPath := fldPath.Child("nodeSelectorTerms")
	if len(ns.NodeSelectorTerms) == 0 {
		return field.ErrorList{field.Required(termsPath, "must have at least one node selector term")}
	}
	var allErrs field.ErrorList
	for i := range ns.NodeSelectorTerms {
		allErrs = append(allErrs, validateNodeSelectorTerm(&ns.NodeSelectorTerms[i], true, termsPath.Index(i))...)
	}
	return allErrs
}

// validateNodeSelectorTerm is the API server's ValidateNodeSelectorTerm: the label requirements,
// then the field requirements. checkValues says whether label values are checked.
func validateNodeSelectorTerm(term *v1.NodeSelectorTerm, checkValues bool, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i := range term.MatchExpressions {
		allErrs = append(allErrs, validateNodeSelectorRequirement(&term.MatchExpressions[i], checkValues, fldPath.Child("matchExpressions").Index(i))...)
	}
	for i := range term.MatchFields {
		allErrs = append(allErrs, validateNodeFieldSelectorRequirement(&term.MatchFields[i], fldPath.Child("matchFields").Index(i))...)
	}
	return allErrs
}

// validateNodeSelectorRequirement is the API server's ValidateNodeSelectorRequirement: the number
// of values the operator takes, the key, then (when checkValues) each value.
func validateNodeSelectorRequirement(rq *v1.NodeSelectorRequirement, checkValues bool, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	valuesPath := fldPath.Child("values")
	switch rq.Operator {
	case v1.NodeSelectorOpIn, v1.NodeSelectorOpNotIn:
		if len(rq.Values) == 0 {
			allErrs = append(allErrs, field.Required(valuesPath, "must be specified when `operator` is 'In' or 'NotIn'"))
		}
	case v1.NodeSelectorOpExists, v1.NodeSelectorOpDoesNotExist:
		if len(rq.Values) > 0 {
			allErrs = append(allErrs, field.Forbidden(valuesPath, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
		}
	case v1.NodeSelectorOpGt, v1.NodeSelectorOpLt:
		if len(rq.Values) != 1 {
			allErrs = append(allErrs, field.Required(valuesPath, "must be specified single value when `operator` is 'Lt' or 'Gt'"))
		}
	default:
		allErrs = append(allErrs, field.Invalid(fldPath.Child("operator"), rq.Operator, badSelectorOpMsg))
	}
	allErrs = append(allErrs, metav1validation.ValidateLabelName(rq.Key, fldPath.Child("key"))...)
	if checkValues {
		for i, value := range rq.Values {
			for _, msg := range validation.IsValidLabelValue(value) {
				allErrs = append(allErrs, field.Invalid(valuesPath.Index(i), value, msg).WithOrigin("format=k8s-label-value"))
			}
		}
	}
	return allErrs
}

// validateNodeFieldSelectorRequirement is the API server's ValidateNodeFieldSelectorRequirement:
// metadata.name is the one field a node can be selected by, with In or NotIn and one value, a node
// name.
func validateNodeFieldSelectorRequirement(rq *v1.NodeSelectorRequirement, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	switch rq.Operator {
	case v1.NodeSelectorOpIn, v1.NodeSelectorOpNotIn:
		if len(rq.Values) != 1 {
			allErrs = append(allErrs, field.Required(fldPath.Child("values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
		}
	default:
		allErrs = append(allErrs, field.Invalid(fldPath.Child("operator"), rq.Operator, badSelectorOpMsg))
	}
	if rq.Key != metav1.ObjectNameField {
		return append(allErrs, field.Invalid(fldPath.Child("key"), rq.Key, "not a valid field selector key"))
	}
	for i, value := range rq.Values {
		for _, msg := range apimachineryvalidation.NameIsDNSSubdomain(value, false) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("values").Index(i), value, msg))
		}
	}
	return allErrs
}

// validatePodAffinityTerms is the API server's validatePodAffinityTerms.
func validatePodAffinityTerms(terms []v1.PodAffinityTerm, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i := range terms {
		allErrs = append(allErrs, validatePodAffinityTerm(&terms[i], fldPath.Index(i))...)
	}
	return allErrs
}

// validateWeightedPodAffinityTerms is the API server's validateWeightedPodAffinityTerms: each
// weight, then its term.
func validateWeightedPodAffinityTerms(terms []v1.WeightedPodAffinityTerm, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i := range terms {
		if w := terms[i].Weight; w <= 0 || w > 100 {
			allErrs = append(allErrs, field.Invalid(fldPath.Index(i).Child("weight"), w, weightRangeErrorMsg))
		}
		allErrs = append(allErrs, validatePodAffinityTerm(&terms[i].PodAffinityTerm, fldPath.Index(i).Child("podAffinityTerm"))...)
	}
	return allErrs
}

// validatePodAffinityTerm is the API server's validatePodAffinityTerm: the label and namespace
// selectors, the namespaces (each error at "namespace", with no index, as the API server reports
// it), matchLabelKeys and mismatchLabelKeys, then the topology key.
func validatePodAffinityTerm(term *v1.PodAffinityTerm, fldPath *field.Path) field.ErrorList {
	allErrs := validateLabelSelector(term.LabelSelector, fldPath.Child("labelSelector"))
	allErrs = append(allErrs, validateLabelSelector(term.NamespaceSelector, fldPath.Child("namespaceSelector"))...)
	for _, name := range term.Namespaces {
		for _, msg := range apimachineryvalidation.ValidateNamespaceName(name, false) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("namespace"), name, msg))
		}
	}
	allErrs = append(allErrs, validateMatchLabelKeys(fldPath, term.MatchLabelKeys, term.MismatchLabelKeys, term.LabelSelector)...)
	if len(term.TopologyKey) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("topologyKey"), "can not be empty"))
	}
	return append(allErrs, metav1validation.ValidateLabelName(term.TopologyKey, fldPath.Child("topologyKey"))...)
}
