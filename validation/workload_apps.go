package validation

// The apps group's Deployment, ReplicaSet and DaemonSet.

import (
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateDeployment is the API server's ValidateDeployment on the Deployment as it converts
// it: the annotation deprecated.deployment.rollback.to becomes spec.rollbackTo (and leaves the
// annotations), and one that is not a number refuses the request before validation.
func validateDeployment(d *appsv1.Deployment) (field.ErrorList, error) {
	meta := &d.ObjectMeta
	var rollback *int64
	if value := d.Annotations[appsv1.DeprecatedRollbackTo]; value != "" {
		revision, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return nil, badRequest(kindDeployment, fmt.Sprintf("failed to parse annotation[%s]=%s as int64: %v", appsv1.DeprecatedRollbackTo, value, err))
		}
		rollback = &revision
		meta = objectMetaWithoutKey(meta, appsv1.DeprecatedRollbackTo)
	}
	specPath := field.NewPath("spec")
	spec := &d.Spec
	allErrs := validateObjectMeta(meta, true, apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrs = append(allErrs, validateNonnegativeField(int64(countOrZero(spec.Replicas)), specPath.Child("replicas"))...)
	allErrs = append(allErrs, validateReplicatedSelector(spec.Selector, "deployment", specPath.Child("selector"))...)
	allErrs = append(allErrs, validateReplicatedTemplate(spec.Selector, &spec.Template, specPath)...)
	allErrs = append(allErrs, validateDeploymentStrategy(&spec.Strategy, specPath.Child("strategy"))...)
	allErrs = append(allErrs, validateNonnegativeField(int64(spec.MinReadySeconds), specPath.Child("minReadySeconds"))...)
	if spec.RevisionHistoryLimit != nil {
		allErrs = append(allErrs, validateNonnegativeField(int64(*spec.RevisionHistoryLimit), specPath.Child("revisionHistoryLimit"))...)
	}
	if rollback != nil {
		allErrs = append(allErrs, validateNonnegativeField(*rollback, specPath.Child("rollback", "version"))...)
	}
	if p := spec.ProgressDeadlineSeconds; p != nil {
		allErrs = append(allErrs, validateNonnegativeField(int64(*p), specPath.Child("progressDeadlineSeconds"))...)
		if *p <= spec.MinReadySeconds {
			allErrs = append(allErrs, field.Invalid(specPath.Child("progressDeadlineSeconds"), p, "must be greater than minReadySeconds"))
		}
	}
	return uniqueErrors(allErrs), nil
}

// validateReplicaSet is the API server's ValidateReplicaSet.
func validateReplicaSet(rs *appsv1.ReplicaSet) field.ErrorList {
	specPath := field.NewPath("spec")
	spec := &rs.Spec
	allErrs := validateObjectMeta(&rs.ObjectMeta, true, apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrs = append(allErrs, validateNonnegativeField(int64(countOrZero(spec.Replicas)), specPath.Child("replicas"))...)
	allErrs = append(allErrs, validateNonnegativeField(int64(spec.MinReadySeconds), specPath.Child("minReadySeconds"))...)
	// The API server words an empty ReplicaSet selector as a Deployment's.
	allErrs = append(allErrs, validateReplicatedSelector(spec.Selector, "deployment", specPath.Child("selector"))...)
	return uniqueErrors(append(allErrs, validateReplicatedTemplate(spec.Selector, &spec.Template, specPath)...))
}

// validateReplicatedSelector is the selector check a Deployment, a ReplicaSet and a StatefulSet
// share: required, valid and not empty ("empty selector is invalid for <kind>").
func validateReplicatedSelector(selector *metav1.LabelSelector, kind string, fldPath *field.Path) field.ErrorList {
	if selector == nil {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	allErrs := validateLabelSelector(selector, fldPath)
	if len(selector.MatchLabels)+len(selector.MatchExpressions) == 0 {
		allErrs = append(allErrs, field.Invalid(fldPath, selector, "empty selector is invalid for "+kind))
	}
	return allErrs
}

// validateReplicatedTemplate is the API server's check of a Deployment's or ReplicaSet's template
// (ValidatePodTemplateSpecForReplicaSet): a selector that does not convert is refused instead;
// otherwise the selector must select the template, the template must be valid, restart Always
// and have no activeDeadlineSeconds (a Deployment's refusal names its ReplicaSet, as the API
// server's does).
func validateReplicatedTemplate(selector *metav1.LabelSelector, template *v1.PodTemplateSpec, specPath *field.Path) field.ErrorList {
	sel, err := metav1.LabelSelectorAsSelector(selector)
	if err != nil {
		return field.ErrorList{field.Invalid(specPath.Child("selector"), selector, "invalid label selector")}
	}
	templatePath := specPath.Child("template")
	allErrs := validateTemplateSelected(sel, template, templatePath)
	allErrs = append(allErrs, validatePodTemplateSpec(template, templatePath)...)
	return append(allErrs, restartAlways(&template.Spec, "ReplicaSet", templatePath.Child("spec"))...)
}

// validateDeploymentStrategy is the API server's ValidateDeploymentStrategy.
func validateDeploymentStrategy(s *appsv1.DeploymentStrategy, fldPath *field.Path) field.ErrorList {
	switch s.Type {
	case appsv1.RecreateDeploymentStrategyType:
		if s.RollingUpdate != nil {
			return field.ErrorList{field.Forbidden(fldPath.Child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'")}
		}
	case appsv1.RollingUpdateDeploymentStrategyType:
		if s.RollingUpdate == nil {
			return field.ErrorList{field.Required(fldPath.Child("rollingUpdate"), "this should be defaulted and never be nil")}
		}
		return validateRollingUpdateDeployment(s.RollingUpdate, fldPath.Child("rollingUpdate"))
	default:
		supported := []string{string(appsv1.RecreateDeploymentStrategyType), string(appsv1.RollingUpdateDeploymentStrategyType)}
		return field.ErrorList{field.NotSupported(fldPath, internalDeploymentStrategyOf(s), supported)}
	}
	return nil
}

// validateRollingUpdateDeployment is the API server's ValidateRollingUpdateDeployment.
func validateRollingUpdateDeployment(ru *appsv1.RollingUpdateDeployment, fldPath *field.Path) field.ErrorList {
	maxUnavailable, maxSurge := intOrStringOrZero(ru.MaxUnavailable), intOrStringOrZero(ru.MaxSurge)
	allErrs := validatePositiveIntOrPercent(maxUnavailable, fldPath.Child("maxUnavailable"))
	allErrs = append(allErrs, validatePositiveIntOrPercent(maxSurge, fldPath.Child("maxSurge"))...)
	if intOrPercentValue(maxUnavailable) == 0 && intOrPercentValue(maxSurge) == 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("maxUnavailable"), maxUnavailable, "may not be 0 when `maxSurge` is 0"))
	}
	return append(allErrs, notMoreThan100Percent(maxUnavailable, fldPath.Child("maxUnavailable"))...)
}

// validateDaemonSet is the API server's ValidateDaemonSet on the DaemonSet as it converts it: the
// annotation deprecated.daemonset.template.generation becomes spec.templateGeneration (and leaves
// the annotations), and one that is not a number refuses the request before validation. The
// create strategy raises a templateGeneration below 1 to 1, so it is never refused.
func validateDaemonSet(ds *appsv1.DaemonSet) (field.ErrorList, error) {
	meta := &ds.ObjectMeta
	if value, ok := ds.Annotations[appsv1.DeprecatedTemplateGeneration]; ok {
		if _, err := strconv.ParseInt(value, 10, 64); err != nil {
			return nil, badRequest(kindDaemonSet, err.Error())
		}
		meta = objectMetaWithoutKey(meta, appsv1.DeprecatedTemplateGeneration)
	}
	specPath := field.NewPath("spec")
	spec := &ds.Spec
	allErrs := validateObjectMeta(meta, true, apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrs = append(allErrs, validateLabelSelector(spec.Selector, specPath.Child("selector"))...)
	if sel, err := metav1.LabelSelectorAsSelector(spec.Selector); err == nil && !sel.Matches(labels.Set(spec.Template.Labels)) {
		allErrs = append(allErrs, field.Invalid(specPath.Child("template", "metadata", "labels"), spec.Template.Labels, selectorMismatchMsg))
	}
	if spec.Selector != nil && len(spec.Selector.MatchLabels)+len(spec.Selector.MatchExpressions) == 0 {
		allErrs = append(allErrs, field.Invalid(specPath.Child("selector"), spec.Selector, "empty selector is invalid for daemonset"))
	}
	templatePath := specPath.Child("template")
	allErrs = append(allErrs, validatePodTemplateSpec(&spec.Template, templatePath)...)
	allErrs = append(allErrs, restartAlways(&spec.Template.Spec, "DaemonSet", templatePath.Child("spec"))...)
	allErrs = append(allErrs, validateNonnegativeField(int64(spec.MinReadySeconds), specPath.Child("minReadySeconds"))...)
	allErrs = append(allErrs, validateDaemonSetUpdateStrategy(&spec.UpdateStrategy, specPath.Child("updateStrategy"))...)
	if spec.RevisionHistoryLimit != nil {
		allErrs = append(allErrs, validateNonnegativeField(int64(*spec.RevisionHistoryLimit), specPath.Child("revisionHistoryLimit"))...)
	}
	return uniqueErrors(allErrs), nil
}

// validateDaemonSetUpdateStrategy is the API server's ValidateDaemonSetUpdateStrategy.
func validateDaemonSetUpdateStrategy(s *appsv1.DaemonSetUpdateStrategy, fldPath *field.Path) field.ErrorList {
	switch s.Type {
	case appsv1.OnDeleteDaemonSetStrategyType:
		return nil
	case appsv1.RollingUpdateDaemonSetStrategyType:
		if s.RollingUpdate == nil {
			return field.ErrorList{field.Required(fldPath.Child("rollingUpdate"), "")}
		}
		return validateRollingUpdateDaemonSet(s.RollingUpdate, fldPath.Child("rollingUpdate"))
	}
	supported := []string{string(appsv1.RollingUpdateDaemonSetStrategyType), string(appsv1.OnDeleteDaemonSetStrategyType)}
	return field.ErrorList{field.NotSupported(fldPath, internalDaemonSetUpdateStrategyOf(s), supported)}
}

// validateRollingUpdateDaemonSet is the API server's ValidateRollingUpdateDaemonSet: exactly one
// of maxUnavailable and maxSurge is not zero.
func validateRollingUpdateDaemonSet(ru *appsv1.RollingUpdateDaemonSet, fldPath *field.Path) field.ErrorList {
	maxUnavailable, maxSurge := intOrStringOrZero(ru.MaxUnavailable), intOrStringOrZero(ru.MaxSurge)
	unavailablePath, surgePath := fldPath.Child("maxUnavailable"), fldPath.Child("maxSurge")
	allErrs := validatePositiveIntOrPercent(maxUnavailable, unavailablePath)
	allErrs = append(allErrs, validatePositiveIntOrPercent(maxSurge, surgePath)...)
	allErrs = append(allErrs, notMoreThan100Percent(maxUnavailable, unavailablePath)...)
	allErrs = append(allErrs, notMoreThan100Percent(maxSurge, surgePath)...)
	hasUnavailable, hasSurge := intOrPercentValue(maxUnavailable) != 0, intOrPercentValue(maxSurge) != 0
	switch {
	case hasUnavailable && hasSurge:
		allErrs = append(allErrs, field.Invalid(surgePath, maxSurge, "may not be set when maxUnavailable is non-zero"))
	case !hasUnavailable && !hasSurge:
		allErrs = append(allErrs, field.Required(unavailablePath, "cannot be 0 when maxSurge is 0"))
	}
	return allErrs
}
