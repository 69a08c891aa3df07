package validation

// A container's resize policy, restart policy and restart rules.

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The values the API server accepts, each list sorted as it prints them.
var (
	ctrResizeResources        = sets.List(sets.New(v1.ResourceCPU, v1.ResourceMemory))
	ctrResizeRestartPolicies  = sets.List(sets.New(v1.NotRequired, v1.RestartContainer))
	ctrRestartPolicySet       = sets.New(v1.ContainerRestartPolicyAlways, v1.ContainerRestartPolicyNever, v1.ContainerRestartPolicyOnFailure)
	ctrRestartPolicies        = sets.List(ctrRestartPolicySet)
	ctrRestartRuleActionSet   = sets.New(v1.ContainerRestartRuleActionRestart, v1.ContainerRestartRuleActionRestartAllContainers)
	ctrRestartRuleActions     = sets.List(ctrRestartRuleActionSet)
	ctrRestartRuleOperatorSet = sets.New(v1.ContainerRestartRuleOnExitCodesOpIn, v1.ContainerRestartRuleOnExitCodesOpNotIn)
	ctrRestartRuleOperators   = sets.List(ctrRestartRuleOperatorSet)
)

// The API server's bounds on a container's restart rules.
const (
	ctrMaxRestartRules         = 20
	ctrMaxRestartRuleExitCodes = 255
)

// validateResizePolicy is the API server's validateResizePolicy: each resource once, cpu or
// memory, with a known policy, and no restart where the pod never restarts containers. Most
// errors name the list, not the entry, as the API server's do.
func validateResizePolicy(policies []v1.ContainerResizePolicy, fldPath *field.Path, podRestartPolicy v1.RestartPolicy) field.ErrorList {
	var allErrs field.ErrorList
	seen := sets.New[v1.ResourceName]()
	for i, p := range policies {
		if seen.Has(p.ResourceName) {
			allErrs = append(allErrs, field.Duplicate(fldPath.Index(i), p.ResourceName))
		}
		seen.Insert(p.ResourceName)
		switch p.ResourceName {
		case v1.ResourceCPU, v1.ResourceMemory:
		case "":
			allErrs = append(allErrs, field.Required(fldPath, ""))
		default:
			allErrs = append(allErrs, field.NotSupported(fldPath, p.ResourceName, ctrResizeResources))
		}
		switch p.RestartPolicy {
		case v1.NotRequired, v1.RestartContainer:
		case "":
			allErrs = append(allErrs, field.Required(fldPath, ""))
		default:
			allErrs = append(allErrs, field.NotSupported(fldPath, p.RestartPolicy, ctrResizeRestartPolicies))
		}
		if podRestartPolicy == v1.RestartPolicyNever && p.RestartPolicy != v1.NotRequired {
			allErrs = append(allErrs, field.Invalid(fldPath, p.RestartPolicy, "must be 'NotRequired' when pod `restartPolicy` is 'Never'"))
		}
	}
	return allErrs
}

// validateContainerRestartPolicy is the API server's validateContainerRestartPolicy (with
// ContainerRestartRules and RestartAllContainersOnContainerExits on, as in v1.37): a known
// restartPolicy, required once rules are given, and at most 20 well-formed rules. fldPath is the
// container's.
func validateContainerRestartPolicy(policy *v1.ContainerRestartPolicy, rules []v1.ContainerRestartRule, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	policyPath := fldPath.Child("restartPolicy")
	if policy == nil {
		if len(rules) == 0 {
			return nil
		}
		allErrs = append(allErrs, field.Required(policyPath, "must specify restartPolicy when restart rules are used"))
	} else if !ctrRestartPolicySet.Has(*policy) {
		allErrs = append(allErrs, field.NotSupported(policyPath, *policy, ctrRestartPolicies))
	}
	rulesPath := fldPath.Child("restartPolicyRules")
	if len(rules) > ctrMaxRestartRules {
		allErrs = append(allErrs, field.TooMany(rulesPath, len(rules), ctrMaxRestartRules))
	}
	for i, rule := range rules {
		allErrs = append(allErrs, validateContainerRestartRule(&rule, rulesPath.Index(i))...)
	}
	return allErrs
}

// validateContainerRestartRule checks one rule: a known action and exit codes with a known
// operator and at most 255 values.
func validateContainerRestartRule(rule *v1.ContainerRestartRule, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if !ctrRestartRuleActionSet.Has(rule.Action) {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("action"), rule.Action, ctrRestartRuleActions))
	}
	if rule.ExitCodes == nil {
		return append(allErrs, field.Required(fldPath.Child("exitCodes"), "must be specified"))
	}
	codesPath := fldPath.Child("exitCodes")
	if !ctrRestartRuleOperatorSet.Has(rule.ExitCodes.Operator) {
		allErrs = append(allErrs, field.NotSupported(codesPath.Child("operator"), rule.ExitCodes.Operator, ctrRestartRuleOperators))
	}
	if len(rule.ExitCodes.Values) > ctrMaxRestartRuleExitCodes {
		allErrs = append(allErrs, field.TooMany(codesPath.Child("values"), len(rule.ExitCodes.Values), ctrMaxRestartRuleExitCodes))
	}
	return allErrs
}

// validateInitContainerRestartPolicy is the API server's validateInitContainerRestartPolicy with
// v1.37's gates: rules need a policy, and a policy with its rules is checked as a regular
// container's (sidecars included, RestartAllContainersOnContainerExits being on).
func validateInitContainerRestartPolicy(policy *v1.ContainerRestartPolicy, rules []v1.ContainerRestartRule, fldPath *field.Path) field.ErrorList {
	if policy == nil {
		if len(rules) > 0 {
			return field.ErrorList{field.Required(fldPath.Child("restartPolicy"), "must specify restartPolicy when restart rules are used")}
		}
		return nil
	}
	return validateContainerRestartPolicy(policy, rules, fldPath)
}
