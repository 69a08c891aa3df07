package validation

// What depends on the pod's OS and on the host's namespaces: spec.os and the fields each OS
// refuses, Windows host-process pods, and user namespaces (hostUsers false).

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validatePodOS is the API server's validateOS followed, when spec.os is valid, by validateLinux
// or validateWindows. spec.OS is not nil.
func validatePodOS(spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	osPath := fldPath.Child("os")
	switch spec.OS.Name {
	case "":
		return field.ErrorList{field.Required(osPath.Child("name"), "")}
	case v1.Linux:
		return validateLinux(spec, fldPath)
	case v1.Windows:
		return validateWindows(spec, fldPath)
	}
	return field.ErrorList{field.NotSupported(osPath, spec.OS.Name, []v1.OSName{v1.Linux, v1.Windows})}
}

// windowsOptionsOnLinux is the API server's refusal of Windows options in a Linux pod.
const windowsOptionsOnLinux = "windows options cannot be set for a linux pod"

// validateLinux is the API server's validateLinux: no Windows options, in the pod's or any
// container's securityContext.
func validateLinux(spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if sc := spec.SecurityContext; sc != nil && sc.WindowsOptions != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("securityContext").Child("windowsOptions"), windowsOptionsOnLinux))
	}
	forEachContainer(spec, fldPath, func(c *v1.Container, cPath *field.Path) bool {
		if sc := c.SecurityContext; sc != nil && sc.WindowsOptions != nil {
			allErrs = append(allErrs, field.Forbidden(cPath.Child("securityContext").Child("windowsOptions"), windowsOptionsOnLinux))
		}
		return true
	})
	return allErrs
}

// notForWindows is the API server's refusal of a Linux-only field in a Windows pod.
const notForWindows = "cannot be set for a windows pod"

// setField is a field of a securityContext and whether it is set.
type setField struct {
	name string
	set  bool
}

// forbidSet returns a Forbidden error under fldPath for each field set, in the order given.
func forbidSet(fldPath *field.Path, fields []setField) field.ErrorList {
	var allErrs field.ErrorList
	for _, f := range fields {
		if f.set {
			allErrs = append(allErrs, field.Forbidden(fldPath.Child(f.name), notForWindows))
		}
	}
	return allErrs
}

// validateWindows is the API server's validateWindows: a Windows pod sets none of the Linux
// fields of its securityContext, no hostUsers, hostPID, hostIPC or shareProcessNamespace, and
// none of the Linux fields of a container's securityContext.
func validateWindows(spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if sc := spec.SecurityContext; sc != nil {
		allErrs = forbidSet(fldPath.Child("securityContext"), []setField{
			{"appArmorProfile", sc.AppArmorProfile != nil},
			{"seLinuxOptions", sc.SELinuxOptions != nil},
			{"seccompProfile", sc.SeccompProfile != nil},
			{"fsGroup", sc.FSGroup != nil},
			{"fsGroupChangePolicy", sc.FSGroupChangePolicy != nil},
			{"sysctls", len(sc.Sysctls) > 0},
			{"runAsUser", sc.RunAsUser != nil},
			{"runAsGroup", sc.RunAsGroup != nil},
			{"supplementalGroups", sc.SupplementalGroups != nil},
			{"supplementalGroupsPolicy", sc.SupplementalGroupsPolicy != nil},
			{"seLinuxChangePolicy", sc.SELinuxChangePolicy != nil},
		})
	}
	allErrs = append(allErrs, forbidSet(fldPath, []setField{
		{"hostUsers", spec.HostUsers != nil},
		{"hostPID", spec.HostPID},
		{"hostIPC", spec.HostIPC},
		{"shareProcessNamespace", spec.ShareProcessNamespace != nil},
	})...)
	forEachContainer(spec, fldPath, func(c *v1.Container, cPath *field.Path) bool {
		sc := c.SecurityContext
		if sc == nil {
			return true
		}
		allErrs = append(allErrs, forbidSet(cPath.Child("securityContext"), []setField{
			{"appArmorProfile", sc.AppArmorProfile != nil},
			{"seLinuxOptions", sc.SELinuxOptions != nil},
			{"seccompProfile", sc.SeccompProfile != nil},
			{"capabilities", sc.Capabilities != nil},
			{"readOnlyRootFilesystem", sc.ReadOnlyRootFilesystem != nil},
			{"privileged", sc.Privileged != nil},
			{"allowPrivilegeEscalation", sc.AllowPrivilegeEscalation != nil},
			{"procMount", sc.ProcMount != nil},
			{"runAsUser", sc.RunAsUser != nil},
			{"runAsGroup", sc.RunAsGroup != nil},
		})...)
		return true
	})
	return allErrs
}

// validateWindowsHostProcessPod is the API server's validateWindowsHostProcessPod: a container's
// hostProcess agrees with the pod's when both are set, and a pod with one host-process container
// (set or inherited) has only such containers and uses the host's network. Host-process
// containers are allowed, as privileged ones are.
func validateWindowsHostProcessPod(spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	var podHostProcess *bool
	if sc := spec.SecurityContext; sc != nil && sc.WindowsOptions != nil {
		podHostProcess = sc.WindowsOptions.HostProcess
	}
	var allErrs field.ErrorList
	containers, hostProcessContainers := 0, 0
	forEachContainer(spec, fldPath, func(c *v1.Container, cPath *field.Path) bool {
		containers++
		var hostProcess *bool
		if sc := c.SecurityContext; sc != nil && sc.WindowsOptions != nil {
			hostProcess = sc.WindowsOptions.HostProcess
		}
		if podHostProcess != nil && hostProcess != nil && *podHostProcess != *hostProcess {
			allErrs = append(allErrs, field.Invalid(cPath.Child("securityContext", "windowsOptions", "hostProcess"), *hostProcess,
				fmt.Sprintf("pod hostProcess value must be identical if both are specified, was %v", *podHostProcess)))
		}
		if effective := hostProcess; (effective != nil && *effective) || (effective == nil && podHostProcess != nil && *podHostProcess) {
			hostProcessContainers++
		}
		return true
	})
	if hostProcessContainers == 0 {
		return allErrs
	}
	if hostProcessContainers != containers {
		allErrs = append(allErrs, field.Invalid(fldPath, "", "If pod contains any hostProcess containers then all containers must be HostProcess containers"))
	}
	if !spec.HostNetwork {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("hostNetwork"), false, "hostNetwork must be true if pod contains any hostProcess containers"))
	}
	return allErrs
}

// validateHostUsers is the API server's validateHostUsers: a pod in its own user namespace
// (hostUsers false) shares no other namespace with the host (hostNetwork too, as
// UserNamespacesHostNetworkSupport is off by default) and has no volumeDevices. The paths
// HostPID and HostIPC are spelt as the API server spells them.
func validateHostUsers(spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	if usesHostUsers(spec) {
		return nil
	}
	const forbidden = "when `hostUsers` is false"
	var allErrs field.ErrorList
	if spec.HostNetwork {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("hostNetwork"), forbidden))
	}
	if spec.HostPID {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("HostPID"), forbidden))
	}
	if spec.HostIPC {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("HostIPC"), forbidden))
	}
	forEachContainer(spec, fldPath, func(c *v1.Container, cPath *field.Path) bool {
		if len(c.VolumeDevices) > 0 {
			allErrs = append(allErrs, field.Forbidden(cPath.Child("volumeDevices"), forbidden))
		}
		return true
	})
	return allErrs
}
