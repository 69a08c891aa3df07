package validation

// The core group's workloads: ReplicationController and PodTemplate.

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/validate/content"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validatePodTemplate is the API server's ValidatePodTemplate: the object's metadata (a pod's
// name rules), then its template.
func validatePodTemplate(pt *v1.PodTemplate) field.ErrorList {
	allErrs := validateObjectMeta(&pt.ObjectMeta, true, validatePodName, field.NewPath("metadata"))
	allErrs = append(allErrs, validatePodTemplateSpec(&pt.Template, field.NewPath("template"))...)
	return uniqueErrors(allErrs)
}

// validateReplicationController is the API server's ValidateReplicationController followed by
// its declarative validation. kube-apiserver v1.37 checks the name, spec.replicas and
// spec.minReadySeconds declaratively (beta, enforced): the handwritten errors it covers are
// dropped and the declarative ones, the same words, come after all the others.
func validateReplicationController(rc *v1.ReplicationController) field.ErrorList {
	specPath := field.NewPath("spec")
	// The name is checked declaratively, and generateName not at all (the API server validates
	// the name it generated).
	meta := rc.ObjectMeta
	meta.GenerateName = ""
	allErrs := validateObjectMeta(&meta, true, noNameErrors, field.NewPath("metadata"))
	allErrs = append(allErrs, validateReplicationControllerSpec(&rc.Spec, specPath)...)
	return append(uniqueErrors(allErrs), replicationControllerDeclarative(rc)...)
}

// noNameErrors is a name check that finds nothing, for a name checked elsewhere.
func noNameErrors(string, bool) []string { return nil }

// validateReplicationControllerSpec is the API server's ValidateReplicationControllerSpec without
// the checks of minReadySeconds and replicas its declarative validation takes over: a selector
// that selects something, and a template it selects.
func validateReplicationControllerSpec(spec *v1.ReplicationControllerSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	selector := labels.Set(spec.Selector).AsSelector()
	if selector.Empty() {
		allErrs = append(allErrs, field.Required(fldPath.Child("selector"), ""))
	}
	templatePath := fldPath.Child("template")
	if spec.Template == nil {
		return append(allErrs, field.Required(templatePath, ""))
	}
	allErrs = append(allErrs, validateTemplateSelected(selector, spec.Template, templatePath)...)
	allErrs = append(allErrs, validatePodTemplateSpec(spec.Template, templatePath)...)
	return append(allErrs, restartAlways(&spec.Template.Spec, "ReplicationController", templatePath.Child("spec"))...)
}

// replicationControllerDeclarative is kube-apiserver's declarative validation of a
// ReplicationController, in its order: the name (an RFC 1123 subdomain), spec.replicas (required,
// not negative), spec.minReadySeconds (not negative).
func replicationControllerDeclarative(rc *v1.ReplicationController) field.ErrorList {
	var allErrs field.ErrorList
	if name := rc.Name; name != "" {
		// The declarative check's own words: its length limit is counted in bytes.
		for _, msg := range content.IsDNS1123Subdomain(name) {
			allErrs = append(allErrs, field.Invalid(field.NewPath("metadata", "name"), name, msg).WithOrigin("format=k8s-long-name"))
		}
	}
	specPath := field.NewPath("spec")
	if rc.Spec.Replicas == nil {
		allErrs = append(allErrs, field.Required(specPath.Child("replicas"), ""))
	} else {
		allErrs = append(allErrs, validateMinimumZero(*rc.Spec.Replicas, specPath.Child("replicas"))...)
	}
	return append(allErrs, validateMinimumZero(rc.Spec.MinReadySeconds, specPath.Child("minReadySeconds"))...)
}

// validateMinimumZero is the declarative minimum of 0: the words of validateNonnegativeField,
// with the value as the int32 it is.
func validateMinimumZero(value int32, fldPath *field.Path) field.ErrorList {
	if value >= 0 {
		return nil
	}
	return field.ErrorList{field.Invalid(fldPath, value, apimachineryvalidation.IsNegativeErrorMsg).WithOrigin("minimum")}
}

// objectMetaWithoutKey returns meta with the annotation key removed (the API server converts it
// into a field of the internal object), sharing everything else; meta itself when it has no such
// annotation.
func objectMetaWithoutKey(meta *metav1.ObjectMeta, key string) *metav1.ObjectMeta {
	if _, ok := meta.Annotations[key]; !ok {
		return meta
	}
	out := *meta
	out.Annotations = make(map[string]string, len(meta.Annotations)-1)
	for k, v := range meta.Annotations {
		if k != key {
			out.Annotations[k] = v
		}
	}
	return &out
}
