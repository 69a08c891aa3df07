package validation

// maxUnavailable and maxSurge: an integer or a percentage.

import (
	"strconv"

	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validatePositiveIntOrPercent is the API server's ValidatePositiveIntOrPercent: a percentage
// ("25%") or a number not below zero.
func validatePositiveIntOrPercent(v intstr.IntOrString, fldPath *field.Path) field.ErrorList {
	switch v.Type {
	case intstr.String:
		var allErrs field.ErrorList
		for _, msg := range validation.IsValidPercent(v.StrVal) {
			allErrs = append(allErrs, field.Invalid(fldPath, v, msg))
		}
		return allErrs
	case intstr.Int:
		return validateNonnegativeField(int64(v.IntValue()), fldPath)
	}
	// The API server's words, "%%" and all.
	return field.ErrorList{field.Invalid(fldPath, v, "must be an integer or percentage (e.g '5%%')")}
}

// percentValue is the API server's getPercentValue: the number of a valid percentage.
func percentValue(v intstr.IntOrString) (int, bool) {
	if v.Type != intstr.String || len(validation.IsValidPercent(v.StrVal)) != 0 {
		return 0, false
	}
	n, _ := strconv.Atoi(v.StrVal[:len(v.StrVal)-1])
	return n, true
}

// intOrPercentValue is the API server's getIntOrPercentValue: a percentage's number, or the
// value as an integer (0 for a string that is neither).
func intOrPercentValue(v intstr.IntOrString) int {
	if n, ok := percentValue(v); ok {
		return n
	}
	return v.IntValue()
}

// notMoreThan100Percent is the API server's IsNotMoreThan100Percent.
func notMoreThan100Percent(v intstr.IntOrString, fldPath *field.Path) field.ErrorList {
	if n, ok := percentValue(v); !ok || n <= 100 {
		return nil
	}
	return field.ErrorList{field.Invalid(fldPath, v, "must not be greater than 100%")}
}
