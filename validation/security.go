package validation

// The pod's securityContext and each container's: ids, sysctls, policies, seccomp and AppArmor
// profiles, Windows options.

import (
	"fmt"
	"regexp"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validatePodSpecSecurityContext is the API server's validatePodSpecSecurityContext: the pod's
// ids, sysctls, policies and profiles. The SELinux options are not checked here; a Windows
// pod's Linux-only fields are refused later (validateWindows).
func validatePodSpecSecurityContext(sc *v1.PodSecurityContext, spec *v1.PodSpec, specPath, fldPath *field.Path) field.ErrorList {
	if sc == nil {
		return nil
	}
	var allErrs field.ErrorList
	if sc.FSGroup != nil {
		allErrs = append(allErrs, invalidID(*sc.FSGroup, validation.IsValidGroupID(*sc.FSGroup), fldPath.Child("fsGroup"))...)
	}
	if sc.RunAsUser != nil {
		allErrs = append(allErrs, invalidID(*sc.RunAsUser, validation.IsValidUserID(*sc.RunAsUser), fldPath.Child("runAsUser"))...)
	}
	if sc.RunAsGroup != nil {
		allErrs = append(allErrs, invalidID(*sc.RunAsGroup, validation.IsValidGroupID(*sc.RunAsGroup), fldPath.Child("runAsGroup"))...)
	}
	for i, gid := range sc.SupplementalGroups {
		allErrs = append(allErrs, invalidID(gid, validation.IsValidGroupID(gid), fldPath.Child("supplementalGroups").Index(i))...)
	}
	if len(sc.Sysctls) != 0 {
		allErrs = append(allErrs, validateSysctls(sc.Sysctls, spec, fldPath.Child("sysctls"))...)
	}
	if p := sc.FSGroupChangePolicy; p != nil && *p != v1.FSGroupChangeAlways && *p != v1.FSGroupChangeOnRootMismatch {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("fsGroupChangePolicy"), p,
			[]v1.PodFSGroupChangePolicy{v1.FSGroupChangeAlways, v1.FSGroupChangeOnRootMismatch}))
	}
	allErrs = append(allErrs, validateSeccompProfileField(sc.SeccompProfile, fldPath.Child("seccompProfile"))...)
	allErrs = append(allErrs, validateWindowsSecurityContextOptions(sc.WindowsOptions, fldPath.Child("windowsOptions"))...)
	allErrs = append(allErrs, validateAppArmorProfileField(sc.AppArmorProfile, fldPath.Child("appArmorProfile"))...)
	if p := sc.SupplementalGroupsPolicy; p != nil && *p != v1.SupplementalGroupsPolicyMerge && *p != v1.SupplementalGroupsPolicyStrict {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("supplementalGroupsPolicy"), p,
			[]v1.SupplementalGroupsPolicy{v1.SupplementalGroupsPolicyMerge, v1.SupplementalGroupsPolicyStrict}))
	}
	// SELinuxMount is on in v1.37, so any known change policy is accepted, not only Recursive.
	if p := sc.SELinuxChangePolicy; p != nil && *p != v1.SELinuxChangePolicyMountOption && *p != v1.SELinuxChangePolicyRecursive {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("seLinuxChangePolicy"), *p,
			[]v1.PodSELinuxChangePolicy{v1.SELinuxChangePolicyMountOption, v1.SELinuxChangePolicyRecursive}))
	}
	return allErrs
}

// invalidID turns the messages of a uid or gid check into Invalid errors.
func invalidID(id int64, msgs []string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for _, msg := range msgs {
		allErrs = append(allErrs, field.Invalid(fldPath, id, msg))
	}
	return allErrs
}

// validateContainerSecurityContext is the API server's ValidateSecurityContext for a container's
// securityContext (fldPath names it), in a pod whose spec is spec. Privileged containers are
// allowed, as kube-apiserver's --allow-privileged=true allows them, and CAP_SYS_ADMIN is refused
// beside allowPrivilegeEscalation false, as it is for a pod being created.
func validateContainerSecurityContext(sc *v1.SecurityContext, spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	if sc == nil {
		return nil
	}
	var allErrs field.ErrorList
	if sc.RunAsUser != nil {
		allErrs = append(allErrs, invalidID(*sc.RunAsUser, validation.IsValidUserID(*sc.RunAsUser), fldPath.Child("runAsUser"))...)
	}
	if sc.RunAsGroup != nil {
		allErrs = append(allErrs, invalidID(*sc.RunAsGroup, validation.IsValidGroupID(*sc.RunAsGroup), fldPath.Child("runAsGroup"))...)
	}
	if pm := sc.ProcMount; pm != nil {
		if *pm != v1.DefaultProcMount && *pm != v1.UnmaskedProcMount {
			allErrs = append(allErrs, field.NotSupported(fldPath.Child("procMount"), *pm, []v1.ProcMountType{v1.DefaultProcMount, v1.UnmaskedProcMount}))
		}
		if usesHostUsers(spec) && *pm == v1.UnmaskedProcMount {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("procMount"), pm, "`hostUsers` must be false to use `Unmasked`"))
		}
	}
	allErrs = append(allErrs, validateSeccompProfileField(sc.SeccompProfile, fldPath.Child("seccompProfile"))...)
	if sc.AllowPrivilegeEscalation != nil && !*sc.AllowPrivilegeEscalation {
		allErrs = append(allErrs, validateNoPrivilegeEscalation(sc, fldPath)...)
	}
	allErrs = append(allErrs, validateWindowsSecurityContextOptions(sc.WindowsOptions, fldPath.Child("windowsOptions"))...)
	return append(allErrs, validateAppArmorProfileField(sc.AppArmorProfile, fldPath.Child("appArmorProfile"))...)
}

// validateNoPrivilegeEscalation refuses, beside allowPrivilegeEscalation false, privileged true
// and each CAP_SYS_ADMIN added (spelt so; SYS_ADMIN passes). The bad value is the whole
// securityContext.
func validateNoPrivilegeEscalation(sc *v1.SecurityContext, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if sc.Privileged != nil && *sc.Privileged {
		allErrs = append(allErrs, field.Invalid(fldPath, apiSecurityContextOf(sc), "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"))
	}
	if sc.Capabilities == nil {
		return allErrs
	}
	for _, c := range sc.Capabilities.Add {
		if c == "CAP_SYS_ADMIN" {
			allErrs = append(allErrs, field.Invalid(fldPath, apiSecurityContextOf(sc), "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"))
		}
	}
	return allErrs
}

// usesHostUsers reports whether the pod runs in the host's user namespace: hostUsers unset or
// true.
func usesHostUsers(spec *v1.PodSpec) bool { return spec.HostUsers == nil || *spec.HostUsers }

// validateSeccompProfileField is the API server's validateSeccompProfileField: a known type, and
// a relative localhostProfile for Localhost and none otherwise.
func validateSeccompProfileField(sp *v1.SeccompProfile, fldPath *field.Path) field.ErrorList {
	if sp == nil {
		return nil
	}
	var allErrs field.ErrorList
	switch sp.Type {
	case v1.SeccompProfileTypeLocalhost, v1.SeccompProfileTypeRuntimeDefault, v1.SeccompProfileTypeUnconfined:
	case "":
		allErrs = append(allErrs, field.Required(fldPath.Child("type"), "type is required when seccompProfile is set"))
	default:
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("type"), sp.Type,
			[]v1.SeccompProfileType{v1.SeccompProfileTypeLocalhost, v1.SeccompProfileTypeRuntimeDefault, v1.SeccompProfileTypeUnconfined}))
	}
	lpPath := fldPath.Child("localhostProfile")
	switch {
	case sp.Type == v1.SeccompProfileTypeLocalhost && sp.LocalhostProfile == nil:
		allErrs = append(allErrs, field.Required(lpPath, "must be set when seccomp type is Localhost"))
	case sp.Type == v1.SeccompProfileTypeLocalhost:
		allErrs = append(allErrs, validateLocalDescendingPath(*sp.LocalhostProfile, lpPath)...)
	case sp.LocalhostProfile != nil:
		allErrs = append(allErrs, field.Invalid(lpPath, apiSeccompProfileOf(sp), "can only be set when seccomp type is Localhost"))
	}
	return allErrs
}

// maxAppArmorProfileLength is the longest localhost AppArmor profile name, PATH_MAX - 1.
const maxAppArmorProfileLength = 4095

// validateAppArmorProfileField is the API server's ValidateAppArmorProfileField: a known type,
// and for Localhost a profile name without surrounding space of at most 4095 bytes.
func validateAppArmorProfileField(profile *v1.AppArmorProfile, fldPath *field.Path) field.ErrorList {
	if profile == nil {
		return nil
	}
	lpPath := fldPath.Child("localhostProfile")
	switch profile.Type {
	case v1.AppArmorProfileTypeLocalhost:
		return validateAppArmorLocalhostProfile(profile.LocalhostProfile, lpPath)
	case v1.AppArmorProfileTypeRuntimeDefault, v1.AppArmorProfileTypeUnconfined:
		if profile.LocalhostProfile != nil {
			return field.ErrorList{field.Invalid(lpPath, profile.LocalhostProfile, "can only be set when AppArmor type is Localhost")}
		}
		return nil
	case "":
		return field.ErrorList{field.Required(fldPath.Child("type"), "type is required when appArmorProfile is set")}
	}
	return field.ErrorList{field.NotSupported(fldPath.Child("type"), profile.Type,
		[]v1.AppArmorProfileType{v1.AppArmorProfileTypeLocalhost, v1.AppArmorProfileTypeRuntimeDefault, v1.AppArmorProfileTypeUnconfined})}
}

// validateAppArmorLocalhostProfile checks the profile name of a Localhost AppArmor profile.
func validateAppArmorLocalhostProfile(name *string, fldPath *field.Path) field.ErrorList {
	const required = "must be set when AppArmor type is Localhost"
	if name == nil {
		return field.ErrorList{field.Required(fldPath, required)}
	}
	var allErrs field.ErrorList
	trimmed := strings.TrimSpace(*name)
	if trimmed != *name {
		allErrs = append(allErrs, field.Invalid(fldPath, *name, "must not be padded with whitespace"))
	} else if trimmed == "" {
		allErrs = append(allErrs, field.Required(fldPath, required))
	}
	if len(*name) > maxAppArmorProfileLength {
		allErrs = append(allErrs, field.TooLong(fldPath, "", maxAppArmorProfileLength))
	}
	return allErrs
}

// Limits of the Windows options, in bytes.
const (
	maxGMSACredentialSpecKiB     = 64
	maxRunAsUserNameDomainLength = 256
	maxRunAsUserNameUserLength   = 104
)

// The forms of a Windows runAsUserName, DOMAIN\USER or USER.
var (
	// controlCharacters may appear nowhere in the name.
	controlCharacters = regexp.MustCompile(`[[:cntrl:]]`)
	// netBIOSDomain is 1 to 15 characters, none of \/:*?"<>| and not starting with a dot.
	netBIOSDomain = regexp.MustCompile(`^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$`)
	// dnsDomain is dot-separated labels of letters, digits and inner dashes, each at most 63.
	dnsDomain = regexp.MustCompile(`^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$`)
	// userForbiddenCharacters may not appear in the user part.
	userForbiddenCharacters = regexp.MustCompile(`["/\\:;|=,+*?<>@\[\]]`)
	// userOnlyDotsSpaces is a user part made of dots and spaces only.
	userOnlyDotsSpaces = regexp.MustCompile(`^[. ]+$`)
)

// validateWindowsSecurityContextOptions is the API server's validateWindowsSecurityContextOptions:
// the GMSA credential spec's name and size and the form of runAsUserName. hostProcess is checked
// across containers (validateWindowsHostProcessPod).
func validateWindowsSecurityContextOptions(opts *v1.WindowsSecurityContextOptions, fldPath *field.Path) field.ErrorList {
	if opts == nil {
		return nil
	}
	var allErrs field.ErrorList
	if name := opts.GMSACredentialSpecName; name != nil {
		for _, msg := range validation.IsDNS1123Subdomain(*name) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("gmsaCredentialSpecName"), name, msg))
		}
	}
	if spec := opts.GMSACredentialSpec; spec != nil {
		specPath := fldPath.Child("gmsaCredentialSpec")
		if len(*spec) == 0 {
			allErrs = append(allErrs, field.Invalid(specPath, spec, "gmsaCredentialSpec cannot be an empty string"))
		} else if len(*spec) > maxGMSACredentialSpecKiB*1024 {
			allErrs = append(allErrs, field.Invalid(specPath, spec, fmt.Sprintf("gmsaCredentialSpec size must be under %d KiB", maxGMSACredentialSpecKiB)))
		}
	}
	if opts.RunAsUserName != nil {
		userPath := fldPath.Child("runAsUserName")
		for _, msg := range runAsUserNameProblems(*opts.RunAsUserName) {
			allErrs = append(allErrs, field.Invalid(userPath, opts.RunAsUserName, msg))
		}
	}
	return allErrs
}

// runAsUserNameProblems returns what is wrong with a Windows user name, DOMAIN\USER or USER, in
// the API server's order: the first of empty, control characters and two backslashes, else each
// problem of the domain and the user part.
func runAsUserNameProblems(name string) []string {
	switch {
	case name == "":
		return []string{"runAsUserName cannot be an empty string"}
	case controlCharacters.MatchString(name):
		return []string{"runAsUserName cannot contain control characters"}
	case strings.Count(name, `\`) > 1:
		return []string{"runAsUserName cannot contain more than one backslash"}
	}
	domain, user, hasDomain := strings.Cut(name, `\`)
	if !hasDomain {
		domain, user = "", name
	}
	var problems []string
	if len(domain) >= maxRunAsUserNameDomainLength {
		problems = append(problems, fmt.Sprintf("runAsUserName's Domain length must be under %d characters", maxRunAsUserNameDomainLength))
	}
	if hasDomain && !netBIOSDomain.MatchString(domain) && !dnsDomain.MatchString(domain) {
		problems = append(problems, "runAsUserName's Domain doesn't match the NetBios nor the DNS format")
	}
	if len(user) == 0 {
		problems = append(problems, "runAsUserName's User cannot be empty")
	} else if len(user) > maxRunAsUserNameUserLength {
		problems = append(problems, fmt.Sprintf("runAsUserName's User length must not be longer than %d characters", maxRunAsUserNameUserLength))
	}
	if userOnlyDotsSpaces.MatchString(user) {
		problems = append(problems, "runAsUserName's User cannot contain only periods or spaces")
	}
	if userForbiddenCharacters.MatchString(user) {
		problems = append(problems, `runAsUserName's User cannot contain the following characters: "/\:;|=,+*?<>@[]`)
	}
	return problems
}
