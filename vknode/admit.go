package vknode

import (
	"fmt"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/internal/sysctl"
)

// Kubelet's reasons for a pod refused for its sysctls, and for one past the node's pods capacity.
const (
	reasonSysctlForbidden = "SysctlForbidden"
	reasonOutOfPods       = "OutOfpods"
)

// The namespaces of the safe sysctls, as kubelet names them in its refusals.
const (
	ipcNamespace = "IPC"
	netNamespace = "net"
)

// safeSysctls are kubelet's safe sysctls (its default allowlist, without --allowed-unsafe-sysctls)
// and the namespace each lives in. Kubelet leaves out those the node's kernel does not
// namespace yet (net.ipv4.tcp_* before 4.x to 6.x); the provider assumes a kernel recent
// enough for all of them.
var safeSysctls = map[string]string{
	"kernel.shm_rmid_forced":              ipcNamespace,
	"net.ipv4.ip_local_port_range":        netNamespace,
	"net.ipv4.tcp_syncookies":             netNamespace,
	"net.ipv4.ping_group_range":           netNamespace,
	"net.ipv4.ip_unprivileged_port_start": netNamespace,
	"net.ipv4.ip_local_reserved_ports":    netNamespace,
	"net.ipv4.tcp_keepalive_time":         netNamespace,
	"net.ipv4.tcp_fin_timeout":            netNamespace,
	"net.ipv4.tcp_keepalive_intvl":        netNamespace,
	"net.ipv4.tcp_keepalive_probes":       netNamespace,
	"net.ipv4.tcp_rmem":                   netNamespace,
	"net.ipv4.tcp_wmem":                   netNamespace,
	"net.ipv4.tcp_slow_start_after_idle":  netNamespace,
	"net.ipv4.tcp_notsent_lowat":          netNamespace,
}

// admitSysctls is kubelet's sysctl admission: the allowlist. It returns kubelet's reason and
// message for a refused pod, or "" for an admitted one.
func admitSysctls(pod *v1.Pod) (reason, message string) {
	sc := pod.Spec.SecurityContext
	if sc == nil {
		return "", ""
	}
	for _, s := range sc.Sysctls {
		if err := allowedSysctl(s.Name, pod.Spec.HostNetwork, pod.Spec.HostIPC); err != nil {
			return reasonSysctlForbidden, fmt.Sprintf("forbidden sysctl: %v", err)
		}
	}
	return "", ""
}

// allowedSysctl fails for a sysctl not on the allowlist, or one in a namespace the pod shares
// with the host.
func allowedSysctl(name string, hostNetwork, hostIPC bool) error {
	name = sysctl.Normalize(name)
	ns, ok := safeSysctls[name]
	switch {
	case !ok:
		return fmt.Errorf("%q not allowlisted", name)
	case ns == ipcNamespace && hostIPC, ns == netNamespace && hostNetwork:
		return fmt.Errorf("%q not allowed with host %s enabled", name, ns)
	}
	return nil
}

// rejectedStatus is the status kubelet gives a pod it refuses: Failed, with the reason and
// message of the refusal.
func rejectedStatus(pod *v1.Pod, reason, message string) v1.PodStatus {
	return v1.PodStatus{QOSClass: pod.Status.QOSClass, Phase: v1.PodFailed, Reason: reason, Message: "Pod was rejected: " + message}
}
