package validation

// Resource requirements of a container, of the pod (spec.resources) and the pod's overhead:
// names, quantities, requests against limits, hugepages and claims.
//
// The API server walks the limits and requests maps (and, for spec.resources, the containers'
// totals) in Go's map order, which varies from one call to the next, so its errors about several
// resources of one map come in no fixed order. Here resources are taken sorted by name, for
// output that does not vary; compare such errors with the API server's as a set.

import (
	"fmt"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// resourceNameFunc checks a resource name where it is used (a container's or the pod's).
type resourceNameFunc func(name v1.ResourceName, fldPath *field.Path) field.ErrorList

// validateContainerResourceRequirements is the API server's ValidateContainerResourceRequirements.
func validateContainerResourceRequirements(req *v1.ResourceRequirements, claims sets.Set[string], fldPath *field.Path) field.ErrorList {
	return validateResourceRequirements(req, validateContainerResourceName, claims, fldPath)
}

// validateResourceRequirements is the API server's validateResourceRequirements: each limit and
// request named and sized well, requests not above limits (equal for resources that cannot be
// overcommitted), hugepages whole pages and beside cpu or memory, and the claims.
func validateResourceRequirements(req *v1.ResourceRequirements, nameFn resourceNameFunc, claims sets.Set[string], fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	limPath, reqPath := fldPath.Child("limits"), fldPath.Child("requests")
	cpuOrMemory, hugePages := false, false
	for _, name := range resourcesSortedNames(req.Limits) {
		qty := req.Limits[name]
		path := limPath.Key(string(name))
		allErrs = append(allErrs, nameFn(name, path)...)
		allErrs = append(allErrs, resourcesValidateQuantity(name, qty, path)...)
		if resourcesIsHugePages(name) {
			hugePages = true
			allErrs = append(allErrs, resourcesValidateHugePageQuantity(name, qty, path)...)
		}
		if name == v1.ResourceCPU || name == v1.ResourceMemory {
			cpuOrMemory = true
		}
	}
	for _, name := range resourcesSortedNames(req.Requests) {
		qty := req.Requests[name]
		path := reqPath.Key(string(name))
		allErrs = append(allErrs, nameFn(name, path)...)
		allErrs = append(allErrs, resourcesValidateQuantity(name, qty, path)...)
		allErrs = append(allErrs, resourcesRequestWithinLimit(name, qty, req.Limits, limPath, reqPath)...)
		if resourcesIsHugePages(name) {
			hugePages = true
			allErrs = append(allErrs, resourcesValidateHugePageQuantity(name, qty, path)...)
		}
		if name == v1.ResourceCPU || name == v1.ResourceMemory {
			cpuOrMemory = true
		}
	}
	if hugePages && !cpuOrMemory {
		allErrs = append(allErrs, field.Forbidden(fldPath, "HugePages require cpu or memory"))
	}
	return append(allErrs, resourcesValidateClaimNames(req.Claims, claims, fldPath.Child("claims"))...)
}

// resourcesRequestWithinLimit checks the request qty of name against its limit: not above it,
// equal to it for a resource that cannot be overcommitted, and such a resource needs a limit.
// The errors name the requests or limits map, not the entry, as the API server's do.
func resourcesRequestWithinLimit(name v1.ResourceName, qty resource.Quantity, limits v1.ResourceList, limPath, reqPath *field.Path) field.ErrorList {
	limit, ok := limits[name]
	switch {
	case !ok && !resourcesOvercommitAllowed(name):
		return field.ErrorList{field.Required(limPath, "Limit must be set for non overcommitable resources")}
	case !ok:
		return nil
	case qty.Cmp(limit) != 0 && !resourcesOvercommitAllowed(name):
		return field.ErrorList{field.Invalid(reqPath, qty.String(), fmt.Sprintf("must be equal to %s limit of %s", name, limit.String()))}
	case qty.Cmp(limit) > 0:
		return field.ErrorList{field.Invalid(reqPath, qty.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", name, limit.String()))}
	}
	return nil
}

// resourcesSortedNames returns the names in list, sorted.
func resourcesSortedNames(list v1.ResourceList) []v1.ResourceName {
	names := make([]v1.ResourceName, 0, len(list))
	for name := range list {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// resourcesValidateQuantity is the API server's ValidateResourceQuantityValue: not negative, and
// whole for a resource counted in units.
func resourcesValidateQuantity(name v1.ResourceName, qty resource.Quantity, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if qty.Cmp(resource.Quantity{}) < 0 {
		allErrs = append(allErrs, field.Invalid(fldPath, qty.String(), isNegativeErrorMsg))
	}
	if resourcesIsInteger(name) && qty.MilliValue()%1000 != 0 {
		// The API server gives the Quantity itself as the bad value; it prints quoted.
		allErrs = append(allErrs, field.Invalid(fldPath, qty, isNotIntegerErrorMsg))
	}
	return allErrs
}

// resourcesValidateHugePageQuantity refuses a hugepages quantity that is not a whole number of
// pages of the size the name gives (a name whose size does not parse has no whole number).
//
// A page size too large for an int64 ("hugepages-100E") reads as 0 bytes, and the API server
// divides by it: it panics and answers 500. That is reported here as an internal error on the
// field instead of a panic.
func resourcesValidateHugePageQuantity(name v1.ResourceName, qty resource.Quantity, fldPath *field.Path) field.ErrorList {
	page, err := resource.ParseQuantity(strings.TrimPrefix(string(name), v1.ResourceHugePagesPrefix))
	if err == nil && page.Sign() > 0 && page.MilliValue()%1000 == 0 {
		size := page.Value()
		if size == 0 {
			return field.ErrorList{field.InternalError(fldPath, fmt.Errorf("the page size of %s overflows: the API server fails on it (integer divide by zero)", name))}
		}
		if qty.Value()%size == 0 {
			return nil
		}
	}
	return field.ErrorList{field.Invalid(fldPath, qty.String(), fmt.Sprintf("%s is not positive integer multiple of %s", qty.String(), name))}
}

// resourcesValidateClaimNames is the API server's validateResourceClaimNames: each entry names a
// claim of the pod (with a request that is a DNS label, if any), and no claim, or request of it,
// is named twice.
func resourcesValidateClaimNames(claims []v1.ResourceClaim, podClaims sets.Set[string], fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	seen := sets.New[string]()
	for i, claim := range claims {
		idxPath := fldPath.Index(i)
		if claim.Name == "" {
			allErrs = append(allErrs, field.Required(idxPath, ""))
			continue
		}
		if seen.Has(claim.Name) {
			// The whole claim is already used, so every request of it is.
			allErrs = append(allErrs, field.Duplicate(idxPath, claim.Name))
		} else {
			key := claim.Name
			if claim.Request != "" {
				allErrs = append(allErrs, validateDNS1123Label(claim.Request, idxPath.Child("request"))...)
				key += "/" + claim.Request
			}
			if seen.Has(key) {
				allErrs = append(allErrs, field.Duplicate(idxPath, key))
			} else if claim.Request == "" {
				// The whole claim overlaps each of its requests named before: one error per request.
				for k := range seen {
					if before, _, ok := strings.Cut(k, "/"); ok && before == claim.Name {
						allErrs = append(allErrs, field.Duplicate(idxPath, claim.Name))
					}
				}
			}
			seen.Insert(key)
		}
		if !podClaims.Has(claim.Name) {
			allErrs = append(allErrs, resourcesClaimNotFound(idxPath, claim.Name, podClaims))
		}
	}
	return allErrs
}

// resourcesClaimNotFound is the API server's NotFound for a claim the pod does not have, with
// its explanation of which names it could be.
func resourcesClaimNotFound(fldPath *field.Path, name string, podClaims sets.Set[string]) *field.Error {
	err := field.NotFound(fldPath, name)
	err.Detail = "must be one of the names in pod.spec.resourceClaims"
	if len(podClaims) == 0 {
		err.Detail += " which is empty"
	} else {
		err.Detail += ": " + strings.Join(sets.List(podClaims), ", ")
	}
	return err
}

// validateResourceName is the API server's validateResourceName: a qualified name, and a
// standard resource if it has no domain.
func validateResourceName(name v1.ResourceName, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for _, msg := range validation.IsQualifiedName(string(name)) {
		allErrs = append(allErrs, field.Invalid(fldPath, name, msg))
	}
	if len(allErrs) != 0 {
		return allErrs
	}
	if !strings.Contains(string(name), "/") && !resourcesIsStandard(name) {
		return field.ErrorList{field.Invalid(fldPath, name, "must be a standard resource type or fully qualified")}
	}
	return nil
}

// validateContainerResourceName is the API server's ValidateContainerResourceName: a resource
// name a container may request, a standard one (cpu, memory, ephemeral-storage, hugepages-*) or
// an extended one. The container check runs even when the name is not a qualified name.
func validateContainerResourceName(name v1.ResourceName, fldPath *field.Path) field.ErrorList {
	allErrs := validateResourceName(name, fldPath)
	if !strings.Contains(string(name), "/") {
		if !resourcesIsStandardContainer(name) {
			return append(allErrs, field.Invalid(fldPath, name, "must be a standard resource for containers"))
		}
	} else if !resourcesIsNative(name) && !resourcesIsExtended(name) {
		return append(allErrs, field.Invalid(fldPath, name, "doesn't follow extended resource name standard"))
	}
	return allErrs
}

// resourcesPodLevel are the resources spec.resources may set, as the API server lists them
// ("hugepages-" standing for every page size).
var resourcesPodLevel = sets.List(sets.New(v1.ResourceCPU, v1.ResourceMemory, v1.ResourceHugePagesPrefix))

// validatePodResourceName is the API server's validatePodResourceName: a valid resource name
// that pod-level resources support (cpu, memory and hugepages).
func validatePodResourceName(name v1.ResourceName, fldPath *field.Path) field.ErrorList {
	if errs := validateResourceName(name, fldPath); len(errs) != 0 {
		return errs
	}
	if name != v1.ResourceCPU && name != v1.ResourceMemory && !resourcesIsHugePages(name) {
		return field.ErrorList{field.NotSupported(fldPath, name, resourcesPodLevel)}
	}
	return nil
}

// validatePodResources is the API server's validatePodResources: spec.resources.
func validatePodResources(spec *v1.PodSpec, claims sets.Set[string], fldPath *field.Path) field.ErrorList {
	if spec.Resources == nil {
		return nil
	}
	resPath := fldPath.Child("resources")
	// On Windows the field is refused outright, without details about its value.
	if spec.OS != nil && spec.OS.Name == v1.Windows {
		return field.ErrorList{field.Forbidden(resPath, "may not be set for a windows pod")}
	}
	var allErrs field.ErrorList
	if spec.Resources.Claims != nil {
		allErrs = append(allErrs, field.Forbidden(resPath.Child("claims"), "claims may not be set for Resources at pod-level"))
	}
	allErrs = append(allErrs, validateResourceRequirements(spec.Resources, validatePodResourceName, claims, resPath)...)
	return append(allErrs, validatePodResourceConsistency(spec, resPath)...)
}

// validateOverhead is the API server's validateOverhead: spec.overhead, checked as a
// container's limits.
func validateOverhead(overhead v1.ResourceList, fldPath *field.Path) field.ErrorList {
	return validateContainerResourceRequirements(&v1.ResourceRequirements{Limits: overhead}, nil, fldPath)
}
