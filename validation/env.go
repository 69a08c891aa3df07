package validation

// A container's env and envFrom: names (v1.37's relaxed rule), and the sources of values.

import (
	v1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The downward API fields an env var may read: pod fields by path, the container's own
// resources by name, or any hugepages size by prefix.
var (
	envFieldPathExpressions = sets.New(
		"metadata.name", "metadata.namespace", "metadata.uid",
		"spec.nodeName", "spec.serviceAccountName",
		"status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs",
	)
	envResourceFieldPathExpressions = sets.New(
		"limits.cpu", "limits.memory", "limits.ephemeral-storage",
		"requests.cpu", "requests.memory", "requests.ephemeral-storage",
	)
	envResourceFieldPathPrefixes = sets.New("requests.hugepages-", "limits.hugepages-")
)

// validateEnv is the API server's ValidateEnv with RelaxedEnvironmentVariableValidation locked
// on: every name printable ASCII without '=', and each valueFrom well formed.
func validateEnv(vars []v1.EnvVar, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i := range vars {
		ev := &vars[i]
		idxPath := fldPath.Index(i)
		if ev.Name == "" {
			allErrs = append(allErrs, field.Required(idxPath.Child("name"), ""))
		} else {
			for _, msg := range validation.IsRelaxedEnvVarName(ev.Name) {
				allErrs = append(allErrs, field.Invalid(idxPath.Child("name"), ev.Name, msg))
			}
		}
		allErrs = append(allErrs, validateEnvVarValueFrom(ev, idxPath.Child("valueFrom"))...)
	}
	return allErrs
}

// validateEnvVarValueFrom checks an env var's valueFrom: each source set is checked, and exactly
// one must be set, with no value beside it. EnvFiles is on in v1.37, so fileKeyRef is a source.
func validateEnvVarValueFrom(ev *v1.EnvVar, fldPath *field.Path) field.ErrorList {
	from := ev.ValueFrom
	if from == nil {
		return nil
	}
	var allErrs field.ErrorList
	sources := 0
	if from.FieldRef != nil {
		sources++
		allErrs = append(allErrs, validateObjectFieldSelector(from.FieldRef, &envFieldPathExpressions, fldPath.Child("fieldRef"))...)
	}
	if from.ResourceFieldRef != nil {
		sources++
		prefixes := envResourceFieldPathPrefixes
		allErrs = append(allErrs, validateContainerResourceFieldSelector(from.ResourceFieldRef, &envResourceFieldPathExpressions, &prefixes, fldPath.Child("resourceFieldRef"), false)...)
	}
	if from.ConfigMapKeyRef != nil {
		sources++
		allErrs = append(allErrs, validateEnvKeySelector(from.ConfigMapKeyRef.Name, from.ConfigMapKeyRef.Key, fldPath.Child("configMapKeyRef"))...)
	}
	if from.SecretKeyRef != nil {
		sources++
		allErrs = append(allErrs, validateEnvKeySelector(from.SecretKeyRef.Name, from.SecretKeyRef.Key, fldPath.Child("secretKeyRef"))...)
	}
	if from.FileKeyRef != nil {
		sources++
		allErrs = append(allErrs, validateFileKeySelector(from.FileKeyRef, fldPath.Child("fileKeyRef"))...)
	}
	switch {
	case sources == 0:
		allErrs = append(allErrs, field.Invalid(fldPath, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"))
	case ev.Value != "":
		allErrs = append(allErrs, field.Invalid(fldPath, "", "may not be specified when `value` is not empty"))
	case sources > 1:
		allErrs = append(allErrs, field.Invalid(fldPath, "", "may not have more than one field specified at a time"))
	}
	return allErrs
}

// validateEnvKeySelector checks a configMapKeyRef or secretKeyRef: the object's name a DNS
// subdomain (an empty one included, which the subdomain rule refuses) and a key a ConfigMap
// could hold.
func validateEnvKeySelector(name, key string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for _, msg := range apimachineryvalidation.NameIsDNSSubdomain(name, false) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("name"), name, msg))
	}
	if key == "" {
		return append(allErrs, field.Required(fldPath.Child("key"), ""))
	}
	for _, msg := range validation.IsConfigMapKey(key) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("key"), key, msg))
	}
	return allErrs
}

// validateFileKeySelector checks a fileKeyRef: a key that is an env var name, a volume name that
// is a DNS label, and a path with no "..". That the volume exists and is an emptyDir is checked
// with the pod's volumes (validateFileKeyRefVolumes).
func validateFileKeySelector(s *v1.FileKeySelector, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if s.Key == "" {
		allErrs = append(allErrs, field.Required(fldPath.Child("key"), ""))
	} else {
		for _, msg := range validation.IsRelaxedEnvVarName(s.Key) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("key"), s.Key, msg))
		}
	}
	if s.VolumeName == "" {
		allErrs = append(allErrs, field.Required(fldPath.Child("volumeName"), ""))
	} else {
		allErrs = append(allErrs, validateDNS1123Label(s.VolumeName, fldPath.Child("volumeName"))...)
	}
	if s.Path == "" {
		allErrs = append(allErrs, field.Required(fldPath.Child("path"), ""))
	} else {
		allErrs = append(allErrs, validatePathNoBacksteps(s.Path, fldPath.Child("path"))...)
	}
	return allErrs
}

// validateEnvFrom is the API server's ValidateEnvFrom: a prefix that is an env var name, and
// exactly one of configMapRef and secretRef, named by a DNS subdomain. The count errors name the
// envFrom list, not the entry, as the API server's do.
func validateEnvFrom(sources []v1.EnvFromSource, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i := range sources {
		src := &sources[i]
		idxPath := fldPath.Index(i)
		if src.Prefix != "" {
			for _, msg := range validation.IsRelaxedEnvVarName(src.Prefix) {
				allErrs = append(allErrs, field.Invalid(idxPath.Child("prefix"), src.Prefix, msg))
			}
		}
		refs := 0
		if src.ConfigMapRef != nil {
			refs++
			allErrs = append(allErrs, validateEnvFromName(src.ConfigMapRef.Name, idxPath.Child("configMapRef"))...)
		}
		if src.SecretRef != nil {
			refs++
			allErrs = append(allErrs, validateEnvFromName(src.SecretRef.Name, idxPath.Child("secretRef"))...)
		}
		if refs == 0 {
			allErrs = append(allErrs, field.Invalid(fldPath, "", "must specify one of: `configMapRef` or `secretRef`"))
		} else if refs > 1 {
			allErrs = append(allErrs, field.Invalid(fldPath, "", "may not have more than one field specified at a time"))
		}
	}
	return allErrs
}

// validateEnvFromName checks the name of an envFrom ConfigMap or Secret: required, and a DNS
// subdomain checked as a prefix (a trailing '-' allowed), as the API server checks it.
func validateEnvFromName(name string, fldPath *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(fldPath.Child("name"), "")}
	}
	var allErrs field.ErrorList
	for _, msg := range apimachineryvalidation.NameIsDNSSubdomain(name, true) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("name"), name, msg))
	}
	return allErrs
}
