package validation

import (
	"path"
	"strings"

	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Messages the API server gives in more than one place.
const (
	isNegativeErrorMsg    = apimachineryvalidation.IsNegativeErrorMsg
	isNotPositiveErrorMsg = "must be greater than zero"
	isNotIntegerErrorMsg  = "must be an integer"
	fileModeErrorMsg      = "must be a number between 0 and 0777 (octal), both inclusive"
)

// validateNonnegativeField refuses a negative number.
func validateNonnegativeField(value int64, fldPath *field.Path) field.ErrorList {
	return apimachineryvalidation.ValidateNonnegativeField(value, fldPath)
}

// validatePositiveField refuses a number that is not above zero.
func validatePositiveField(value int64, fldPath *field.Path) field.ErrorList {
	if value > 0 {
		return nil
	}
	return field.ErrorList{field.Invalid(fldPath, value, isNotPositiveErrorMsg).WithOrigin("minimum")}
}

// validateDNS1123Label refuses a value that is not an RFC 1123 label, one error per reason.
func validateDNS1123Label(value string, fldPath *field.Path) field.ErrorList {
	return invalidFor(value, validation.IsDNS1123Label(value), fldPath, "format=k8s-short-name")
}

// validateDNS1123Subdomain refuses a value that is not an RFC 1123 subdomain.
func validateDNS1123Subdomain(value string, fldPath *field.Path) field.ErrorList {
	return invalidFor(value, validation.IsDNS1123Subdomain(value), fldPath, "format=k8s-long-name")
}

// validateQualifiedName refuses a value that is not a qualified name (a label or annotation key).
func validateQualifiedName(value string, fldPath *field.Path) field.ErrorList {
	return invalidFor(value, validation.IsQualifiedName(value), fldPath, "format=qualified-name")
}

// invalidFor turns the messages of an apimachinery Is* check into Invalid errors on fldPath.
func invalidFor(value string, msgs []string, fldPath *field.Path, origin string) field.ErrorList {
	if len(msgs) == 0 {
		return nil
	}
	errs := make(field.ErrorList, 0, len(msgs))
	for _, msg := range msgs {
		e := field.Invalid(fldPath, value, msg)
		if origin != "" {
			e = e.WithOrigin(origin)
		}
		errs = append(errs, e)
	}
	return errs
}

// validateLocalDescendingPath refuses an absolute path or one with a ".." element: a path that
// must stay below the directory it is joined to.
func validateLocalDescendingPath(targetPath string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if path.IsAbs(targetPath) {
		errs = append(errs, field.Invalid(fldPath, targetPath, "must be a relative path"))
	}
	return append(errs, validatePathNoBacksteps(targetPath, fldPath)...)
}

// validatePathNoBacksteps refuses a path with a ".." element, with one error however many there
// are.
func validatePathNoBacksteps(targetPath string, fldPath *field.Path) field.ErrorList {
	for _, elem := range strings.Split(targetPath, "/") {
		if elem == ".." {
			return field.ErrorList{field.Invalid(fldPath, targetPath, "must not contain '..'")}
		}
	}
	return nil
}
