package security

import (
	"context"
	"fmt"
	"github.com/podconfig/podconfig/internal/sysctl"
	"strings"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// SandboxSecurityContext builds the pod sandbox's CRI security context as kubelet's
// generatePodSandboxLinuxConfig does:
//   - privileged when any init, regular or ephemeral container is privileged;
//   - seccomp RuntimeDefault always, whatever the pod asks for;
//   - only when the pod has a securityContext: runAsUser, runAsGroup, the pod's namespaces (so a
//     pod without one gets no namespace options), supplemental groups in the sandbox's order
//     (fsGroup, extraGroups, then the pod's supplementalGroups, no dedup), the supplementalGroupsPolicy
//     and the SELinux options.
func (r *Resolver) SandboxSecurityContext(ctx context.Context, pod *v1.Pod, extraGroups []int64) (*runtimeapi.LinuxSandboxSecurityContext, error) {
	if pod == nil {
		return nil, fmt.Errorf("sandbox security context: no pod: %w", ErrInvalidInput)
	}
	sc := &runtimeapi.LinuxSandboxSecurityContext{
		Privileged: hasPrivilegedContainer(pod),
		// A RuntimeDefault sandbox lets pods pick stricter profiles for their containers.
		Seccomp: &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_RuntimeDefault},
	}
	podSC := pod.Spec.SecurityContext
	if podSC == nil {
		return sc, nil
	}
	sc.RunAsUser = int64Value(podSC.RunAsUser)
	sc.RunAsGroup = int64Value(podSC.RunAsGroup)
	var err error
	if sc.NamespaceOptions, err = r.NamespacesForPod(ctx, pod); err != nil {
		return nil, err
	}
	sc.SupplementalGroups = supplementalGroups(podSC, extraGroups, true)
	if sc.SupplementalGroupsPolicy, err = supplementalGroupsPolicy(podSC.SupplementalGroupsPolicy); err != nil {
		return nil, err
	}
	sc.SelinuxOptions = runtimeSELinux(podSC.SELinuxOptions)
	return sc, nil
}

// hasPrivilegedContainer reports whether any init, regular or ephemeral container of the pod asks
// for privileged: true, as kubelet's kubecontainer.HasPrivilegedContainer.
func hasPrivilegedContainer(pod *v1.Pod) bool {
	if pod == nil {
		return false
	}
	privileged := func(sc *v1.SecurityContext) bool {
		return sc != nil && sc.Privileged != nil && *sc.Privileged
	}
	for i := range pod.Spec.InitContainers {
		if privileged(pod.Spec.InitContainers[i].SecurityContext) {
			return true
		}
	}
	for i := range pod.Spec.Containers {
		if privileged(pod.Spec.Containers[i].SecurityContext) {
			return true
		}
	}
	for i := range pod.Spec.EphemeralContainers {
		if privileged(pod.Spec.EphemeralContainers[i].SecurityContext) {
			return true
		}
	}
	return false
}

// ipcSysctls are the IPC-namespaced sysctls outside fs.mqueue.*.
var ipcSysctls = map[string]bool{
	"kernel.msgmax":          true,
	"kernel.msgmnb":          true,
	"kernel.msgmni":          true,
	"kernel.sem":             true,
	"kernel.shmall":          true,
	"kernel.shmmax":          true,
	"kernel.shmmni":          true,
	"kernel.shm_rmid_forced": true,
}

// SandboxSysctls returns the sandbox's sysctls as kubelet's generatePodSandboxLinuxConfig does. The
// node's default sysctls (Config.DefaultPodSysctls) come first, each name normalised with
// sysctl.Normalize and kept only when it lives in a namespace the pod does not share with the
// node: IPC sysctls (kernel.msg*, sem, shm*, fs.mqueue.*) unless hostIPC, net.* unless hostNetwork,
// user.* only when hostUsers is false (unset means the host's user namespace, as the API's default
// is true), kernel.domainname unless hostNetwork; all others are dropped.
// Then the pod's securityContext.sysctls are set as given (not normalised), overriding defaults.
// The map is never nil. When the defaults spell one sysctl both ways ("net.a.b" and "net/a/b"),
// the dotted spelling's value is used; kubelet picks one at random.
func (r *Resolver) SandboxSysctls(pod *v1.Pod) map[string]string {
	if pod == nil {
		return make(map[string]string)
	}
	cfg := r.Config()
	size := len(cfg.DefaultPodSysctls)
	if pod.Spec.SecurityContext != nil {
		size += len(pod.Spec.SecurityContext.Sysctls)
	}
	out := make(map[string]string, size)
	if len(cfg.DefaultPodSysctls) > 0 {
		for k, v := range cfg.DefaultPodSysctls {
			name := sysctl.Normalize(k)
			if !sysctlAllowed(pod, name) {
				continue
			}
			// Two keys can only name one sysctl as "a.b/c" and "a/b.c"; kubelet keeps whichever
			// its map walk meets last, this keeps the dotted one.
			if _, seen := out[name]; seen && k != name {
				continue
			}
			out[name] = v
		}
	}
	if pod.Spec.SecurityContext != nil {
		for _, s := range pod.Spec.SecurityContext.Sysctls {
			out[s.Name] = s.Value
		}
	}
	return out
}

func sysctlAllowed(pod *v1.Pod, name string) bool {
	switch {
	case ipcSysctls[name] || strings.HasPrefix(name, "fs.mqueue."):
		return !pod.Spec.HostIPC
	case strings.HasPrefix(name, "net."):
		return !pod.Spec.HostNetwork
	case strings.HasPrefix(name, "user."):
		return pod.Spec.HostUsers != nil && !*pod.Spec.HostUsers
	case name == "kernel.domainname":
		return !pod.Spec.HostNetwork
	}
	return false
}
