package validation

// What every container must satisfy, whatever its kind: name, image, termination message
// policy, ports, environment, mounts, devices, pull policy, resources, resize policy and
// security context, in the API server's order; and host ports that must not clash.

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateContainerCommon is the API server's validateContainerCommon: the checks regular, init
// and ephemeral containers share. spec is the pod's spec (its restart policy, host users and
// the like).
func validateContainerCommon(ctr *v1.Container, spec *v1.PodSpec, vols map[string]v1.VolumeSource, claims sets.Set[string], path *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if ctr.Name == "" {
		allErrs = append(allErrs, field.Required(path.Child("name"), ""))
	} else {
		allErrs = append(allErrs, validateDNS1123Label(ctr.Name, path.Child("name"))...)
	}
	// Only emptiness: templates may hold " " as a placeholder (validateContainerOnlyForPod
	// refuses whitespace in a pod).
	if ctr.Image == "" {
		allErrs = append(allErrs, field.Required(path.Child("image"), ""))
	}
	allErrs = append(allErrs, validateTerminationMessagePolicy(ctr.TerminationMessagePolicy, path.Child("terminationMessagePolicy"))...)
	allErrs = append(allErrs, validateContainerPorts(ctr.Ports, path.Child("ports"))...)
	allErrs = append(allErrs, validateEnv(ctr.Env, path.Child("env"))...)
	allErrs = append(allErrs, validateEnvFrom(ctr.EnvFrom, path.Child("envFrom"))...)
	allErrs = append(allErrs, validateVolumeMounts(ctr, vols, path.Child("volumeMounts"))...)
	allErrs = append(allErrs, validateVolumeDevices(ctr, vols, path.Child("volumeDevices"))...)
	allErrs = append(allErrs, validatePullPolicy(ctr.ImagePullPolicy, path.Child("imagePullPolicy"))...)
	allErrs = append(allErrs, validateContainerResourceRequirements(&ctr.Resources, claims, path.Child("resources"))...)
	allErrs = append(allErrs, validateResizePolicy(ctr.ResizePolicy, path.Child("resizePolicy"), spec.RestartPolicy)...)
	return append(allErrs, validateContainerSecurityContext(ctr.SecurityContext, spec, path.Child("securityContext"))...)
}

// ctrTerminationMessagePolicies are the policies in the API server's order (not sorted).
var ctrTerminationMessagePolicies = []v1.TerminationMessagePolicy{v1.TerminationMessageReadFile, v1.TerminationMessageFallbackToLogsOnError}

// validateTerminationMessagePolicy refuses an empty or unknown terminationMessagePolicy.
func validateTerminationMessagePolicy(policy v1.TerminationMessagePolicy, fldPath *field.Path) field.ErrorList {
	switch policy {
	case v1.TerminationMessageReadFile, v1.TerminationMessageFallbackToLogsOnError:
		return nil
	case "":
		return field.ErrorList{field.Required(fldPath, "")}
	}
	return field.ErrorList{field.NotSupported(fldPath, policy, ctrTerminationMessagePolicies)}
}

// ctrPortProtocols are the protocols a container port may use, sorted as the API server lists
// them.
var (
	ctrPortProtocolSet = sets.New(v1.ProtocolTCP, v1.ProtocolUDP, v1.ProtocolSCTP)
	ctrPortProtocols   = sets.List(ctrPortProtocolSet)
)

// validateContainerPorts is the API server's validateContainerPorts: names unique and valid,
// port numbers in range, a known protocol.
func validateContainerPorts(ports []v1.ContainerPort, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	names := sets.New[string]()
	for i, port := range ports {
		idxPath := fldPath.Index(i)
		if port.Name != "" {
			if msgs := validation.IsValidPortName(port.Name); len(msgs) != 0 {
				for _, msg := range msgs {
					allErrs = append(allErrs, field.Invalid(idxPath.Child("name"), port.Name, msg))
				}
			} else if names.Has(port.Name) {
				allErrs = append(allErrs, field.Duplicate(idxPath.Child("name"), port.Name))
			} else {
				names.Insert(port.Name)
			}
		}
		if port.ContainerPort == 0 {
			allErrs = append(allErrs, field.Required(idxPath.Child("containerPort"), ""))
		} else {
			for _, msg := range validation.IsValidPortNum(int(port.ContainerPort)) {
				allErrs = append(allErrs, field.Invalid(idxPath.Child("containerPort"), port.ContainerPort, msg))
			}
		}
		if port.HostPort != 0 {
			for _, msg := range validation.IsValidPortNum(int(port.HostPort)) {
				allErrs = append(allErrs, field.Invalid(idxPath.Child("hostPort"), port.HostPort, msg))
			}
		}
		if port.Protocol == "" {
			allErrs = append(allErrs, field.Required(idxPath.Child("protocol"), ""))
		} else if !ctrPortProtocolSet.Has(port.Protocol) {
			allErrs = append(allErrs, field.NotSupported(idxPath.Child("protocol"), port.Protocol, ctrPortProtocols))
		}
	}
	return allErrs
}

// ctrHostPortConflicts refuses a host port that an earlier port of containers already claims
// for the same protocol and host IP. fldPath names the list containers is indexed from.
func ctrHostPortConflicts(containers []v1.Container, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	seen := sets.New[string]()
	for ci := range containers {
		portsPath := fldPath.Index(ci).Child("ports")
		for pi, port := range containers[ci].Ports {
			if port.HostPort == 0 {
				continue
			}
			key := fmt.Sprintf("%s/%s/%d", port.Protocol, port.HostIP, port.HostPort)
			if seen.Has(key) {
				allErrs = append(allErrs, field.Duplicate(portsPath.Index(pi).Child("hostPort"), key))
			} else {
				seen.Insert(key)
			}
		}
	}
	return allErrs
}

// ctrPullPolicies are the image pull policies, sorted as the API server lists them.
var ctrPullPolicies = sets.List(sets.New(v1.PullAlways, v1.PullIfNotPresent, v1.PullNever))

// validatePullPolicy refuses an empty or unknown imagePullPolicy (defaulting fills it).
func validatePullPolicy(policy v1.PullPolicy, fldPath *field.Path) field.ErrorList {
	switch policy {
	case v1.PullAlways, v1.PullIfNotPresent, v1.PullNever:
		return nil
	case "":
		return field.ErrorList{field.Required(fldPath, "")}
	}
	return field.ErrorList{field.NotSupported(fldPath, policy, ctrPullPolicies)}
}
