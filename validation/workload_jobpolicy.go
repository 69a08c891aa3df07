package validation

// A Job's pod failure policy and success policy.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Limits of the policies.
const (
	maxPodFailurePolicyRules         = 20
	maxOnExitCodesValues             = 255
	maxOnPodConditionsPatterns       = 20
	maxSuccessPolicyRules            = 20
	maxSucceededIndexesLength        = 64 * 1024
	oneOfExitCodesAndConditionsError = "specifying one of OnExitCodes and OnPodConditions is required"
)

// The values the API server lists, sorted as it sorts them.
var (
	podFailurePolicyActions = []batchv1.PodFailurePolicyAction{batchv1.PodFailurePolicyActionCount, batchv1.PodFailurePolicyActionFailIndex, batchv1.PodFailurePolicyActionFailJob, batchv1.PodFailurePolicyActionIgnore}
	onExitCodesOperators    = []batchv1.PodFailurePolicyOnExitCodesOperator{batchv1.PodFailurePolicyOnExitCodesOpIn, batchv1.PodFailurePolicyOnExitCodesOpNotIn}
	onPodConditionsStatuses = []v1.ConditionStatus{v1.ConditionFalse, v1.ConditionTrue, v1.ConditionUnknown}
)

// validatePodFailurePolicy is the API server's validatePodFailurePolicy: at most 20 rules, each
// checked against the template's container and init container names.
func validatePodFailurePolicy(spec *batchv1.JobSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	rules := spec.PodFailurePolicy.Rules
	rulesPath := fldPath.Child("rules")
	if len(rules) > maxPodFailurePolicyRules {
		allErrs = append(allErrs, field.TooMany(rulesPath, len(rules), maxPodFailurePolicyRules))
	}
	names := sets.New[string]()
	for _, c := range spec.Template.Spec.Containers {
		names.Insert(c.Name)
	}
	for _, c := range spec.Template.Spec.InitContainers {
		names.Insert(c.Name)
	}
	for i := range rules {
		allErrs = append(allErrs, validatePodFailurePolicyRule(spec, &rules[i], names, rulesPath.Index(i))...)
	}
	return allErrs
}

// validatePodFailurePolicyRule checks a rule's action, then its exit codes or pod conditions,
// exactly one of which it must have.
func validatePodFailurePolicyRule(spec *batchv1.JobSpec, rule *batchv1.PodFailurePolicyRule, names sets.Set[string], fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	actionPath := fldPath.Child("action")
	switch {
	case rule.Action == "":
		allErrs = append(allErrs, field.Required(actionPath, fmt.Sprintf("valid values: %q", podFailurePolicyActions)))
	case rule.Action == batchv1.PodFailurePolicyActionFailIndex:
		if spec.BackoffLimitPerIndex == nil {
			allErrs = append(allErrs, field.Invalid(actionPath, rule.Action, "requires the backoffLimitPerIndex to be set"))
		}
	case !slices.Contains(podFailurePolicyActions, rule.Action):
		allErrs = append(allErrs, field.NotSupported(actionPath, rule.Action, podFailurePolicyActions))
	}
	if rule.OnExitCodes != nil {
		allErrs = append(allErrs, validateOnExitCodes(rule.OnExitCodes, names, fldPath.Child("onExitCodes"))...)
	}
	if len(rule.OnPodConditions) > 0 {
		allErrs = append(allErrs, validateOnPodConditions(rule.OnPodConditions, fldPath.Child("onPodConditions"))...)
	}
	switch {
	case rule.OnExitCodes != nil && len(rule.OnPodConditions) > 0:
		allErrs = append(allErrs, field.Invalid(fldPath, field.OmitValueType{}, "specifying both OnExitCodes and OnPodConditions is not supported"))
	case rule.OnExitCodes == nil && len(rule.OnPodConditions) == 0:
		allErrs = append(allErrs, field.Invalid(fldPath, field.OmitValueType{}, oneOfExitCodesAndConditionsError))
	}
	return allErrs
}

// validateOnExitCodes checks the operator, the container name and the values: at least one, at
// most 255, no 0 with In, no duplicate, in increasing order.
func validateOnExitCodes(req *batchv1.PodFailurePolicyOnExitCodesRequirement, names sets.Set[string], fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	operatorPath := fldPath.Child("operator")
	switch {
	case req.Operator == "":
		allErrs = append(allErrs, field.Required(operatorPath, fmt.Sprintf("valid values: %q", onExitCodesOperators)))
	case req.Operator != batchv1.PodFailurePolicyOnExitCodesOpIn && req.Operator != batchv1.PodFailurePolicyOnExitCodesOpNotIn:
		allErrs = append(allErrs, field.NotSupported(operatorPath, req.Operator, onExitCodesOperators))
	}
	if req.ContainerName != nil && !names.Has(*req.ContainerName) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("containerName"), *req.ContainerName, "must be one of the container or initContainer names in the pod template"))
	}
	valuesPath := fldPath.Child("values")
	switch {
	case len(req.Values) == 0:
		allErrs = append(allErrs, field.Invalid(valuesPath, req.Values, "at least one value is required"))
	case len(req.Values) > maxOnExitCodesValues:
		allErrs = append(allErrs, field.TooMany(valuesPath, len(req.Values), maxOnExitCodesValues))
	}
	ordered := true
	seen := sets.New[int32]()
	for j, value := range req.Values {
		valuePath := valuesPath.Index(j)
		if req.Operator == batchv1.PodFailurePolicyOnExitCodesOpIn && value == 0 {
			allErrs = append(allErrs, field.Invalid(valuePath, value, "must not be 0 for the In operator"))
		}
		if seen.Has(value) {
			allErrs = append(allErrs, field.Duplicate(valuePath, value))
		}
		seen.Insert(value)
		if j > 0 && req.Values[j-1] > value {
			ordered = false
		}
	}
	if !ordered {
		allErrs = append(allErrs, field.Invalid(valuesPath, req.Values, "must be ordered"))
	}
	return allErrs
}

// validateOnPodConditions checks at most 20 patterns, each a qualified condition type and a
// status.
func validateOnPodConditions(patterns []batchv1.PodFailurePolicyOnPodConditionsPattern, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if len(patterns) > maxOnPodConditionsPatterns {
		allErrs = append(allErrs, field.TooMany(fldPath, len(patterns), maxOnPodConditionsPatterns))
	}
	for j, p := range patterns {
		patternPath := fldPath.Index(j)
		allErrs = append(allErrs, validateQualifiedName(string(p.Type), patternPath.Child("type"))...)
		statusPath := patternPath.Child("status")
		switch {
		case p.Status == "":
			allErrs = append(allErrs, field.Required(statusPath, fmt.Sprintf("valid values: %q", onPodConditionsStatuses)))
		case p.Status != v1.ConditionFalse && p.Status != v1.ConditionTrue && p.Status != v1.ConditionUnknown:
			allErrs = append(allErrs, field.NotSupported(statusPath, p.Status, onPodConditionsStatuses))
		}
	}
	return allErrs
}

// validateSuccessPolicy is the API server's validateSuccessPolicy for an Indexed Job: 1 to 20
// rules, each with succeededIndexes or succeededCount that the Job's completions allow. A rule
// of a Job without completions (itself refused) is not held against them: the API server fails
// on it with an internal error instead.
func validateSuccessPolicy(spec *batchv1.JobSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	rules := spec.SuccessPolicy.Rules
	rulesPath := fldPath.Child("rules")
	if len(rules) == 0 {
		allErrs = append(allErrs, field.Required(rulesPath, "at least one rules must be specified when the successPolicy is specified"))
	}
	if len(rules) > maxSuccessPolicyRules {
		allErrs = append(allErrs, field.TooMany(rulesPath, len(rules), maxSuccessPolicyRules))
	}
	for i := range rules {
		allErrs = append(allErrs, validateSuccessPolicyRule(spec.Completions, &rules[i], rulesPath.Index(i))...)
	}
	return allErrs
}

// validateSuccessPolicyRule checks one rule against completions.
func validateSuccessPolicyRule(completions *int32, rule *batchv1.SuccessPolicyRule, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if rule.SucceededCount == nil && rule.SucceededIndexes == nil {
		allErrs = append(allErrs, field.Required(fldPath, "at least one of succeededCount or succeededIndexes must be specified"))
	}
	if completions == nil {
		return allErrs
	}
	var total int32
	if rule.SucceededIndexes != nil {
		indexesPath := fldPath.Child("succeededIndexes")
		if len(*rule.SucceededIndexes) > maxSucceededIndexesLength {
			allErrs = append(allErrs, field.TooLong(indexesPath, "", maxSucceededIndexesLength))
		}
		var err error
		if total, err = countIndexes(*rule.SucceededIndexes, *completions); err != nil {
			allErrs = append(allErrs, field.Invalid(indexesPath, *rule.SucceededIndexes, "error parsing succeededIndexes: "+err.Error()))
		}
	}
	if rule.SucceededCount != nil {
		countPath := fldPath.Child("succeededCount")
		count := *rule.SucceededCount
		allErrs = append(allErrs, validateNonnegativeField(int64(count), countPath)...)
		if count > *completions {
			allErrs = append(allErrs, field.Invalid(countPath, count, fmt.Sprintf("must be less than or equal to %d (the number of specified completions)", *completions)))
		}
		if rule.SucceededIndexes != nil && count > total {
			allErrs = append(allErrs, field.Invalid(countPath, count, fmt.Sprintf("must be less than or equal to %d (the number of indexes in the specified succeededIndexes field)", total)))
		}
	}
	return allErrs
}

// countIndexes is the API server's validateIndexesFormat: the number of indexes in a list of
// increasing intervals ("1,3-5"), each below completions, or the first error.
func countIndexes(indexes string, completions int32) (int32, error) {
	if len(indexes) == 0 {
		return 0, nil
	}
	var total int32
	last := int32(-1)
	for i, interval := range strings.Split(indexes, ",") {
		x, y, err := parseIndexInterval(interval, completions)
		if err != nil {
			return 0, err
		}
		if i > 0 && last >= x {
			return 0, fmt.Errorf("non-increasing order, previous: %d, current: %d", last, x)
		}
		total += y - x + 1
		last = y
	}
	return total, nil
}

// parseIndexInterval is the API server's parseIndexInterval: "x" or "x-y", x < y, both below
// completions.
func parseIndexInterval(interval string, completions int32) (int32, int32, error) {
	limits := strings.Split(interval, "-")
	if len(limits) > 2 {
		return 0, 0, fmt.Errorf("the fragment %q violates the requirement that an index interval can have at most two parts separated by '-'", interval)
	}
	x, err := parseIndex(limits[0], completions)
	if err != nil {
		return 0, 0, err
	}
	if len(limits) == 1 {
		return x, x, nil
	}
	y, err := parseIndex(limits[1], completions)
	if err != nil {
		return 0, 0, err
	}
	if x >= y {
		return 0, 0, fmt.Errorf("non-increasing order, previous: %d, current: %d", x, y)
	}
	return x, y, nil
}

// parseIndex parses one index below completions.
func parseIndex(s string, completions int32) (int32, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("cannot convert string to integer for index: %q", s)
	}
	if n >= int(completions) {
		return 0, fmt.Errorf("too large index: %q", s)
	}
	return int32(n), nil
}
