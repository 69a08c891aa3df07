package validation

// The batch group's Job: its selector, counts, completion mode and template.

import (
	"fmt"
	"maps"

	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Limits of a Job's spec.
const (
	maxParallelismForIndexedJob    = 100000
	maxFailedIndexesForIndexedJob  = 100_000
	completionsSoftLimit           = 100_000
	parallelismLimitHighCompletion = 10_000
	maxFailedIndexesHighCompletion = 10_000
	maxManagedByLength             = 63
)

// The labels a Job's generated selector selects on: legacy and prefixed, name and UID.
const (
	legacyJobNameLabel       = "job-name"
	legacyControllerUIDLabel = "controller-uid"
)

// placeholderJobUID stands for the UID the API server gives a Job without one, which its generated
// selector and labels carry.
const placeholderJobUID = "00000000-0000-0000-0000-000000000000"

// validateJob is the API server's ValidateJobCreate (prefixed labels required) on the Job as its
// create strategy leaves it: unless spec.manualSelector is true, the selector and the template's
// labels are generated from the Job's name and UID first (generateSelector: each label the
// template lacks, and a selector on batch.kubernetes.io/controller-uid). The API server gives
// every new object a UID of its own; the Job's UID stands for it here (a placeholder when it has
// none), so a template label or selector naming another UID is refused with the Job's UID where
// the API server would name its own.
func validateJob(job *batchv1.Job) field.ErrorList {
	if job.Spec.ManualSelector == nil || !*job.Spec.ManualSelector {
		job = withGeneratedSelector(job)
	}
	specPath := field.NewPath("spec")
	allErrs := validateObjectMeta(&job.ObjectMeta, true, apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrs = append(allErrs, validateGeneratedSelector(job)...)
	allErrs = append(allErrs, validateJobSpec(&job.Spec, specPath)...)
	if job.Spec.Selector == nil {
		allErrs = append(allErrs, field.Required(specPath.Child("selector"), ""))
	} else {
		allErrs = append(allErrs, validateLabelSelector(job.Spec.Selector, specPath.Child("selector"))...)
	}
	if sel, err := metav1.LabelSelectorAsSelector(job.Spec.Selector); err == nil && !sel.Matches(labels.Set(job.Spec.Template.Labels)) {
		allErrs = append(allErrs, field.Invalid(specPath.Child("template", "metadata", "labels"), job.Spec.Template.Labels, selectorMismatchMsg))
	}
	return uniqueErrors(append(allErrs, validateNameAllowsCompletions(job)...))
}

// withGeneratedSelector returns a copy of job with the selector and template labels the API
// server's create strategy generates (job itself is not changed).
func withGeneratedSelector(job *batchv1.Job) *batchv1.Job {
	out := *job
	uid := string(job.UID)
	if uid == "" {
		uid = placeholderJobUID
		out.UID = placeholderJobUID
	}
	out.Spec.Template.Labels = maps.Clone(job.Spec.Template.Labels)
	if out.Spec.Template.Labels == nil {
		out.Spec.Template.Labels = map[string]string{}
	}
	for key, value := range map[string]string{
		legacyJobNameLabel: job.Name, batchv1.JobNameLabel: job.Name,
		legacyControllerUIDLabel: uid, batchv1.ControllerUidLabel: uid,
	} {
		if _, ok := out.Spec.Template.Labels[key]; !ok {
			out.Spec.Template.Labels[key] = value
		}
	}
	out.Spec.Selector = job.Spec.Selector.DeepCopy()
	if out.Spec.Selector == nil {
		out.Spec.Selector = &metav1.LabelSelector{}
	}
	if out.Spec.Selector.MatchLabels == nil {
		out.Spec.Selector.MatchLabels = map[string]string{}
	}
	if _, ok := out.Spec.Selector.MatchLabels[batchv1.ControllerUidLabel]; !ok {
		out.Spec.Selector.MatchLabels[batchv1.ControllerUidLabel] = uid
	}
	return &out
}

// validateGeneratedSelector is the API server's validateGeneratedSelector: a generated selector
// and the template's labels must name the Job and its UID (a label the author set to another
// value is refused), and the selector must select them.
func validateGeneratedSelector(job *batchv1.Job) field.ErrorList {
	if (job.Spec.ManualSelector != nil && *job.Spec.ManualSelector) || job.Spec.Selector == nil {
		return nil
	}
	var allErrs field.ErrorList
	if job.UID == "" {
		allErrs = append(allErrs, field.Required(field.NewPath("metadata", "uid"), ""))
	}
	metaPath := field.NewPath("spec", "template", "metadata")
	expected := []struct{ key, value string }{
		{legacyControllerUIDLabel, string(job.UID)}, {legacyJobNameLabel, job.Name},
		{batchv1.ControllerUidLabel, string(job.UID)}, {batchv1.JobNameLabel, job.Name},
	}
	want := labels.Set{}
	for _, e := range expected {
		allErrs = append(allErrs, validateHasLabel(job.Spec.Template.Labels, metaPath, e.key, e.value)...)
		want[e.key] = e.value
	}
	if sel, err := metav1.LabelSelectorAsSelector(job.Spec.Selector); err == nil && !sel.Matches(want) {
		allErrs = append(allErrs, field.Invalid(field.NewPath("spec", "selector"), job.Spec.Selector, "`selector` not auto-generated"))
	}
	return allErrs
}

// validateHasLabel is the API server's ValidateHasLabel: labels must hold key with value.
func validateHasLabel(labels map[string]string, metaPath *field.Path, key, value string) field.ErrorList {
	path := metaPath.Child("labels").Key(key)
	actual, ok := labels[key]
	switch {
	case !ok:
		return field.ErrorList{field.Required(path, fmt.Sprintf("must be '%s'", value))}
	case actual != value:
		return field.ErrorList{field.Invalid(path, labels, fmt.Sprintf("must be '%s'", value))}
	}
	return nil
}

// validateNameAllowsCompletions is the API server's validateNameAllowsCompletions: an Indexed
// Job's last pod hostname, <name>-<completions-1>, must be an RFC 1123 label.
func validateNameAllowsCompletions(job *batchv1.Job) field.ErrorList {
	spec := &job.Spec
	if spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion || spec.Completions == nil || *spec.Completions <= 0 {
		return nil
	}
	hostname := fmt.Sprintf("%s-%d", job.Name, *spec.Completions-1)
	if len(validation.IsDNS1123Label(hostname)) == 0 {
		return nil
	}
	return field.ErrorList{field.Invalid(field.NewPath("metadata", "name"), job.Name, "will not able to create pod with invalid DNS label: "+hostname)}
}

// validateJobSpec is the API server's validateJobSpec, the part of a Job's spec a CronJob's job
// template shares: counts, managedBy, completion mode and its limits, pod failure and success
// policies, pod replacement policy, the template and its restartPolicy. (spec.scheduling, dropped
// on create while WorkloadWithJob is off, is not checked.)
func validateJobSpec(spec *batchv1.JobSpec, fldPath *field.Path) field.ErrorList {
	allErrs := validateJobCounts(spec, fldPath)
	if spec.ManagedBy != nil {
		allErrs = append(allErrs, validation.IsDomainPrefixedPath(fldPath.Child("managedBy"), *spec.ManagedBy)...)
		if len(*spec.ManagedBy) > maxManagedByLength {
			allErrs = append(allErrs, field.TooLong(fldPath.Child("managedBy"), "", maxManagedByLength))
		}
	}
	allErrs = append(allErrs, validateCompletionMode(spec, fldPath)...)
	if spec.PodFailurePolicy != nil {
		allErrs = append(allErrs, validatePodFailurePolicy(spec, fldPath.Child("podFailurePolicy"))...)
	}
	if spec.SuccessPolicy != nil {
		if spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("successPolicy"), internalSuccessPolicyOf(spec.SuccessPolicy), "requires indexed completion mode"))
		} else {
			allErrs = append(allErrs, validateSuccessPolicy(spec, fldPath.Child("successPolicy"))...)
		}
	}
	allErrs = append(allErrs, validatePodReplacementPolicy(spec, fldPath.Child("podReplacementPolicy"))...)
	templatePath := fldPath.Child("template")
	allErrs = append(allErrs, validatePodTemplateSpec(&spec.Template, templatePath)...)
	return append(allErrs, validateJobRestartPolicy(spec, templatePath.Child("spec", "restartPolicy"))...)
}

// validateJobCounts checks that the counts of a Job are not negative, and that maxFailedIndexes
// comes with backoffLimitPerIndex.
func validateJobCounts(spec *batchv1.JobSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for _, c := range []struct {
		name  string
		value *int32
	}{{"parallelism", spec.Parallelism}, {"completions", spec.Completions}} {
		if c.value != nil {
			allErrs = append(allErrs, validateNonnegativeField(int64(*c.value), fldPath.Child(c.name))...)
		}
	}
	if spec.ActiveDeadlineSeconds != nil {
		allErrs = append(allErrs, validateNonnegativeField(*spec.ActiveDeadlineSeconds, fldPath.Child("activeDeadlineSeconds"))...)
	}
	for _, c := range []struct {
		name  string
		value *int32
	}{{"backoffLimit", spec.BackoffLimit}, {"ttlSecondsAfterFinished", spec.TTLSecondsAfterFinished}, {"backoffLimitPerIndex", spec.BackoffLimitPerIndex}} {
		if c.value != nil {
			allErrs = append(allErrs, validateNonnegativeField(int64(*c.value), fldPath.Child(c.name))...)
		}
	}
	if spec.MaxFailedIndexes != nil {
		allErrs = append(allErrs, validateNonnegativeField(int64(*spec.MaxFailedIndexes), fldPath.Child("maxFailedIndexes"))...)
		if spec.BackoffLimitPerIndex == nil {
			allErrs = append(allErrs, field.Required(fldPath.Child("backoffLimitPerIndex"), "when maxFailedIndexes is specified").WithOrigin("dependentRequired"))
		}
	}
	return allErrs
}

// validateCompletionMode checks the completion mode and what it allows: an Indexed Job needs
// completions and bounds parallelism and maxFailedIndexes; backoffLimitPerIndex and
// maxFailedIndexes need an Indexed Job.
func validateCompletionMode(spec *batchv1.JobSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	mode := spec.CompletionMode
	if mode != nil && *mode != batchv1.NonIndexedCompletion && *mode != batchv1.IndexedCompletion {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("completionMode"), mode, []batchv1.CompletionMode{batchv1.NonIndexedCompletion, batchv1.IndexedCompletion}))
	}
	if mode != nil && *mode == batchv1.IndexedCompletion {
		allErrs = append(allErrs, validateIndexedLimits(spec, fldPath)...)
	}
	if mode == nil || *mode == batchv1.NonIndexedCompletion {
		if spec.BackoffLimitPerIndex != nil {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("backoffLimitPerIndex"), *spec.BackoffLimitPerIndex, "requires indexed completion mode"))
		}
		if spec.MaxFailedIndexes != nil {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("maxFailedIndexes"), *spec.MaxFailedIndexes, "requires indexed completion mode"))
		}
	}
	return allErrs
}

// validateIndexedLimits checks what an Indexed Job's counts may be.
func validateIndexedLimits(spec *batchv1.JobSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	parallelismPath, maxFailedPath := fldPath.Child("parallelism"), fldPath.Child("maxFailedIndexes")
	completions, parallelism, maxFailed := spec.Completions, spec.Parallelism, spec.MaxFailedIndexes
	if completions == nil {
		allErrs = append(allErrs, field.Required(fldPath.Child("completions"), "when completion mode is Indexed"))
	}
	if parallelism != nil && *parallelism > maxParallelismForIndexedJob {
		allErrs = append(allErrs, field.Invalid(parallelismPath, *parallelism, fmt.Sprintf("must be less than or equal to %d when completion mode is Indexed", maxParallelismForIndexedJob)))
	}
	if completions != nil && maxFailed != nil && *maxFailed > *completions {
		allErrs = append(allErrs, field.Invalid(maxFailedPath, *maxFailed, "must be less than or equal to completions"))
	}
	if maxFailed != nil && *maxFailed > maxFailedIndexesForIndexedJob {
		allErrs = append(allErrs, field.Invalid(maxFailedPath, *maxFailed, fmt.Sprintf("must be less than or equal to %d", maxFailedIndexesForIndexedJob)))
	}
	if completions == nil || *completions <= completionsSoftLimit || spec.BackoffLimitPerIndex == nil {
		return allErrs
	}
	if maxFailed == nil {
		allErrs = append(allErrs, field.Required(maxFailedPath, fmt.Sprintf("must be specified when completions is above %d", completionsSoftLimit)))
	}
	suffix := fmt.Sprintf(" when completions are above %d and used with backoff limit per index", completionsSoftLimit)
	if parallelism != nil && *parallelism > parallelismLimitHighCompletion {
		allErrs = append(allErrs, field.Invalid(parallelismPath, *parallelism, fmt.Sprintf("must be less than or equal to %d", parallelismLimitHighCompletion)+suffix))
	}
	if maxFailed != nil && *maxFailed > maxFailedIndexesHighCompletion {
		allErrs = append(allErrs, field.Invalid(maxFailedPath, *maxFailed, fmt.Sprintf("must be less than or equal to %d", maxFailedIndexesHighCompletion)+suffix))
	}
	return allErrs
}

// validateJobRestartPolicy requires a Job's pods to restart OnFailure or Never, and Never with a
// pod failure policy (the API server counts an unset policy, defaulted to Always, as missing).
func validateJobRestartPolicy(spec *batchv1.JobSpec, fldPath *field.Path) field.ErrorList {
	switch policy := spec.Template.Spec.RestartPolicy; {
	case policy == v1.RestartPolicyAlways || policy == "":
		return field.ErrorList{field.Required(fldPath, fmt.Sprintf("valid values: %q, %q", v1.RestartPolicyOnFailure, v1.RestartPolicyNever))}
	case policy != v1.RestartPolicyOnFailure && policy != v1.RestartPolicyNever:
		return field.ErrorList{field.NotSupported(fldPath, policy, []v1.RestartPolicy{v1.RestartPolicyOnFailure, v1.RestartPolicyNever})}
	case spec.PodFailurePolicy != nil && policy != v1.RestartPolicyNever:
		return field.ErrorList{field.Invalid(fldPath, policy, fmt.Sprintf("only %q is supported when podFailurePolicy is specified", v1.RestartPolicyNever))}
	}
	return nil
}

// validatePodReplacementPolicy is the API server's validatePodReplacementPolicy: Failed with a pod
// failure policy, else Failed or TerminatingOrFailed.
func validatePodReplacementPolicy(spec *batchv1.JobSpec, fldPath *field.Path) field.ErrorList {
	p := spec.PodReplacementPolicy
	switch {
	case p == nil:
		return nil
	case spec.PodFailurePolicy != nil:
		if *p != batchv1.Failed {
			return field.ErrorList{field.NotSupported(fldPath, *p, []batchv1.PodReplacementPolicy{batchv1.Failed})}
		}
	case *p != batchv1.Failed && *p != batchv1.TerminatingOrFailed:
		return field.ErrorList{field.NotSupported(fldPath, *p, []batchv1.PodReplacementPolicy{batchv1.Failed, batchv1.TerminatingOrFailed})}
	}
	return nil
}
