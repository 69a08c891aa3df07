package validation

// The batch group's CronJob.

import (
	"fmt"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// maxCronJobNameLength leaves room for the 11 characters ("-" and the scheduled time in minutes)
// the controller appends to name a Job, whose names are RFC 1035 labels.
const maxCronJobNameLength = validation.DNS1035LabelMaxLength - 11

// validateCronJob is the API server's ValidateCronJobCreate followed by its declarative
// validation, which in kube-apiserver v1.37 takes over the check of a missing schedule (beta,
// enforced): that error comes after all the others.
func validateCronJob(cj *batchv1.CronJob) field.ErrorList {
	specPath := field.NewPath("spec")
	allErrs := validateObjectMeta(&cj.ObjectMeta, true, apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrs = append(allErrs, validateCronJobSpec(&cj.Spec, specPath)...)
	if len(cj.Name) > maxCronJobNameLength {
		allErrs = append(allErrs, field.Invalid(field.NewPath("metadata", "name"), cj.Name, fmt.Sprintf("must be no more than %d characters", maxCronJobNameLength)))
	}
	allErrs = uniqueErrors(allErrs)
	if len(cj.Spec.Schedule) == 0 {
		allErrs = append(allErrs, field.Required(specPath.Child("schedule"), ""))
	}
	return allErrs
}

// validateCronJobSpec is the API server's validateCronJobSpec on create, without the missing
// schedule (see validateCronJob): the schedule, startingDeadlineSeconds, the time zone, the
// concurrency policy, the job template and the history limits.
func validateCronJobSpec(spec *batchv1.CronJobSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if len(spec.Schedule) > 0 {
		allErrs = append(allErrs, validateSchedule(spec.Schedule, fldPath.Child("schedule"))...)
	}
	if spec.StartingDeadlineSeconds != nil {
		allErrs = append(allErrs, validateNonnegativeField(*spec.StartingDeadlineSeconds, fldPath.Child("startingDeadlineSeconds"))...)
	}
	allErrs = append(allErrs, validateTimeZone(spec.TimeZone, fldPath.Child("timeZone"))...)
	allErrs = append(allErrs, validateConcurrencyPolicy(spec.ConcurrencyPolicy, fldPath.Child("concurrencyPolicy"))...)
	allErrs = append(allErrs, validateJobTemplateSpec(&spec.JobTemplate, fldPath.Child("jobTemplate"))...)
	if l := spec.SuccessfulJobsHistoryLimit; l != nil {
		allErrs = append(allErrs, validateNonnegativeField(int64(*l), fldPath.Child("successfulJobsHistoryLimit"))...)
	}
	if l := spec.FailedJobsHistoryLimit; l != nil {
		allErrs = append(allErrs, validateNonnegativeField(int64(*l), fldPath.Child("failedJobsHistoryLimit"))...)
	}
	return allErrs
}

// validateSchedule is the API server's validateScheduleFormat on create: the schedule must parse,
// and may not name a time zone (that is spec.timeZone's job).
func validateSchedule(schedule string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if err := cronScheduleError(schedule); err != nil {
		allErrs = append(allErrs, field.Invalid(fldPath, schedule, err.Error()))
	}
	if strings.Contains(schedule, "TZ") {
		allErrs = append(allErrs, field.Invalid(fldPath, schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"))
	}
	return allErrs
}

// validateTimeZone is the API server's validateTimeZone: unset, or a name of the time zone
// database (not Local), each of whose "/"-separated parts looks like one before it is looked up.
func validateTimeZone(tz *string, fldPath *field.Path) field.ErrorList {
	if tz == nil {
		return nil
	}
	if len(*tz) == 0 {
		return field.ErrorList{field.Invalid(fldPath, tz, "timeZone must be nil or non-empty string")}
	}
	for _, part := range strings.Split(*tz, "/") {
		if !validTimeZonePart(part) {
			return field.ErrorList{field.Invalid(fldPath, tz, fmt.Sprintf("unknown time zone %s", *tz))}
		}
	}
	var allErrs field.ErrorList
	if strings.EqualFold(*tz, "Local") {
		allErrs = append(allErrs, field.Invalid(fldPath, tz, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"))
	}
	if _, err := time.LoadLocation(*tz); err != nil {
		allErrs = append(allErrs, field.Invalid(fldPath, tz, err.Error()))
	}
	return allErrs
}

// validTimeZonePart reports whether part is 1 to 14 of A-Z, a-z, 0-9, ".", "-", "_" and "+",
// neither "." nor ".." and not starting with "-".
func validTimeZonePart(part string) bool {
	if len(part) == 0 || len(part) > 14 || part == "." || part == ".." || strings.HasPrefix(part, "-") {
		return false
	}
	for _, c := range []byte(part) {
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '.', c == '-', c == '_', c == '+':
		default:
			return false
		}
	}
	return true
}

// validateConcurrencyPolicy requires Allow, Forbid or Replace.
func validateConcurrencyPolicy(policy batchv1.ConcurrencyPolicy, fldPath *field.Path) field.ErrorList {
	switch policy {
	case batchv1.AllowConcurrent, batchv1.ForbidConcurrent, batchv1.ReplaceConcurrent:
		return nil
	case "":
		return field.ErrorList{field.Required(fldPath, "")}
	}
	return field.ErrorList{field.NotSupported(fldPath, policy, []batchv1.ConcurrencyPolicy{batchv1.AllowConcurrent, batchv1.ForbidConcurrent, batchv1.ReplaceConcurrent})}
}

// validateJobTemplateSpec is the API server's ValidateJobTemplateSpec: the job spec as a Job's,
// with no selector (the Job's is generated) and no manual selector.
func validateJobTemplateSpec(t *batchv1.JobTemplateSpec, fldPath *field.Path) field.ErrorList {
	specPath := fldPath.Child("spec")
	allErrs := validateJobSpec(&t.Spec, specPath)
	if t.Spec.Selector != nil {
		allErrs = append(allErrs, field.Invalid(specPath.Child("selector"), t.Spec.Selector, "`selector` will be auto-generated"))
	}
	if t.Spec.ManualSelector != nil && *t.Spec.ManualSelector {
		allErrs = append(allErrs, field.NotSupported(specPath.Child("manualSelector"), t.Spec.ManualSelector, []string{"nil", "false"}))
	}
	return allErrs
}
