package validation

// Topology spread constraints.

import (
	"fmt"
	"slices"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The values the API server lists for an unsupported whenUnsatisfiable and node inclusion policy,
// sorted as it sorts them.
var (
	supportedScheduleActions = []v1.UnsatisfiableConstraintAction{v1.DoNotSchedule, v1.ScheduleAnyway}
	supportedNodeInclusion   = []v1.NodeInclusionPolicy{v1.NodeInclusionPolicyHonor, v1.NodeInclusionPolicyIgnore}
)

// validateTopologySpreadConstraint is the API server's check of one constraint c (fldPath):
// maxSkew, topologyKey, whenUnsatisfiable, the pair {topologyKey, whenUnsatisfiable} (refused
// when a later constraint repeats it, repeated), minDomains, the node inclusion policies,
// matchLabelKeys (as the selector merge of MatchLabelKeysInPodTopologySpreadSelectorMerge checks
// them) and the label selector.
func validateTopologySpreadConstraint(c *v1.TopologySpreadConstraint, repeated bool, fldPath *field.Path) field.ErrorList {
	allErrs := validatePositiveField(int64(c.MaxSkew), fldPath.Child("maxSkew"))
	if len(c.TopologyKey) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("topologyKey"), "can not be empty"))
	}
	if !slices.Contains(supportedScheduleActions, c.WhenUnsatisfiable) {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("whenUnsatisfiable"), c.WhenUnsatisfiable, supportedScheduleActions))
	}
	if repeated {
		allErrs = append(allErrs, field.Duplicate(fldPath.Child("{topologyKey, whenUnsatisfiable}"), fmt.Sprintf("{%v, %v}", c.TopologyKey, c.WhenUnsatisfiable)))
	}
	allErrs = append(allErrs, validateMinDomains(c.MinDomains, c.WhenUnsatisfiable, fldPath.Child("minDomains"))...)
	allErrs = append(allErrs, validateNodeInclusionPolicy(c.NodeAffinityPolicy, fldPath.Child("nodeAffinityPolicy"))...)
	allErrs = append(allErrs, validateNodeInclusionPolicy(c.NodeTaintsPolicy, fldPath.Child("nodeTaintsPolicy"))...)
	allErrs = append(allErrs, validateMatchLabelKeys(fldPath, c.MatchLabelKeys, nil, c.LabelSelector)...)
	return append(allErrs, validateLabelSelector(c.LabelSelector, fldPath.Child("labelSelector"))...)
}

// spreadPair is the kind of spread a constraint asks for: a topology key and what to do when the
// skew cannot be kept.
type spreadPair struct {
	topologyKey string
	action      v1.UnsatisfiableConstraintAction
}

// lastSpreadPairs returns, for each pair of constraints, the index of its last constraint: a
// constraint repeats its pair when a later index holds it. (The API server compares every
// constraint with every later one; a map keeps a pod's thousands of constraints linear.)
func lastSpreadPairs(constraints []v1.TopologySpreadConstraint) map[spreadPair]int {
	last := make(map[spreadPair]int, len(constraints))
	for i, c := range constraints {
		last[spreadPair{c.TopologyKey, c.WhenUnsatisfiable}] = i
	}
	return last
}

// validateMinDomains is the API server's validateMinDomains: positive, and only with
// whenUnsatisfiable DoNotSchedule.
func validateMinDomains(minDomains *int32, action v1.UnsatisfiableConstraintAction, fldPath *field.Path) field.ErrorList {
	if minDomains == nil {
		return nil
	}
	allErrs := validatePositiveField(int64(*minDomains), fldPath)
	if action != v1.DoNotSchedule {
		msg := fmt.Sprintf("can only use minDomains if whenUnsatisfiable=%s, not %s", v1.DoNotSchedule, action)
		allErrs = append(allErrs, field.Invalid(fldPath, minDomains, msg).WithOrigin("dependsOn"))
	}
	return allErrs
}

// validateNodeInclusionPolicy is the API server's validateNodeInclusionPolicy: Honor or Ignore
// when set.
func validateNodeInclusionPolicy(policy *v1.NodeInclusionPolicy, fldPath *field.Path) field.ErrorList {
	if policy == nil || slices.Contains(supportedNodeInclusion, *policy) {
		return nil
	}
	return field.ErrorList{field.NotSupported(fldPath, policy, supportedNodeInclusion)}
}
