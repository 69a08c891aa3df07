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
	// The context and the messages it points to live in one allocation; each is still a message
	// of its own.
	blk := new(containerBlock)
	sc := &blk.sc
	sc.Capabilities = runtimeCapabilities(eff.capabilities, &blk.caps, blk.capNames[:])
	sc.SelinuxOptions = runtimeSELinux(eff.seLinux)
	sc.Privileged = eff.privileged != nil && *eff.privileged
	sc.ReadonlyRootfs = eff.readOnlyRootFilesystem != nil && *eff.readOnlyRootFilesystem
	if eff.runAsUser != nil {
		blk.user.Value = *eff.runAsUser
		sc.RunAsUser = &blk.user
	}
	if eff.runAsGroup != nil {
		blk.group.Value = *eff.runAsGroup
		sc.RunAsGroup = &blk.group
	}

	var err error
	cfg := r.Config()
	if err = seccompProfileInto(&blk.seccomp, pod, c, cfg.SeccompProfileRoot, cfg.SeccompDefault); err != nil {
		return nil, err
	}
	sc.Seccomp = &blk.seccomp
	//lint:ignore SA1019 kubelet still fills the deprecated string for runtimes that read only it
	if sc.Apparmor, sc.ApparmorProfile, err = appArmorProfile(pod, c); err != nil {
		return nil, err
	}

	if sc.RunAsUser == nil {
		if in.ImageUID != nil {
			blk.user.Value = *in.ImageUID
			sc.RunAsUser = &blk.user
		}
		sc.RunAsUsername = in.ImageUsername
	}

	if err = r.namespacesForPodInto(ctx, pod, &blk.ns, &blk.userns); err != nil {
		return nil, err
	}
	sc.NamespaceOptions = &blk.ns
	applyNamespaceTarget(sc.NamespaceOptions, in.NamespaceTarget)

	podSC := pod.Spec.SecurityContext
	if podSC != nil {
		if sc.SupplementalGroupsPolicy, err = supplementalGroupsPolicy(podSC.SupplementalGroupsPolicy); err != nil {
			return nil, err
		}
	}
	sc.SupplementalGroups = supplementalGroups(podSC, in.ExtraSupplementalGroups, false, blk.groups[:])

	sc.NoNewPrivs = eff.allowPrivilegeEscalation != nil && !*eff.allowPrivilegeEscalation
	sc.MaskedPaths, sc.ReadonlyPaths = r.procPaths(eff.procMount)
	return sc, nil
}

// containerBlock is a container's security context with the messages and the short lists it
// usually points to, allocated together. The SELinux and AppArmor options, which few pods set,
// get their own allocations.
type containerBlock struct {
	sc          runtimeapi.LinuxContainerSecurityContext
	user, group runtimeapi.Int64Value
	caps        runtimeapi.Capability
	seccomp     runtimeapi.SecurityProfile
	ns          runtimeapi.NamespaceOption
	userns      runtimeapi.UserNamespace
	// capNames and groups hold the capability names and the supplemental groups when they fit:
	// dropping ALL and adding one, fsGroup and one more group.
	capNames [2]string
	groups   [2]int64
}

// supplementalGroups lists fsGroup, then either the pod's groups and the extra groups (container
// order) or the extra groups and the pod's groups (sandbox order). Nil when there are none. The
// list is written into space when it fits, capped so that appending to it cannot write past it.
func supplementalGroups(podSC *v1.PodSecurityContext, extra []int64, sandboxOrder bool, space []int64) []int64 {
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
	var out []int64
	if n <= len(space) {
		out = space[:0:n]
	} else {
		out = make([]int64, 0, n)
	}
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

// runtimeCapabilities converts c into out, the names going into space when they fit.
func runtimeCapabilities(c *v1.Capabilities, out *runtimeapi.Capability, space []string) *runtimeapi.Capability {
	if c == nil {
		return nil
	}
	// One backing array for both lists; capping Add's capacity keeps an append to it from
	// overwriting Drop.
	n := len(c.Add) + len(c.Drop)
	var names []string
	if n <= len(space) {
		names = space[:n:n]
	} else {
		names = make([]string, n)
	}
	for i, v := range c.Add {
		names[i] = string(v)
	}
	for i, v := range c.Drop {
		names[len(c.Add)+i] = string(v)
	}
	out.AddCapabilities = names[:len(c.Add):len(c.Add)]
	out.DropCapabilities = names[len(c.Add):]
	return out
}

func runtimeSELinux(o *v1.SELinuxOptions) *runtimeapi.SELinuxOption {
	if o == nil {
		return nil
	}
	return &runtimeapi.SELinuxOption{User: o.User, Role: o.Role, Type: o.Type, Level: o.Level}
}
