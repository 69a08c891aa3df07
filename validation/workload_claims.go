package validation

// A StatefulSet's volumeClaimTemplates: the spec of a PersistentVolumeClaim.

import (
	"reflect"
	"slices"

	v1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The access and volume modes the API server lists when it refuses one, sorted as it sorts them.
var (
	claimAccessModes = []v1.PersistentVolumeAccessMode{v1.ReadOnlyMany, v1.ReadWriteMany, v1.ReadWriteOnce, v1.ReadWriteOncePod}
	claimVolumeModes = []v1.PersistentVolumeMode{v1.PersistentVolumeBlock, v1.PersistentVolumeFilesystem}
)

// validateClaimSpec is the API server's ValidatePersistentVolumeClaimSpec for a claim being
// created (VolumeAttributesClass on, selector label values checked): access modes, selector,
// requested storage, storage class, volume mode, data source and reference, volume attributes
// class.
func validateClaimSpec(spec *v1.PersistentVolumeClaimSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	modesPath := fldPath.Child("accessModes")
	if len(spec.AccessModes) == 0 {
		allErrs = append(allErrs, field.Required(modesPath, "at least 1 access mode is required"))
	}
	allErrs = append(allErrs, validateLabelSelector(spec.Selector, fldPath.Child("selector"))...)
	allErrs = append(allErrs, validateClaimAccessModes(spec.AccessModes, modesPath)...)
	allErrs = append(allErrs, validateClaimStorage(spec.Resources.Requests, fldPath.Child("resources").Key(string(v1.ResourceStorage)))...)
	if c := spec.StorageClassName; c != nil && len(*c) > 0 {
		for _, msg := range apimachineryvalidation.NameIsDNSSubdomain(*c, false) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("storageClassName"), *c, msg))
		}
	}
	if m := spec.VolumeMode; m != nil && !slices.Contains(claimVolumeModes, *m) {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("volumeMode"), *m, claimVolumeModes))
	}
	if ds := spec.DataSource; ds != nil {
		allErrs = append(allErrs, validateClaimDataSource(ds.Name, ds.Kind, ds.APIGroup, fldPath.Child("dataSource"))...)
	}
	if ref := spec.DataSourceRef; ref != nil {
		refPath := fldPath.Child("dataSourceRef")
		allErrs = append(allErrs, validateClaimDataSource(ref.Name, ref.Kind, ref.APIGroup, refPath)...)
		if ns := ref.Namespace; ns != nil && len(*ns) > 0 {
			for _, msg := range apimachineryvalidation.ValidateNamespaceName(*ns, false) {
				allErrs = append(allErrs, field.Invalid(refPath.Child("namespace"), *ns, msg))
			}
		}
	}
	allErrs = append(allErrs, validateClaimDataSourcePair(spec, fldPath)...)
	if c := spec.VolumeAttributesClassName; c != nil && len(*c) > 0 {
		for _, msg := range apimachineryvalidation.NameIsDNSSubdomain(*c, false) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("volumeAttributesClassName"), *c, msg))
		}
	}
	return allErrs
}

// validateClaimAccessModes refuses an unknown access mode, and ReadWriteOncePod beside another mode.
func validateClaimAccessModes(modes []v1.PersistentVolumeAccessMode, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	oncePod, other := false, false
	for _, mode := range modes {
		known := slices.Contains(claimAccessModes, mode)
		if !known {
			allErrs = append(allErrs, field.NotSupported(fldPath, mode, claimAccessModes))
		}
		oncePod = oncePod || mode == v1.ReadWriteOncePod
		other = other || (known && mode != v1.ReadWriteOncePod)
	}
	if oncePod && other {
		allErrs = append(allErrs, field.Forbidden(fldPath, "may not use ReadWriteOncePod with other access modes"))
	}
	return allErrs
}

// validateClaimStorage requires a storage request above zero (fldPath names it).
func validateClaimStorage(requests v1.ResourceList, fldPath *field.Path) field.ErrorList {
	storage, ok := requests[v1.ResourceStorage]
	if !ok {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	if storage.Sign() <= 0 {
		return field.ErrorList{field.Invalid(fldPath, storage.String(), isNotPositiveErrorMsg)}
	}
	return nil
}

// validateClaimDataSource is the API server's validateDataSource and the shared part of
// validateDataSourceRef: a name and a kind, the kind PersistentVolumeClaim in the core group, and
// a group that is an RFC 1123 subdomain.
func validateClaimDataSource(name, kind string, apiGroup *string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if len(name) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("name"), ""))
	}
	if len(kind) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("kind"), ""))
	}
	group := ""
	if apiGroup != nil {
		group = *apiGroup
	}
	if len(group) == 0 && kind != "PersistentVolumeClaim" {
		allErrs = append(allErrs, field.Invalid(fldPath, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"))
	}
	if len(group) > 0 {
		for _, msg := range validation.IsDNS1123Subdomain(group) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("apiGroup"), group, msg))
		}
	}
	return allErrs
}

// validateClaimDataSourcePair refuses a dataSource beside a dataSourceRef that names a namespace, and
// one that differs from the dataSourceRef otherwise. The API server quotes the path of dataSource
// as the bad value, which its error text shows as {}.
func validateClaimDataSourcePair(spec *v1.PersistentVolumeClaimSpec, fldPath *field.Path) field.ErrorList {
	ds, ref := spec.DataSource, spec.DataSourceRef
	switch {
	case ref != nil && ref.Namespace != nil && len(*ref.Namespace) > 0:
		if ds != nil {
			return field.ErrorList{field.Invalid(fldPath, fldPath.Child("dataSource"), "may not be specified when dataSourceRef.namespace is specified")}
		}
	case ds != nil && ref != nil:
		if !reflect.DeepEqual(ds.APIGroup, ref.APIGroup) || ds.Kind != ref.Kind || ds.Name != ref.Name {
			return field.ErrorList{field.Invalid(fldPath, fldPath.Child("dataSource"), "must match dataSourceRef")}
		}
	}
	return nil
}
