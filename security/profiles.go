package security

import (
	"fmt"
	"path/filepath"
	"strings"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// seccompProfile picks the container's seccomp profile as kubelet's getSeccompProfile does: the
// container's seccompProfile field, else the pod's, else RuntimeDefault when seccompDefault is on and
// Unconfined when it is off. Seccomp annotations are ignored, as in kubelet v1.37. A Localhost
// profile becomes the path of the profile under profileRoot (DefaultSeccompProfileRoot when empty).
//
// Unlike kubelet, a Localhost profile whose joined and cleaned path leaves profileRoot
// ("../../etc/x") is an error wrapping ErrInvalidSeccompProfile; kubelet hands the runtime whatever
// filepath.Join made of it.
func seccompProfile(pod *v1.Pod, container *v1.Container, profileRoot string, seccompDefault bool) (*runtimeapi.SecurityProfile, error) {
	if profileRoot == "" {
		profileRoot = DefaultSeccompProfileRoot
	}
	if container != nil && container.SecurityContext != nil && container.SecurityContext.SeccompProfile != nil {
		return fieldSeccompProfile(container.SecurityContext.SeccompProfile, profileRoot, seccompDefault)
	}
	if pod != nil && pod.Spec.SecurityContext != nil && pod.Spec.SecurityContext.SeccompProfile != nil {
		return fieldSeccompProfile(pod.Spec.SecurityContext.SeccompProfile, profileRoot, seccompDefault)
	}
	return fieldSeccompProfile(nil, profileRoot, seccompDefault)
}

func fieldSeccompProfile(p *v1.SeccompProfile, root string, seccompDefault bool) (*runtimeapi.SecurityProfile, error) {
	switch {
	case p == nil && seccompDefault, p != nil && p.Type == v1.SeccompProfileTypeRuntimeDefault:
		return &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_RuntimeDefault}, nil
	case p == nil || p.Type != v1.SeccompProfileTypeLocalhost:
		return &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_Unconfined}, nil
	}
	if p.LocalhostProfile == nil || *p.LocalhostProfile == "" {
		return nil, &kindError{Msg: "localhostProfile must be set if seccompProfile type is Localhost.", Kind: ErrInvalidSeccompProfile}
	}
	ref := filepath.Join(root, *p.LocalhostProfile)
	if !within(filepath.Clean(root), ref) {
		return nil, &kindError{
			Msg:  fmt.Sprintf("localhost seccomp profile %q leaves the seccomp profile root %q", *p.LocalhostProfile, root),
			Kind: ErrInvalidSeccompProfile,
		}
	}
	return &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_Localhost, LocalhostRef: ref}, nil
}

// within reports whether the clean path p is root or below it.
func within(root, p string) bool {
	if p == root || root == "/" {
		return true
	}
	return strings.HasPrefix(p, root) && p[len(root)] == filepath.Separator
}

// appArmorProfile picks the container's AppArmor profile as kubelet's getAppArmorProfile does: the
// container's appArmorProfile field, else the deprecated pod annotation
// container.apparmor.security.beta.kubernetes.io/<container> ("runtime/default", "unconfined",
// "localhost/<name>"; any other value is ignored), else the pod's field. It returns the CRI profile
// and the deprecated string form that older runtimes read; both are empty when nothing applies.
func appArmorProfile(pod *v1.Pod, container *v1.Container) (*runtimeapi.SecurityProfile, string, error) {
	p := appArmorProfileOf(pod, container)
	if p == nil {
		return nil, "", nil
	}
	var typ runtimeapi.SecurityProfile_ProfileType
	var ref, deprecated string
	switch p.Type {
	case v1.AppArmorProfileTypeRuntimeDefault:
		typ, deprecated = runtimeapi.SecurityProfile_RuntimeDefault, v1.DeprecatedAppArmorBetaProfileRuntimeDefault
	case v1.AppArmorProfileTypeUnconfined:
		typ, deprecated = runtimeapi.SecurityProfile_Unconfined, v1.DeprecatedAppArmorBetaProfileNameUnconfined
	case v1.AppArmorProfileTypeLocalhost:
		if p.LocalhostProfile == nil {
			return nil, "", &kindError{Msg: "missing localhost apparmor profile name", Kind: ErrInvalidAppArmorProfile}
		}
		typ, ref = runtimeapi.SecurityProfile_Localhost, *p.LocalhostProfile
		deprecated = v1.DeprecatedAppArmorBetaProfileNamePrefix + ref
	default:
		return nil, "", &kindError{Msg: fmt.Sprintf("unknown apparmor profile type: %q", p.Type), Kind: ErrInvalidAppArmorProfile}
	}
	return &runtimeapi.SecurityProfile{ProfileType: typ, LocalhostRef: ref}, deprecated, nil
}

// appArmorProfileOf returns the profile that applies; for the annotation it returns a value that
// shares nothing with the pod.
func appArmorProfileOf(pod *v1.Pod, container *v1.Container) *v1.AppArmorProfile {
	if container != nil && container.SecurityContext != nil && container.SecurityContext.AppArmorProfile != nil {
		return container.SecurityContext.AppArmorProfile
	}
	if pod == nil {
		return nil
	}
	// Static pods may still carry only the annotation, so it ranks above the pod-level field.
	if container != nil && len(pod.Annotations) > 0 {
		if val, ok := pod.Annotations[v1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix+container.Name]; ok {
			switch {
			case val == v1.DeprecatedAppArmorBetaProfileRuntimeDefault:
				return &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeRuntimeDefault}
			case val == v1.DeprecatedAppArmorBetaProfileNameUnconfined:
				return &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeUnconfined}
			case strings.HasPrefix(val, v1.DeprecatedAppArmorBetaProfileNamePrefix):
				name := strings.TrimPrefix(val, v1.DeprecatedAppArmorBetaProfileNamePrefix)
				return &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeLocalhost, LocalhostProfile: &name}
			}
		}
	}
	if pod.Spec.SecurityContext != nil {
		return pod.Spec.SecurityContext.AppArmorProfile
	}
	return nil
}
