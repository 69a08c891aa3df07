package security

import (
	v1 "k8s.io/api/core/v1"
)

// determineEffectiveSecurityContext merges the pod's and the container's security contexts the way
// kubelet's securitycontext.DetermineEffectiveSecurityContext does: from the pod it takes only
// SELinuxOptions, WindowsOptions, RunAsUser, RunAsGroup and RunAsNonRoot; every container field that
// is set overrides it (SELinuxOptions as a whole, WindowsOptions field by field). It never returns nil.
//
// Unlike kubelet, the result is always a fresh deep copy: when only the container has a security
// context kubelet hands back the container's own pointer, so a caller that edits the result edits
// the pod. Here the pod is never aliased. A nil pod or container counts as one without a security
// context.
func determineEffectiveSecurityContext(pod *v1.Pod, container *v1.Container) *v1.SecurityContext {
	var podSC *v1.PodSecurityContext
	if pod != nil {
		podSC = pod.Spec.SecurityContext
	}
	var containerSC *v1.SecurityContext
	if container != nil {
		containerSC = container.SecurityContext
	}
	switch {
	case podSC == nil && containerSC == nil:
		return &v1.SecurityContext{}
	case podSC == nil:
		return containerSC.DeepCopy()
	}

	out := &v1.SecurityContext{
		SELinuxOptions: podSC.SELinuxOptions.DeepCopy(),
		WindowsOptions: podSC.WindowsOptions.DeepCopy(),
		RunAsUser:      copyPtr(podSC.RunAsUser),
		RunAsGroup:     copyPtr(podSC.RunAsGroup),
		RunAsNonRoot:   copyPtr(podSC.RunAsNonRoot),
	}
	if containerSC == nil {
		return out
	}
	if containerSC.SELinuxOptions != nil {
		out.SELinuxOptions = containerSC.SELinuxOptions.DeepCopy()
	}
	if cw := containerSC.WindowsOptions; cw != nil {
		if out.WindowsOptions == nil {
			out.WindowsOptions = &v1.WindowsSecurityContextOptions{}
		}
		// The two GMSA fields describe one credential spec, so they move together.
		if cw.GMSACredentialSpecName != nil || cw.GMSACredentialSpec != nil {
			out.WindowsOptions.GMSACredentialSpecName = copyPtr(cw.GMSACredentialSpecName)
			out.WindowsOptions.GMSACredentialSpec = copyPtr(cw.GMSACredentialSpec)
		}
		if cw.RunAsUserName != nil {
			out.WindowsOptions.RunAsUserName = copyPtr(cw.RunAsUserName)
		}
		if cw.HostProcess != nil {
			out.WindowsOptions.HostProcess = copyPtr(cw.HostProcess)
		}
	}
	if containerSC.Capabilities != nil {
		out.Capabilities = containerSC.Capabilities.DeepCopy()
	}
	if containerSC.Privileged != nil {
		out.Privileged = copyPtr(containerSC.Privileged)
	}
	if containerSC.RunAsUser != nil {
		out.RunAsUser = copyPtr(containerSC.RunAsUser)
	}
	if containerSC.RunAsGroup != nil {
		out.RunAsGroup = copyPtr(containerSC.RunAsGroup)
	}
	if containerSC.RunAsNonRoot != nil {
		out.RunAsNonRoot = copyPtr(containerSC.RunAsNonRoot)
	}
	if containerSC.ReadOnlyRootFilesystem != nil {
		out.ReadOnlyRootFilesystem = copyPtr(containerSC.ReadOnlyRootFilesystem)
	}
	if containerSC.AllowPrivilegeEscalation != nil {
		out.AllowPrivilegeEscalation = copyPtr(containerSC.AllowPrivilegeEscalation)
	}
	if containerSC.ProcMount != nil {
		out.ProcMount = copyPtr(containerSC.ProcMount)
	}
	return out
}

// addNoNewPrivileges reports whether the container must run with no_new_privs, as kubelet's
// securitycontext.AddNoNewPrivileges: only when allowPrivilegeEscalation is explicitly false.
// Privileged containers and CAP_SYS_ADMIN are not considered here, as in kubelet.
func addNoNewPrivileges(sc *v1.SecurityContext) bool {
	return sc != nil && sc.AllowPrivilegeEscalation != nil && !*sc.AllowPrivilegeEscalation
}

// effective is the merged view of the fields the Linux conversion reads. Its pointers point into
// the pod and container and are only read, so computing it costs no allocation.
type effective struct {
	seLinux                  *v1.SELinuxOptions
	capabilities             *v1.Capabilities
	privileged               *bool
	runAsUser                *int64
	runAsGroup               *int64
	runAsNonRoot             *bool
	readOnlyRootFilesystem   *bool
	allowPrivilegeEscalation *bool
	procMount                *v1.ProcMountType
}

// effectiveOf applies the same precedence as determineEffectiveSecurityContext without copying.
func effectiveOf(pod *v1.Pod, container *v1.Container) effective {
	var e effective
	if pod != nil && pod.Spec.SecurityContext != nil {
		p := pod.Spec.SecurityContext
		e.seLinux, e.runAsUser, e.runAsGroup, e.runAsNonRoot = p.SELinuxOptions, p.RunAsUser, p.RunAsGroup, p.RunAsNonRoot
	}
	if container == nil || container.SecurityContext == nil {
		return e
	}
	c := container.SecurityContext
	e.seLinux = firstSet(c.SELinuxOptions, e.seLinux)
	e.runAsUser = firstSet(c.RunAsUser, e.runAsUser)
	e.runAsGroup = firstSet(c.RunAsGroup, e.runAsGroup)
	e.runAsNonRoot = firstSet(c.RunAsNonRoot, e.runAsNonRoot)
	e.capabilities = c.Capabilities
	e.privileged = c.Privileged
	e.readOnlyRootFilesystem = c.ReadOnlyRootFilesystem
	e.allowPrivilegeEscalation = c.AllowPrivilegeEscalation
	e.procMount = c.ProcMount
	return e
}

func firstSet[T any](override, base *T) *T {
	if override != nil {
		return override
	}
	return base
}

func copyPtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
