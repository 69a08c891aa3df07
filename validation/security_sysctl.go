package validation

// The pod's sysctls: their names, and the namespaced ones a pod sharing the host's network or
// IPC namespace may not set.

import (
	"fmt"
	"github.com/podconfig/podconfig/internal/sysctl"
	"regexp"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// maxSysctlNameLength is the longest sysctl name the API server accepts.
const maxSysctlNameLength = 253

// sysctlName is a sysctl name: segments of lowercase letters, digits, '-' and '_' (starting and
// ending with a letter or digit), separated by '.' or '/'. The API server prints this regexp in
// its message, so its text is behaviour.
var sysctlName = regexp.MustCompile(`^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$`)

// validateSysctls is the API server's validateSysctls: each name is required, well formed and
// unique, and a pod on the host's network (IPC) namespace sets no network (IPC) sysctl.
func validateSysctls(sysctls []v1.Sysctl, spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	seen := make(map[string]bool, len(sysctls))
	for i, s := range sysctls {
		namePath := fldPath.Index(i).Child("name")
		switch {
		case s.Name == "":
			allErrs = append(allErrs, field.Required(namePath, ""))
		case len(s.Name) > maxSysctlNameLength || !sysctlName.MatchString(s.Name):
			allErrs = append(allErrs, field.Invalid(namePath, s.Name,
				fmt.Sprintf("must have at most %d characters and match regex %s", maxSysctlNameLength, sysctlName)))
		case seen[s.Name]:
			allErrs = append(allErrs, field.Duplicate(namePath, s.Name))
		}
		if err := validateHostSysctl(s.Name, spec, namePath); err != nil {
			allErrs = append(allErrs, err)
		}
		seen[s.Name] = true
	}
	return allErrs
}

// validateHostSysctl is the API server's ValidateHostSysctl: a network sysctl is refused with
// hostNetwork, an IPC one with hostIPC.
func validateHostSysctl(name string, spec *v1.PodSpec, fldPath *field.Path) *field.Error {
	switch ns := sysctlNamespace(name); {
	case spec.HostNetwork && ns == sysctlNetNamespace:
		return field.Invalid(fldPath, name, "may not be specified when 'hostNetwork' is true")
	case spec.HostIPC && ns == sysctlIPCNamespace:
		return field.Invalid(fldPath, name, "may not be specified when 'hostIPC' is true")
	}
	return nil
}

// sysctlNS is the kernel namespace a sysctl belongs to, as component-helpers classifies it.
type sysctlNS int

// The namespaces validateHostSysctl tells apart; the rest (UTS, user, not namespaced) are other.
const (
	sysctlOtherNamespace sysctlNS = iota
	sysctlNetNamespace
	sysctlIPCNamespace
)

// ipcSysctlNames are the IPC-namespaced sysctls named in full; kernel.shm and kernel.msg stand
// for the prefixes of kernel.shm* and kernel.msg*.
var ipcSysctlNames = map[string]bool{
	"kernel.sem": true, "kernel.shmall": true, "kernel.shmmax": true, "kernel.shmmni": true,
	"kernel.shm_rmid_forced": true, "kernel.shm": true, "kernel.msgmax": true, "kernel.msgmnb": true,
	"kernel.msgmni": true, "kernel.msg": true,
}

// sysctlNamespace is component-helpers' GetNamespace as the API server uses it: the name is
// normalised to dots, cut at its first '*', then matched whole against the IPC names or by its
// first segments against net. and fs.mqueue.
func sysctlNamespace(name string) sysctlNS {
	name = sysctl.Normalize(name)
	if i := strings.IndexByte(name, '*'); i >= 0 {
		name = name[:i]
	}
	switch {
	case ipcSysctlNames[name], strings.HasPrefix(name, "fs.mqueue."):
		return sysctlIPCNamespace
	case strings.HasPrefix(name, "net."):
		return sysctlNetNamespace
	}
	return sysctlOtherNamespace
}
