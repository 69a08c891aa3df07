package validation

// Tolerations.

import (
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The operators and effects the API server lists when it refuses one.
var (
	// Lt and Gt are listed, though refused, when the TaintTolerationComparisonOperators gate is off.
	comparisonTolerationOps = []v1.TolerationOperator{v1.TolerationOpEqual, v1.TolerationOpExists, v1.TolerationOpLt, v1.TolerationOpGt}
	basicTolerationOps      = []v1.TolerationOperator{v1.TolerationOpEqual, v1.TolerationOpExists}
	taintEffects            = []v1.TaintEffect{v1.TaintEffectNoSchedule, v1.TaintEffectPreferNoSchedule, v1.TaintEffectNoExecute}
)

// validateToleration is the API server's check of one toleration in ValidateTolerations: the key,
// an empty key's operator, tolerationSeconds' effect, the operator and its value (errors about
// the value are reported at "operator", as the API server does), then the effect.
func validateToleration(t *v1.Toleration, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if len(t.Key) > 0 {
		allErrs = append(allErrs, metav1validation.ValidateLabelName(t.Key, fldPath.Child("key"))...)
	}
	opPath := fldPath.Child("operator")
	if len(t.Key) == 0 && t.Operator != v1.TolerationOpExists {
		allErrs = append(allErrs, field.Invalid(opPath, t.Operator, "operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
	}
	if t.TolerationSeconds != nil && t.Effect != v1.TaintEffectNoExecute {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("effect"), t.Effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
	}
	switch t.Operator {
	case v1.TolerationOpEqual, "":
		if msgs := validation.IsValidLabelValue(t.Value); len(msgs) != 0 {
			allErrs = append(allErrs, field.Invalid(opPath, t.Value, strings.Join(msgs, ";")))
		}
	case v1.TolerationOpExists:
		if len(t.Value) > 0 {
			allErrs = append(allErrs, field.Invalid(opPath, t.Value, "value must be empty when `operator` is 'Exists'"))
		}
	case v1.TolerationOpLt, v1.TolerationOpGt:
		allErrs = append(allErrs, field.NotSupported(opPath, t.Operator, comparisonTolerationOps))
	default:
		allErrs = append(allErrs, field.NotSupported(opPath, t.Operator, basicTolerationOps))
	}
	if len(t.Effect) > 0 && !slices.Contains(taintEffects, t.Effect) {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("effect"), t.Effect, taintEffects))
	}
	return allErrs
}
