package security

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// RuntimeHandlerResolver maps a pod's runtimeClassName to the CRI runtime handler, as kubelet's
// runtimeclass.Manager does: nil or "" is the default handler "", an unknown class is an error
// (kubelet returns its RuntimeClass lister's NotFound error, `runtimeclass.node.k8s.io "<name>" not found`).
type RuntimeHandlerResolver interface {
	LookupRuntimeHandler(runtimeClassName *string) (string, error)
}

// UserNamespaceMapper gives a pod with hostUsers: false its user-namespace id mappings, as kubelet's
// userns manager does: it checks that the runtime handler supports user namespaces (see
// CheckUserNamespaceSupport), then returns the pod's persistent allocation, creating it on first
// use, as {Mode: POD, Uids: [{HostId, ContainerId: 0, Length}], Gids: the same}. It is called only for
// pods with hostUsers: false; the other pods get {Mode: NODE} without asking it.
type UserNamespaceMapper interface {
	GetOrCreateUserNamespaceMappings(ctx context.Context, pod *v1.Pod, runtimeHandler string) (*runtimeapi.UserNamespace, error)
}

// CheckUserNamespaceSupport reproduces kubelet's check that a runtime handler can run a pod with
// hostUsers: false. handlers is what the runtime's Status reports: handler name to whether it
// supports user namespaces; nil or empty means the runtime reported no handler list, which kubelet
// takes as no support. The errors, all wrapping ErrUserNamespacesUnsupported, are kubelet's: for
// the default handler "",
//
//	can't set `spec.hostUsers: false`, runtime does not support user namespaces
//
// and for a named handler,
//
//	can't set `spec.hostUsers: false`, RuntimeClass handler "<h>" does not support user namespaces
//
// each followed by `: the handler "<h>" is not known` when the runtime lists handlers but not
// this one.
func CheckUserNamespaceSupport(handlers map[string]bool, runtimeHandler string) error {
	supported, known := handlers[runtimeHandler]
	if supported {
		return nil
	}
	msg := "can't set `spec.hostUsers: false`, runtime does not support user namespaces"
	if runtimeHandler != "" {
		msg = fmt.Sprintf("can't set `spec.hostUsers: false`, RuntimeClass handler %q does not support user namespaces", runtimeHandler)
	}
	if !known && len(handlers) > 0 {
		msg += fmt.Sprintf(": the handler %q is not known", runtimeHandler)
	}
	return &kindError{Msg: msg, Kind: ErrUserNamespacesUnsupported}
}

// NamespacesForPod reproduces kubelet's NamespacesForPod: IPC and network are NODE with hostIPC /
// hostNetwork and POD otherwise; PID is NODE with hostPID, POD with shareProcessNamespace: true and
// CONTAINER otherwise; the user namespace is NODE unless hostUsers is false, in which case the
// UserNamespaceMapper supplies the mappings for the pod's runtime handler. The handler is looked up
// for every pod, so an unknown runtimeClassName is an error even with hostUsers unset. Without a mapper,
// hostUsers: false is an error wrapping ErrUserNamespacesUnsupported, worded as kubelet words a
// handler without support (see CheckUserNamespaceSupport); without a handler resolver the handler
// is "".
func (r *Resolver) NamespacesForPod(ctx context.Context, pod *v1.Pod) (*runtimeapi.NamespaceOption, error) {
	if pod == nil {
		return nil, fmt.Errorf("namespaces for pod: no pod: %w", ErrInvalidInput)
	}
	userns, err := r.userNamespace(ctx, pod)
	if err != nil {
		return nil, err
	}
	ns := &runtimeapi.NamespaceOption{
		Network:       runtimeapi.NamespaceMode_POD,
		Pid:           runtimeapi.NamespaceMode_CONTAINER,
		Ipc:           runtimeapi.NamespaceMode_POD,
		UsernsOptions: userns,
	}
	if pod.Spec.HostNetwork {
		ns.Network = runtimeapi.NamespaceMode_NODE
	}
	if pod.Spec.HostIPC {
		ns.Ipc = runtimeapi.NamespaceMode_NODE
	}
	switch {
	case pod.Spec.HostPID:
		ns.Pid = runtimeapi.NamespaceMode_NODE
	case pod.Spec.ShareProcessNamespace != nil && *pod.Spec.ShareProcessNamespace:
		ns.Pid = runtimeapi.NamespaceMode_POD
	}
	return ns, nil
}

// userNamespace returns the pod's user namespace: the node's unless the pod sets hostUsers: false.
func (r *Resolver) userNamespace(ctx context.Context, pod *v1.Pod) (*runtimeapi.UserNamespace, error) {
	// Kubelet resolves the handler for every pod, so an unknown runtimeClassName fails even when
	// the pod shares the node's user namespace.
	cfg := r.Config()
	handler := ""
	if cfg.RuntimeClasses != nil {
		var err error
		if handler, err = cfg.RuntimeClasses.LookupRuntimeHandler(pod.Spec.RuntimeClassName); err != nil {
			return nil, err
		}
	}
	if pod.Spec.HostUsers == nil || *pod.Spec.HostUsers {
		return &runtimeapi.UserNamespace{Mode: runtimeapi.NamespaceMode_NODE}, nil
	}
	if cfg.UserNamespaces == nil {
		// No mapper is a runtime whose handlers all lack user-namespace support: kubelet's words
		// for that name the handler unless it is the default one.
		return nil, CheckUserNamespaceSupport(map[string]bool{handler: false}, handler)
	}
	return cfg.UserNamespaces.GetOrCreateUserNamespaceMappings(ctx, pod, handler)
}

// applyNamespaceTarget points an ephemeral container at the container it targets, as kubelet's
// generateLinuxContainerConfig does for nsTarget: when the PID namespace is CONTAINER it becomes
// TARGET with TargetId = targetID. An empty targetID or a nil ns leaves ns alone.
func applyNamespaceTarget(ns *runtimeapi.NamespaceOption, targetID string) {
	if ns == nil || targetID == "" || ns.Pid != runtimeapi.NamespaceMode_CONTAINER {
		return
	}
	ns.Pid = runtimeapi.NamespaceMode_TARGET
	ns.TargetId = targetID
}

// ApplyUserNamespaceToMounts gives every mount the pod's user-namespace id mappings, as kubelet's
// applyPlatformSpecificContainerConfig does when the container has user-namespace options (for NODE
// mode the mappings are nil, so the mounts get nil). Each mount gets its own copies, so editing one
// mount's mappings never changes another's or ns's.
func ApplyUserNamespaceToMounts(mounts []*runtimeapi.Mount, ns *runtimeapi.NamespaceOption) {
	if ns == nil || ns.UsernsOptions == nil {
		return
	}
	for _, m := range mounts {
		if m == nil {
			continue
		}
		m.UidMappings = copyIDMappings(ns.UsernsOptions.Uids)
		m.GidMappings = copyIDMappings(ns.UsernsOptions.Gids)
	}
}

// copyIDMappings returns a copy of in: nil for nil, a nil entry for a nil entry.
func copyIDMappings(in []*runtimeapi.IDMapping) []*runtimeapi.IDMapping {
	if in == nil {
		return nil
	}
	out := make([]*runtimeapi.IDMapping, len(in))
	for i, m := range in {
		if m != nil {
			out[i] = &runtimeapi.IDMapping{HostId: m.HostId, ContainerId: m.ContainerId, Length: m.Length}
		}
	}
	return out
}
