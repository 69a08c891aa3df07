package validation

// Affinity, tolerations, topology spread constraints, readiness and scheduling gates, as the API
// server's create options set them (GetValidationOptionsFromPodSpecAndMeta with no old pod, v1.37
// default gates): selectors' label values must be valid (AllowInvalidLabelValueInSelector,
// AllowInvalidLabelValueInRequiredNodeAffinity and AllowInvalidTopologySpreadConstraintLabelSelector
// are false), matchLabelKeys of a spread constraint are checked the way
// MatchLabelKeysInPodTopologySpreadSelectorMerge (beta, on) checks them, and the toleration
// operators Lt and Gt are refused (TaintTolerationComparisonOperators, alpha, off).

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateAffinity is the API server's validateAffinity: node affinity, then pod affinity, then
// pod anti-affinity.
func validateAffinity(affinity *v1.Affinity, fldPath *field.Path) field.ErrorList {
	if affinity == nil {
		return nil
	}
	var allErrs field.ErrorList
	if affinity.NodeAffinity != nil {
		allErrs = append(allErrs, validateNodeAffinity(affinity.NodeAffinity, fldPath.Child("nodeAffinity"))...)
	}
	if a := affinity.PodAffinity; a != nil {
		allErrs = append(allErrs, validatePodAffinityTerms(a.RequiredDuringSchedulingIgnoredDuringExecution, fldPath.Child("podAffinity", "requiredDuringSchedulingIgnoredDuringExecution"))...)
		allErrs = append(allErrs, validateWeightedPodAffinityTerms(a.PreferredDuringSchedulingIgnoredDuringExecution, fldPath.Child("podAffinity", "preferredDuringSchedulingIgnoredDuringExecution"))...)
	}
	if a := affinity.PodAntiAffinity; a != nil {
		allErrs = append(allErrs, validatePodAffinityTerms(a.RequiredDuringSchedulingIgnoredDuringExecution, fldPath.Child("podAntiAffinity", "requiredDuringSchedulingIgnoredDuringExecution"))...)
		allErrs = append(allErrs, validateWeightedPodAffinityTerms(a.PreferredDuringSchedulingIgnoredDuringExecution, fldPath.Child("podAntiAffinity", "preferredDuringSchedulingIgnoredDuringExecution"))...)
	}
	return allErrs
}

// validateReadinessGates is the API server's validateReadinessGates: each condition type is a
// qualified name.
func validateReadinessGates(gates []v1.PodReadinessGate, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i, g := range gates {
		allErrs = append(allErrs, validateQualifiedName(string(g.ConditionType), fldPath.Index(i).Child("conditionType"))...)
	}
	return allErrs
}

// validateSchedulingGates is the API server's validateSchedulingGates: each name is a qualified
// name, and a name given twice is a duplicate at its second place (and every later one).
func validateSchedulingGates(gates []v1.PodSchedulingGate, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	seen := sets.New[string]()
	for i, g := range gates {
		allErrs = append(allErrs, validateQualifiedName(g.Name, fldPath.Index(i))...)
		if seen.Has(g.Name) {
			allErrs = append(allErrs, field.Duplicate(fldPath.Index(i), g.Name))
		}
		seen.Insert(g.Name)
	}
	return allErrs
}

// validateTopologySpreadConstraints is the API server's validateTopologySpreadConstraints.
func validateTopologySpreadConstraints(constraints []v1.TopologySpreadConstraint, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	last := lastSpreadPairs(constraints)
	for i := range constraints {
		c := &constraints[i]
		repeated := last[spreadPair{c.TopologyKey, c.WhenUnsatisfiable}] > i
		allErrs = append(allErrs, validateTopologySpreadConstraint(c, repeated, fldPath.Index(i))...)
	}
	return allErrs
}

// validateTolerations is the API server's ValidateTolerations for a pod's tolerations.
func validateTolerations(tolerations []v1.Toleration, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i := range tolerations {
		allErrs = append(allErrs, validateToleration(&tolerations[i], fldPath.Index(i))...)
	}
	return allErrs
}
