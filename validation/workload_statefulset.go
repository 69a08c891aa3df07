package validation

// The apps group's StatefulSet.

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateStatefulSet is the API server's ValidateStatefulSet for a new StatefulSet (serviceName
// must be an RFC 1123 label; the Recreate update strategy is refused, StatefulSetRecreateStrategy
// being off): its name is an RFC 1123 label, as its pods' hostnames come from it.
func validateStatefulSet(set *appsv1.StatefulSet) field.ErrorList {
	allErrs := validateObjectMeta(&set.ObjectMeta, true, apimachineryvalidation.NameIsDNSLabel, field.NewPath("metadata"))
	return uniqueErrors(append(allErrs, validateStatefulSetSpec(&set.Spec, field.NewPath("spec"))...))
}

// validateStatefulSetSpec is the API server's ValidateStatefulSetSpec.
func validateStatefulSetSpec(spec *appsv1.StatefulSetSpec, fldPath *field.Path) field.ErrorList {
	allErrs := validatePodManagementPolicy(spec.PodManagementPolicy, fldPath.Child("podManagementPolicy"))
	allErrs = append(allErrs, validateStatefulSetUpdateStrategy(&spec.UpdateStrategy, fldPath.Child("updateStrategy"))...)
	if p := spec.PersistentVolumeClaimRetentionPolicy; p != nil {
		retentionPath := fldPath.Child("persistentVolumeClaimRetentionPolicy")
		allErrs = append(allErrs, validateRetentionPolicyType(p.WhenDeleted, retentionPath.Child("whenDeleted"))...)
		allErrs = append(allErrs, validateRetentionPolicyType(p.WhenScaled, retentionPath.Child("whenScaled"))...)
	}
	for i := range spec.VolumeClaimTemplates {
		allErrs = append(allErrs, validateClaimSpec(&spec.VolumeClaimTemplates[i].Spec, fldPath.Child("volumeClaimTemplates").Index(i).Child("spec"))...)
	}
	allErrs = append(allErrs, validateNonnegativeField(int64(countOrZero(spec.Replicas)), fldPath.Child("replicas"))...)
	allErrs = append(allErrs, validateNonnegativeField(int64(spec.MinReadySeconds), fldPath.Child("minReadySeconds"))...)
	if spec.Ordinals != nil {
		allErrs = append(allErrs, validateNonnegativeField(int64(spec.Ordinals.Start), fldPath.Child("ordinals.start"))...)
	}
	if len(spec.ServiceName) > 0 {
		allErrs = append(allErrs, validateDNS1123Label(spec.ServiceName, fldPath.Child("serviceName"))...)
	}
	allErrs = append(allErrs, validateReplicatedSelector(spec.Selector, "statefulset", fldPath.Child("selector"))...)
	allErrs = append(allErrs, validateStatefulSetTemplate(spec, fldPath)...)
	return append(allErrs, restartAlways(&spec.Template.Spec, "StatefulSet", fldPath.Child("template", "spec"))...)
}

// validatePodManagementPolicy requires OrderedReady or Parallel.
func validatePodManagementPolicy(policy appsv1.PodManagementPolicyType, fldPath *field.Path) field.ErrorList {
	switch policy {
	case "":
		return field.ErrorList{field.Required(fldPath, "")}
	case appsv1.OrderedReadyPodManagement, appsv1.ParallelPodManagement:
		return nil
	}
	return field.ErrorList{field.Invalid(fldPath, policy, fmt.Sprintf("must be '%s' or '%s'", appsv1.OrderedReadyPodManagement, appsv1.ParallelPodManagement))}
}

// validateStatefulSetUpdateStrategy checks the update strategy's type and, for RollingUpdate,
// its partition and maxUnavailable.
func validateStatefulSetUpdateStrategy(s *appsv1.StatefulSetUpdateStrategy, fldPath *field.Path) field.ErrorList {
	rollingPath := fldPath.Child("rollingUpdate")
	switch s.Type {
	case "":
		return field.ErrorList{field.Required(fldPath, "")}
	case appsv1.OnDeleteStatefulSetStrategyType:
		if s.RollingUpdate != nil {
			msg := fmt.Sprintf("only allowed for updateStrategy '%s'", appsv1.RollingUpdateStatefulSetStrategyType)
			return field.ErrorList{field.Invalid(rollingPath, internalRollingUpdateStatefulSetOf(s.RollingUpdate), msg)}
		}
		return nil
	case appsv1.RollingUpdateStatefulSetStrategyType:
		if s.RollingUpdate != nil {
			return validateRollingUpdateStatefulSet(s.RollingUpdate, rollingPath)
		}
		return nil
	}
	internal := internalStatefulSetUpdateStrategy{Type: s.Type, RollingUpdate: internalRollingUpdateStatefulSetOf(s.RollingUpdate)}
	msg := fmt.Sprintf("must be '%s' or '%s'", appsv1.RollingUpdateStatefulSetStrategyType, appsv1.OnDeleteStatefulSetStrategyType)
	return field.ErrorList{field.Invalid(fldPath, internal, msg)}
}

// validateRollingUpdateStatefulSet is the API server's validateRollingUpdateStatefulSet: the
// partition is not negative; maxUnavailable is an integer or percentage, not 0, at most 100%.
func validateRollingUpdateStatefulSet(ru *appsv1.RollingUpdateStatefulSetStrategy, fldPath *field.Path) field.ErrorList {
	allErrs := validateNonnegativeField(int64(countOrZero(ru.Partition)), fldPath.Child("partition"))
	if ru.MaxUnavailable != nil {
		maxPath := fldPath.Child("maxUnavailable")
		allErrs = append(allErrs, validatePositiveIntOrPercent(*ru.MaxUnavailable, maxPath)...)
		if intOrPercentValue(*ru.MaxUnavailable) == 0 {
			allErrs = append(allErrs, field.Invalid(maxPath, *ru.MaxUnavailable, "cannot be 0"))
		}
		allErrs = append(allErrs, notMoreThan100Percent(*ru.MaxUnavailable, maxPath)...)
	}
	return allErrs
}

// validateRetentionPolicyType requires Retain or Delete.
func validateRetentionPolicyType(policy appsv1.PersistentVolumeClaimRetentionPolicyType, fldPath *field.Path) field.ErrorList {
	switch policy {
	case appsv1.RetainPersistentVolumeClaimRetentionPolicyType, appsv1.DeletePersistentVolumeClaimRetentionPolicyType:
		return nil
	}
	supported := []string{string(appsv1.RetainPersistentVolumeClaimRetentionPolicyType), string(appsv1.DeletePersistentVolumeClaimRetentionPolicyType)}
	return field.ErrorList{field.NotSupported(fldPath, policy, supported)}
}

// validateStatefulSetTemplate is the API server's ValidatePodTemplateSpecForStatefulSet on the
// template as the controller will fill it: hostname and subdomain cleared (the controller sets
// them), and a persistentVolumeClaim volume per claim template in place of a template volume of
// its name. A selector that does not convert is refused with no detail, and the template is then
// not checked. The template's labels and annotations are checked a second time, as the API server
// does (the repeated errors are dropped with the other duplicates).
func validateStatefulSetTemplate(spec *appsv1.StatefulSetSpec, fldPath *field.Path) field.ErrorList {
	sel, err := metav1.LabelSelectorAsSelector(spec.Selector)
	if err != nil {
		return field.ErrorList{field.Invalid(fldPath.Child("selector"), spec.Selector, "")}
	}
	template := statefulSetTemplateToValidate(spec)
	templatePath := fldPath.Child("template")
	allErrs := validateTemplateSelected(sel, template, templatePath)
	allErrs = append(allErrs, validatePodTemplateSpec(template, templatePath)...)
	allErrs = append(allErrs, validateLabels(template.Labels, templatePath.Child("labels"))...)
	allErrs = append(allErrs, validateAnnotations(template.Annotations, templatePath.Child("annotations"))...)
	return append(allErrs, validatePodSpecificAnnotations(template.Annotations, &template.Spec, templatePath.Child("annotations"))...)
}

// statefulSetTemplateToValidate returns the template the API server validates for spec: the
// template itself, or a copy without hostname and subdomain and with the claim templates'
// volumes first, in the claim templates' order (the API server takes them from a map, in random
// order), then the template's other volumes.
func statefulSetTemplateToValidate(spec *appsv1.StatefulSetSpec) *v1.PodTemplateSpec {
	t := &spec.Template
	if t.Spec.Subdomain == "" && t.Spec.Hostname == "" && len(spec.VolumeClaimTemplates) == 0 {
		return t
	}
	out := t.DeepCopy()
	out.Spec.Subdomain = ""
	out.Spec.Hostname = ""
	if len(spec.VolumeClaimTemplates) == 0 {
		return out
	}
	claims := make(map[string]bool, len(spec.VolumeClaimTemplates))
	volumes := make([]v1.Volume, 0, len(spec.VolumeClaimTemplates)+len(t.Spec.Volumes))
	for _, c := range spec.VolumeClaimTemplates {
		if claims[c.Name] {
			continue
		}
		claims[c.Name] = true
		volumes = append(volumes, v1.Volume{Name: c.Name, VolumeSource: v1.VolumeSource{
			PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: c.Name},
		}})
	}
	for _, v := range out.Spec.Volumes {
		if !claims[v.Name] {
			volumes = append(volumes, v)
		}
	}
	out.Spec.Volumes = volumes
	return out
}
