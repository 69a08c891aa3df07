package validation

// Containers, their ports, environment, mounts, devices, probes, lifecycle, resources (and the
// pod's resources and overhead), resize and restart policies.
//
// The lists here: regular, init and ephemeral containers, what makes each kind differ, and the
// names that must be unique across them. What every container must satisfy is in
// container_common.go.

import (
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateContainers is the API server's validateContainers: the pod's regular containers.
func validateContainers(spec *v1.PodSpec, vols map[string]v1.VolumeSource, claims sets.Set[string], fldPath *field.Path) field.ErrorList {
	if len(spec.Containers) == 0 {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	var allErrs field.ErrorList
	// Regular containers check names among themselves; init and ephemeral containers check theirs
	// against these, so that a clash is reported once, on the later list.
	names := sets.New[string]()
	for i := range spec.Containers {
		ctr := &spec.Containers[i]
		path := fldPath.Index(i)
		allErrs = append(allErrs, validateContainerCommon(ctr, spec, vols, claims, path)...)
		if names.Has(ctr.Name) {
			allErrs = append(allErrs, field.Duplicate(path.Child("name"), ctr.Name))
		} else {
			names.Insert(ctr.Name)
		}
		allErrs = append(allErrs, validateRunningContainerHandlers(ctr, spec, path)...)
		allErrs = append(allErrs, validateContainerRestartPolicy(ctr.RestartPolicy, ctr.RestartPolicyRules, path)...)
	}
	// Regular containers run together, so no two may claim the same host port.
	return append(allErrs, ctrHostPortConflicts(spec.Containers, fldPath)...)
}

// validateRunningContainerHandlers checks the lifecycle hooks and probes of a container that runs
// beside the others (a regular container or a sidecar): the fields an init container that runs
// to completion may not set.
func validateRunningContainerHandlers(ctr *v1.Container, spec *v1.PodSpec, path *field.Path) field.ErrorList {
	grace := spec.TerminationGracePeriodSeconds
	var allErrs field.ErrorList
	if ctr.Lifecycle != nil {
		allErrs = append(allErrs, validateLifecycle(ctr.Lifecycle, grace, path.Child("lifecycle"), spec.OS)...)
	}
	allErrs = append(allErrs, validateLivenessProbe(ctr.LivenessProbe, grace, path.Child("livenessProbe"))...)
	allErrs = append(allErrs, validateReadinessProbe(ctr.ReadinessProbe, grace, path.Child("readinessProbe"))...)
	return append(allErrs, validateStartupProbe(ctr.StartupProbe, grace, path.Child("startupProbe"))...)
}

// notSidecarMsg is why an init container that runs to completion may not have hooks or probes.
const notSidecarMsg = "may not be set for init containers without restartPolicy=Always"

// validateInitContainers is the API server's validateInitContainers.
func validateInitContainers(spec *v1.PodSpec, vols map[string]v1.VolumeSource, claims sets.Set[string], fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	// Every regular container's name counts, even an empty one (already refused there), and an
	// empty init container name is not recorded: the API server's bookkeeping, kept for its
	// Duplicate errors.
	names := sets.New[string]()
	for i := range spec.Containers {
		names.Insert(spec.Containers[i].Name)
	}
	for i := range spec.InitContainers {
		ctr := &spec.InitContainers[i]
		path := fldPath.Index(i)
		allErrs = append(allErrs, validateContainerCommon(ctr, spec, vols, claims, path)...)
		allErrs = append(allErrs, validateInitContainerRestartPolicy(ctr.RestartPolicy, ctr.RestartPolicyRules, path)...)
		sidecar := initContainerRestartsAlways(ctr)
		if names.Has(ctr.Name) {
			allErrs = append(allErrs, field.Duplicate(path.Child("name"), ctr.Name))
		} else if ctr.Name != "" {
			names.Insert(ctr.Name)
		}
		// Init containers run one at a time, so each is checked alone; the API server checks it as
		// a list of one, which puts index 0 in the path whatever the container's index.
		allErrs = append(allErrs, ctrHostPortConflicts(spec.InitContainers[i:i+1], fldPath)...)
		if sidecar {
			allErrs = append(allErrs, validateRunningContainerHandlers(ctr, spec, path)...)
		} else {
			allErrs = append(allErrs, forbidInitContainerHandlers(ctr, path)...)
			allErrs = append(allErrs, forbidInitContainerResizeRestart(ctr, path)...)
		}
	}
	return allErrs
}

// forbidInitContainerResizeRestart refuses a resize policy that restarts an init container that
// runs to completion: it would run again.
func forbidInitContainerResizeRestart(ctr *v1.Container, path *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for j, p := range ctr.ResizePolicy {
		if p.RestartPolicy == v1.RestartContainer {
			allErrs = append(allErrs, field.Invalid(path.Child("resizePolicy").Index(j).Child("restartPolicy"), p.RestartPolicy,
				"must not be set to 'RestartContainer' for non-sidecar initContainers"))
		}
	}
	return allErrs
}

// initContainerRestartsAlways reports whether an init container is a sidecar: one that keeps
// running beside the regular containers.
func initContainerRestartsAlways(ctr *v1.Container) bool {
	return ctr.RestartPolicy != nil && *ctr.RestartPolicy == v1.ContainerRestartPolicyAlways
}

// forbidInitContainerHandlers refuses the hooks and probes of an init container that runs to
// completion: nothing would run or read them.
func forbidInitContainerHandlers(ctr *v1.Container, path *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if ctr.Lifecycle != nil {
		allErrs = append(allErrs, field.Forbidden(path.Child("lifecycle"), notSidecarMsg))
	}
	if ctr.LivenessProbe != nil {
		allErrs = append(allErrs, field.Forbidden(path.Child("livenessProbe"), notSidecarMsg))
	}
	if ctr.ReadinessProbe != nil {
		allErrs = append(allErrs, field.Forbidden(path.Child("readinessProbe"), notSidecarMsg))
	}
	if ctr.StartupProbe != nil {
		allErrs = append(allErrs, field.Forbidden(path.Child("startupProbe"), notSidecarMsg))
	}
	return allErrs
}

// ephemeralForbiddenMsg is why an ephemeral container may not set a field.
const ephemeralForbiddenMsg = "cannot be set for an Ephemeral Container"

// ephemeralAllowedFields are the fields of EphemeralContainerCommon an ephemeral container may
// set; any other field that is not its zero value is refused. A field added to the type later is
// refused until listed here, as in the API server.
var ephemeralAllowedFields = sets.New(
	"Name", "Image", "Command", "Args", "WorkingDir", "EnvFrom", "Env", "VolumeMounts", "VolumeDevices",
	"TerminationMessagePath", "TerminationMessagePolicy", "ImagePullPolicy", "SecurityContext",
	"Stdin", "StdinOnce", "TTY",
)

// validateEphemeralContainers is the API server's validateEphemeralContainers.
func validateEphemeralContainers(spec *v1.PodSpec, vols map[string]v1.VolumeSource, claims sets.Set[string], fldPath *field.Path) field.ErrorList {
	if len(spec.EphemeralContainers) == 0 {
		return nil
	}
	var allErrs field.ErrorList
	targets, names := sets.New[string](), sets.New[string]()
	for _, list := range [][]v1.Container{spec.Containers, spec.InitContainers} {
		for i := range list {
			targets.Insert(list[i].Name)
			names.Insert(list[i].Name)
		}
	}
	for i := range spec.EphemeralContainers {
		ec := &spec.EphemeralContainers[i]
		path := fldPath.Index(i)
		// An ephemeral container has a container's fields; the API server checks it as one.
		ctr := (*v1.Container)(&ec.EphemeralContainerCommon)
		allErrs = append(allErrs, validateContainerCommon(ctr, spec, vols, claims, path)...)
		allErrs = append(allErrs, validateContainerOnlyForPod(ctr, path)...)
		if names.Has(ec.Name) {
			allErrs = append(allErrs, field.Duplicate(path.Child("name"), ec.Name))
		} else {
			names.Insert(ec.Name)
		}
		if ec.TargetContainerName != "" && !targets.Has(ec.TargetContainerName) {
			allErrs = append(allErrs, field.NotFound(path.Child("targetContainerName"), ec.TargetContainerName))
		}
		allErrs = append(allErrs, forbidUnlistedFields(ec.EphemeralContainerCommon, path)...)
		// A subPath is a bind mount that lives until the pod ends, more than a debugging
		// container should leave behind.
		for j, vm := range ec.VolumeMounts {
			if vm.SubPath != "" {
				allErrs = append(allErrs, field.Forbidden(path.Child("volumeMounts").Index(j).Child("subPath"), ephemeralForbiddenMsg))
			}
			if vm.SubPathExpr != "" {
				allErrs = append(allErrs, field.Forbidden(path.Child("volumeMounts").Index(j).Child("subPathExpr"), ephemeralForbiddenMsg))
			}
		}
	}
	return allErrs
}

// forbidUnlistedFields refuses each field of an ephemeral container that is set and not in
// ephemeralAllowedFields, in the type's field order, named as the API server names it: the Go
// field name with its first letter lowered ("tTY" for TTY).
func forbidUnlistedFields(ec v1.EphemeralContainerCommon, path *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	typ, val := reflect.TypeOf(ec), reflect.ValueOf(ec)
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if ephemeralAllowedFields.Has(f.Name) || val.Field(i).IsZero() {
			continue
		}
		r, n := utf8.DecodeRuneInString(f.Name)
		allErrs = append(allErrs, field.Forbidden(path.Child(string(unicode.ToLower(r))+f.Name[n:]), ephemeralForbiddenMsg))
	}
	return allErrs
}

// validateContainersOnlyForPod is the API server's validateContainersOnlyForPod: what a pod's
// containers must satisfy that a template's need not.
func validateContainersOnlyForPod(containers []v1.Container, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i := range containers {
		allErrs = append(allErrs, validateContainerOnlyForPod(&containers[i], fldPath.Index(i))...)
	}
	return allErrs
}

// validateContainerOnlyForPod refuses an image with surrounding whitespace in a pod. Templates
// keep it allowed: some tools put " " there as a placeholder for the image filled in later.
func validateContainerOnlyForPod(ctr *v1.Container, path *field.Path) field.ErrorList {
	if len(ctr.Image) != len(strings.TrimSpace(ctr.Image)) {
		return field.ErrorList{field.Invalid(path.Child("image"), ctr.Image, "must not have leading or trailing whitespace")}
	}
	return nil
}
