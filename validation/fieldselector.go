package validation

// The downward API's field selectors: a fieldRef or resourceFieldRef of an env var or of a
// downwardAPI volume file, and the field paths each place allows.

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The field paths a fieldRef may name without a subscript: an env var sees the pod's node, service
// account and IPs, a volume file (rewritten when they change) the whole labels and annotations.
var (
	validEnvDownwardAPIFieldPaths = sets.New(
		"metadata.name", "metadata.namespace", "metadata.uid",
		"spec.nodeName", "spec.serviceAccountName",
		"status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs")
	validVolumeDownwardAPIFieldPaths = sets.New(
		"metadata.name", "metadata.namespace", "metadata.uid",
		"metadata.labels", "metadata.annotations")
)

// The resources a resourceFieldRef may name, for env vars and volume files alike: these, or any
// name starting with one of the hugepages prefixes.
var (
	validContainerResourceFieldPaths = sets.New(
		"limits.cpu", "limits.memory", "limits.ephemeral-storage",
		"requests.cpu", "requests.memory", "requests.ephemeral-storage")
	validContainerResourceFieldPathPrefixes = sets.New(hugePagesRequestsPrefix, hugePagesLimitsPrefix)
)

const (
	hugePagesRequestsPrefix = "requests.hugepages-"
	hugePagesLimitsPrefix   = "limits.hugepages-"
)

// The divisors a resourceFieldRef may carry, by the resource it names (compared as the quantity
// prints). Memory, ephemeral storage and hugepages share the byte units.
var (
	validCPUDivisors  = sets.New("1m", "1")
	validByteDivisors = sets.New("1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei")
)

const byteDivisorsList = "1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei"

// validateObjectFieldSelector is the API server's validateObjectFieldSelector: a fieldRef of an
// env var or a downwardAPI file, against the field paths allowed there (expressions). A subscript
// is allowed on metadata.labels and metadata.annotations only, whatever expressions holds.
func validateObjectFieldSelector(fs *v1.ObjectFieldSelector, expressions *sets.Set[string], fldPath *field.Path) field.ErrorList {
	if fs.APIVersion == "" {
		return field.ErrorList{field.Required(fldPath.Child("apiVersion"), "")}
	}
	if fs.FieldPath == "" {
		return field.ErrorList{field.Required(fldPath.Child("fieldPath"), "")}
	}
	converted, err := convertDownwardAPIFieldPath(fs.APIVersion, fs.FieldPath)
	if err != nil {
		return field.ErrorList{field.Invalid(fldPath.Child("fieldPath"), fs.FieldPath, fmt.Sprintf("error converting fieldPath: %v", err))}
	}
	base, subscript, subscripted := splitSubscriptedFieldPath(converted)
	switch {
	case !subscripted:
		if !expressions.Has(base) {
			return field.ErrorList{field.NotSupported(fldPath.Child("fieldPath"), base, sets.List(*expressions))}
		}
		return nil
	case base == "metadata.annotations":
		// Annotation keys are case-insensitive, so they are checked lowercased.
		return validateQualifiedName(strings.ToLower(subscript), fldPath)
	case base == "metadata.labels":
		return validateQualifiedName(subscript, fldPath)
	default:
		return field.ErrorList{field.Invalid(fldPath, base, "does not support subscript")}
	}
}

// convertDownwardAPIFieldPath is the API server's conversion of a v1 downward API field label to
// its internal name: the labels the pod's v1 field selectors know, spec.host (an old v1 client's
// name for spec.nodeName), and subscripts of the labels and annotations.
func convertDownwardAPIFieldPath(version, fieldPath string) (string, error) {
	if version != "v1" {
		return "", fmt.Errorf("unsupported pod version: %s", version)
	}
	if base, _, ok := splitSubscriptedFieldPath(fieldPath); ok {
		if base == "metadata.annotations" || base == "metadata.labels" {
			return fieldPath, nil
		}
		return "", fmt.Errorf("field label does not support subscript: %s", fieldPath)
	}
	switch fieldPath {
	case "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid",
		"spec.nodeName", "spec.restartPolicy", "spec.serviceAccountName", "spec.schedulerName",
		"status.phase", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs":
		return fieldPath, nil
	case "spec.host":
		return "spec.nodeName", nil
	}
	return "", fmt.Errorf("field label not supported: %s", fieldPath)
}

// splitSubscriptedFieldPath splits "metadata.labels['key']" into "metadata.labels" and "key". A
// path that does not end in "']", has no "['" or has nothing before it is not subscripted and
// comes back whole.
func splitSubscriptedFieldPath(fieldPath string) (base, subscript string, ok bool) {
	inner, found := strings.CutSuffix(fieldPath, "']")
	if !found {
		return fieldPath, "", false
	}
	base, subscript, found = strings.Cut(inner, "['")
	if !found || base == "" {
		return fieldPath, "", false
	}
	return base, subscript, true
}

// validateContainerResourceFieldSelector is the API server's validateContainerResourceFieldSelector:
// a resourceFieldRef of an env var (volume false) or a downwardAPI file (volume true, where the
// container must be named), against the resources allowed (expressions, or a name starting with
// one of prefixes), and its divisor.
func validateContainerResourceFieldSelector(fs *v1.ResourceFieldSelector, expressions *sets.Set[string], prefixes *sets.Set[string], fldPath *field.Path, volume bool) field.ErrorList {
	var allErrs field.ErrorList
	switch {
	case volume && fs.ContainerName == "":
		allErrs = append(allErrs, field.Required(fldPath.Child("containerName"), ""))
	case fs.Resource == "":
		allErrs = append(allErrs, field.Required(fldPath.Child("resource"), ""))
	case !expressions.Has(fs.Resource) && !hasAnyPrefix(fs.Resource, prefixes):
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("resource"), fs.Resource, sets.List(*expressions)))
	}
	return append(allErrs, validateContainerResourceDivisor(fs.Resource, fs.Divisor, fldPath)...)
}

func hasAnyPrefix(s string, prefixes *sets.Set[string]) bool {
	if prefixes == nil {
		return false
	}
	for p := range *prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// validateContainerResourceDivisor refuses a divisor the resource's unit does not divide by. An
// unset (zero) divisor means 1 and is not checked; nor is the divisor of a resource not listed.
func validateContainerResourceDivisor(rName string, divisor resource.Quantity, fldPath *field.Path) field.ErrorList {
	if divisor.IsZero() {
		return nil
	}
	var allErrs field.ErrorList
	d := divisor.String()
	divisorPath := fldPath.Child("divisor")
	switch rName {
	case "limits.cpu", "requests.cpu":
		if !validCPUDivisors.Has(d) {
			allErrs = append(allErrs, field.Invalid(divisorPath, rName, "only divisor's values 1m and 1 are supported with the cpu resource"))
		}
	case "limits.memory", "requests.memory":
		if !validByteDivisors.Has(d) {
			allErrs = append(allErrs, field.Invalid(divisorPath, rName, "only divisor's values "+byteDivisorsList+" are supported with the memory resource"))
		}
	case "limits.ephemeral-storage", "requests.ephemeral-storage":
		if !validByteDivisors.Has(d) {
			allErrs = append(allErrs, field.Invalid(divisorPath, rName, "only divisor's values "+byteDivisorsList+" are supported with the local ephemeral storage resource"))
		}
	}
	if (strings.HasPrefix(rName, hugePagesRequestsPrefix) || strings.HasPrefix(rName, hugePagesLimitsPrefix)) && !validByteDivisors.Has(d) {
		allErrs = append(allErrs, field.Invalid(divisorPath, rName, "only divisor's values "+byteDivisorsList+" are supported with the hugepages resource"))
	}
	return allErrs
}
