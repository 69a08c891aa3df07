package validation

// Ephemeral volumes: the PVC template a pod's ephemeral volume becomes, and the claim spec it
// shares with a StatefulSet's volumeClaimTemplates.

import (
	"fmt"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	v1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateEphemeralVolume requires a claim template, and a name for the PVC it becomes
// ("<pod>-<volume>") that is a DNS subdomain, when the pod's name is known.
func validateEphemeralVolume(vol *v1.Volume, podMeta *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	fldPath := volPath.Child("ephemeral", "volumeClaimTemplate")
	var errs field.ErrorList
	if tmpl := vol.Ephemeral.VolumeClaimTemplate; tmpl == nil {
		errs = append(errs, field.Required(fldPath, ""))
	} else {
		errs = append(errs, validateClaimTemplateObjectMeta(&tmpl.ObjectMeta, fldPath.Child("metadata"))...)
		errs = append(errs, validatePersistentVolumeClaimSpec(&tmpl.Spec, fldPath.Child("spec"))...)
	}
	if podMeta != nil && podMeta.Name != "" && vol.Name != "" {
		claim := podMeta.Name + "-" + vol.Name
		for _, msg := range apimachineryvalidation.NameIsDNSSubdomain(claim, false) {
			errs = append(errs, field.Invalid(volPath.Child("name"), vol.Name, fmt.Sprintf("PVC name %q: %v", claim, msg)))
		}
	}
	return errs
}

// validateClaimTemplateObjectMeta is the API server's ValidateTemplateObjectMeta: a claim template
// may set labels and annotations, and nothing else of its metadata.
func validateClaimTemplateObjectMeta(meta *metav1.ObjectMeta, fldPath *field.Path) field.ErrorList {
	errs := validateSortedAnnotations(meta.Annotations, fldPath.Child("annotations"))
	errs = append(errs, validateSortedLabels(meta.Labels, fldPath.Child("labels"))...)
	// Every other field of ObjectMeta, present or future, is refused when not zero, under its
	// Go name with the first letter lowered ("uID").
	value := reflect.ValueOf(meta).Elem()
	for i := 0; i < value.NumField(); i++ {
		name := value.Type().Field(i).Name
		if name == "Labels" || name == "Annotations" || value.Field(i).IsZero() {
			continue
		}
		first, size := utf8.DecodeRuneInString(name)
		errs = append(errs, field.Forbidden(fldPath.Child(string(unicode.ToLower(first))+name[size:]), "cannot be set"))
	}
	return errs
}

// validateSortedAnnotations is apimachinery's ValidateAnnotations, keys checked in order (its
// order is a map's): each key a qualified name once lowercased, and the whole within the size limit.
func validateSortedAnnotations(annotations map[string]string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, k := range sets.List(sets.KeySet(annotations)) {
		for _, msg := range validation.IsQualifiedName(strings.ToLower(k)) {
			errs = append(errs, field.Invalid(fldPath, k, msg).WithOrigin("format=k8s-label-key"))
		}
	}
	if apimachineryvalidation.ValidateAnnotationsSize(annotations) != nil {
		errs = append(errs, field.TooLong(fldPath, "", apimachineryvalidation.TotalAnnotationSizeLimitB))
	}
	return errs
}

var (
	supportedAccessModes = sets.New(v1.ReadWriteOnce, v1.ReadOnlyMany, v1.ReadWriteMany, v1.ReadWriteOncePod)
	supportedVolumeModes = sets.New(v1.PersistentVolumeBlock, v1.PersistentVolumeFilesystem)
)

// validatePersistentVolumeClaimSpec is the API server's ValidatePersistentVolumeClaimSpec with the
// options of a claim being created (or a claim template): label values in the selector are
// checked, the data sources' API groups too, and volumeAttributesClassName (GA) is checked.
func validatePersistentVolumeClaimSpec(spec *v1.PersistentVolumeClaimSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(spec.AccessModes) == 0 {
		errs = append(errs, field.Required(fldPath.Child("accessModes"), "at least 1 access mode is required"))
	}
	errs = append(errs, validateSortedLabelSelector(spec.Selector, fldPath.Child("selector"))...)
	errs = append(errs, validateAccessModes(spec.AccessModes, fldPath.Child("accessModes"))...)
	storagePath := fldPath.Child("resources").Key(string(v1.ResourceStorage))
	if storage, ok := spec.Resources.Requests[v1.ResourceStorage]; !ok {
		errs = append(errs, field.Required(storagePath, ""))
	} else if storage.Sign() <= 0 {
		errs = append(errs, field.Invalid(storagePath, storage.String(), isNotPositiveErrorMsg))
	}
	errs = append(errs, validateClaimClassName(spec.StorageClassName, fldPath.Child("storageClassName"))...)
	if spec.VolumeMode != nil && !supportedVolumeModes.Has(*spec.VolumeMode) {
		errs = append(errs, field.NotSupported(fldPath.Child("volumeMode"), *spec.VolumeMode, sets.List(supportedVolumeModes)))
	}
	errs = append(errs, validateDataSources(spec, fldPath)...)
	return append(errs, validateClaimClassName(spec.VolumeAttributesClassName, fldPath.Child("volumeAttributesClassName"))...)
}

// validateAccessModes refuses an unknown mode, each time it appears, and ReadWriteOncePod beside
// another known mode.
func validateAccessModes(modes []v1.PersistentVolumeAccessMode, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	oncePod, other := false, false
	for _, mode := range modes {
		switch {
		case !supportedAccessModes.Has(mode):
			errs = append(errs, field.NotSupported(fldPath, mode, sets.List(supportedAccessModes)))
		case mode == v1.ReadWriteOncePod:
			oncePod = true
		default:
			other = true
		}
	}
	if oncePod && other {
		errs = append(errs, field.Forbidden(fldPath, "may not use ReadWriteOncePod with other access modes"))
	}
	return errs
}

// validateClaimClassName refuses a storage or volume attributes class name, when set, that is not a
// DNS subdomain.
func validateClaimClassName(name *string, fldPath *field.Path) field.ErrorList {
	if name == nil || *name == "" {
		return nil
	}
	var errs field.ErrorList
	for _, msg := range apimachineryvalidation.NameIsDNSSubdomain(*name, false) {
		errs = append(errs, field.Invalid(fldPath, *name, msg))
	}
	return errs
}

// validateDataSources checks dataSource and dataSourceRef, and that they agree: a dataSourceRef
// in another namespace allows no dataSource, otherwise both must name the same object.
func validateDataSources(spec *v1.PersistentVolumeClaimSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	ds, ref := spec.DataSource, spec.DataSourceRef
	if ds != nil {
		errs = append(errs, validateDataSourceFields(ds.Name, ds.Kind, ds.APIGroup, fldPath.Child("dataSource"))...)
	}
	if ref != nil {
		refPath := fldPath.Child("dataSourceRef")
		errs = append(errs, validateDataSourceFields(ref.Name, ref.Kind, ref.APIGroup, refPath)...)
		if ref.Namespace != nil && *ref.Namespace != "" {
			for _, msg := range apimachineryvalidation.ValidateNamespaceName(*ref.Namespace, false) {
				errs = append(errs, field.Invalid(refPath.Child("namespace"), *ref.Namespace, msg))
			}
		}
	}
	// The API server reports these at the spec with the path of dataSource as the bad value,
	// which prints as {}.
	switch {
	case ref != nil && ref.Namespace != nil && *ref.Namespace != "":
		if ds != nil {
			errs = append(errs, field.Invalid(fldPath, fldPath.Child("dataSource"), "may not be specified when dataSourceRef.namespace is specified"))
		}
	case ds != nil && ref != nil:
		if !reflect.DeepEqual(ds.APIGroup, ref.APIGroup) || ds.Kind != ref.Kind || ds.Name != ref.Name {
			errs = append(errs, field.Invalid(fldPath, fldPath.Child("dataSource"), "must match dataSourceRef"))
		}
	}
	return errs
}

// validateDataSourceFields checks what dataSource and dataSourceRef share: a name, a kind, which
// in the core group must be PersistentVolumeClaim, and a group that is a DNS subdomain.
func validateDataSourceFields(name, kind string, apiGroup *string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), ""))
	}
	if kind == "" {
		errs = append(errs, field.Required(fldPath.Child("kind"), ""))
	}
	group := ""
	if apiGroup != nil {
		group = *apiGroup
	}
	if group == "" && kind != "PersistentVolumeClaim" {
		errs = append(errs, field.Invalid(fldPath, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"))
	}
	if group != "" {
		for _, msg := range validation.IsDNS1123Subdomain(group) {
			errs = append(errs, field.Invalid(fldPath.Child("apiGroup"), group, msg))
		}
	}
	return errs
}
