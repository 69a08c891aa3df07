package security

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// ContainerInput is what ContainerSecurityContext needs to know about one container.
type ContainerInput struct {
	// Pod and Container are read, never modified. Both are required.
	Pod       *v1.Pod
	Container *v1.Container
	// ImageUID and ImageUsername are the image's user as an ImageUserResolver reports it; they are
	// used only when no runAsUser is set.
	ImageUID      *int64
	ImageUsername string
	// ExtraSupplementalGroups are the groups the pod's volumes ask for (kubelet's
	// GetExtraSupplementalGroupsForPod, from the pv.beta.kubernetes.io/gid annotation).
	ExtraSupplementalGroups []int64
	// NamespaceTarget is the runtime id of the container an ephemeral container targets (kubelet's
	// nsTarget); empty for every other container. The container then joins that container's PID
	// namespace, as kubelet's applyNamespaceTarget does.
	NamespaceTarget string
}

// ContainerSecurityContext builds the container's CRI security context as kubelet's
// determineEffectiveSecurityContext does, plus the ephemeral container's namespace target that
// kubelet's generateLinuxContainerConfig applies:
//   - capabilities (names verbatim, non-nil lists), privileged, SELinux options, runAsUser and
//     runAsGroup, read-only root filesystem, from the effective security context;
//   - the seccomp and AppArmor profiles (see seccompProfile and appArmorProfile);
//   - with no runAsUser, the image's uid, and RunAsUsername = the image's user name (set even when
//     empty);
//   - the pod's namespaces (see NamespacesForPod);
//   - supplemental groups: fsGroup, the pod's supplementalGroups, then in.ExtraSupplementalGroups
//     (these even without a pod securityContext, as kubelet's code does), without removing
//     duplicates; supplementalGroupsPolicy mapped to its CRI value;
//   - no_new_privs when allowPrivilegeEscalation is false; masked and read-only paths by procMount,
//     set even for privileged containers.
//
// Errors come in kubelet's order (seccomp, AppArmor, namespaces, policy) and wrap a category. The
// result shares no memory with the input or with other results. The caller gives the container's
// CRI mounts the user-namespace mappings with ApplyUserNamespaceToMounts(mounts,
// result.NamespaceOptions), as kubelet's applyPlatformSpecificContainerConfig does.
func (r *Resolver) ContainerSecurityContext(ctx context.Context, in ContainerInput) (*runtimeapi.LinuxContainerSecurityContext, error) {
	pod, c := in.Pod, in.Container
	if pod == nil || c == nil {
		return nil, fmt.Errorf("container security context: pod and container are required: %w", ErrInvalidInput)
	}
	eff := effectiveOf(pod, c)
	sc := &runtimeapi.LinuxContainerSecurityContext{
		Capabilities:   runtimeCapabilities(eff.capabilities),
		SelinuxOptions: runtimeSELinux(eff.seLinux),
		Privileged:     eff.privileged != nil && *eff.privileged,
		ReadonlyRootfs: eff.readOnlyRootFilesystem != nil && *eff.readOnlyRootFilesystem,
		RunAsUser:      int64Value(eff.runAsUser),
		RunAsGroup:     int64Value(eff.runAsGroup),
	}

	var err error
	cfg := r.Config()
	if sc.Seccomp, err = seccompProfile(pod, c, cfg.SeccompProfileRoot, cfg.SeccompDefault); err != nil {
		return nil, err
	}
	//lint:ignore SA1019 kubelet still fills the deprecated string for runtimes that read only it
	if sc.Apparmor, sc.ApparmorProfile, err = appArmorProfile(pod, c); err != nil {
		return nil, err
	}

	if sc.RunAsUser == nil {
		sc.RunAsUser = int64Value(in.ImageUID)
		sc.RunAsUsername = in.ImageUsername
	}

	if sc.NamespaceOptions, err = r.NamespacesForPod(ctx, pod); err != nil {
		return nil, err
	}
	applyNamespaceTarget(sc.NamespaceOptions, in.NamespaceTarget)

	podSC := pod.Spec.SecurityContext
	if podSC != nil {
		if sc.SupplementalGroupsPolicy, err = supplementalGroupsPolicy(podSC.SupplementalGroupsPolicy); err != nil {
			return nil, err
		}
	}
	sc.SupplementalGroups = supplementalGroups(podSC, in.ExtraSupplementalGroups, false)

	sc.NoNewPrivs = eff.allowPrivilegeEscalation != nil && !*eff.allowPrivilegeEscalation
	sc.MaskedPaths, sc.ReadonlyPaths = r.MaskedPaths(eff.procMount), readonlyPaths(eff.procMount)
	return sc, nil
}

// int64Value is v as a CRI message, nil for nil.
func int64Value(v *int64) *runtimeapi.Int64Value {
	if v == nil {
		return nil
	}
	return &runtimeapi.Int64Value{Value: *v}
}

// supplementalGroups lists fsGroup, then either the pod's groups and the extra groups (container
// order) or the extra groups and the pod's groups (sandbox order). Nil when there are none.
func supplementalGroups(podSC *v1.PodSecurityContext, extra []int64, sandboxOrder bool) []int64 {
	var fsGroup *int64
	var podGroups []int64
	if podSC != nil {
		fsGroup, podGroups = podSC.FSGroup, podSC.SupplementalGroups
	}
	n := len(podGroups) + len(extra)
	if fsGroup != nil {
		n++
	}
	if n == 0 {
		return nil
	}
	out := make([]int64, 0, n)
	if fsGroup != nil {
		out = append(out, *fsGroup)
	}
	if sandboxOrder {
		out = append(out, extra...)
		return append(out, podGroups...)
	}
	out = append(out, podGroups...)
	return append(out, extra...)
}

// supplementalGroupsPolicy maps the pod's policy to CRI by name ("Merge", "Strict"); unset is Merge.
func supplementalGroupsPolicy(p *v1.SupplementalGroupsPolicy) (runtimeapi.SupplementalGroupsPolicy, error) {
	if p == nil {
		return runtimeapi.SupplementalGroupsPolicy_Merge, nil
	}
	v, ok := runtimeapi.SupplementalGroupsPolicy_value[string(*p)]
	if !ok {
		return 0, &kindError{Msg: fmt.Sprintf("unsupported supplementalGroupsPolicy: %s", string(*p)), Kind: ErrUnsupportedSupplementalGroupsPolicy}
	}
	return runtimeapi.SupplementalGroupsPolicy(v), nil
}

// runtimeCapabilities converts c; both lists are non-nil, as kubelet's are.
func runtimeCapabilities(c *v1.Capabilities) *runtimeapi.Capability {
	if c == nil {
		return nil
	}
	return &runtimeapi.Capability{
		AddCapabilities:  capabilityNames(c.Add),
		DropCapabilities: capabilityNames(c.Drop),
	}
}

func capabilityNames(caps []v1.Capability) []string {
	names := make([]string, len(caps))
	for i, v := range caps {
		names[i] = string(v)
	}
	return names
}

func runtimeSELinux(o *v1.SELinuxOptions) *runtimeapi.SELinuxOption {
	if o == nil {
		return nil
	}
	return &runtimeapi.SELinuxOption{User: o.User, Role: o.Role, Type: o.Type, Level: o.Level}
}
