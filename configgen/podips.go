package configgen

import (
	"net"
	"strconv"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	netutils "k8s.io/utils/net"
)

// PodSandboxIPs returns the pod IPs kubelet takes from a sandbox's status (kuberuntime's
// determinePodSandboxIPs): the primary IP, then the additional ones, in the runtime's order. An
// IP that does not parse makes the whole list empty, with a warning, as in kubelet: the pod then
// has no IPs for its environment and hosts file. Pass the result as podIPs to
// GenerateContainerConfig and GenerateRunContainerOptions; for a host-network pod, whose sandbox
// reports no IP, they use the node's IPs instead (HostNetworkPodIPs).
func PodSandboxIPs(status *runtimeapi.PodSandboxStatus) ([]string, []Warning) {
	ips := []string{}
	if status.GetNetwork() == nil {
		return ips, nil
	}
	// An empty primary IP is normal: the runtime does not manage host-network pods' IPs.
	if ip := status.Network.GetIp(); ip != "" {
		if netutils.ParseIPSloppy(ip) == nil {
			return nil, []Warning{{Reason: ReasonUnparseablePodIP, Message: "pod sandbox reported an unparseable primary IP " + strconv.Quote(ip)}}
		}
		ips = append(ips, ip)
	}
	for _, extra := range status.Network.GetAdditionalIps() {
		if netutils.ParseIPSloppy(extra.GetIp()) == nil {
			return nil, []Warning{{Reason: ReasonUnparseablePodIP, Message: "pod sandbox reported an unparseable additional IP " + strconv.Quote(extra.GetIp())}}
		}
		ips = append(ips, extra.GetIp())
	}
	return ips, nil
}

// HostNetworkPodIPs returns the pod IPs kubelet gives a host-network pod, whose sandbox reports
// none: kubelet's generateAPIPodStatus makes the node's IPs the pod's status.podIPs, and its
// syncPod passes those to the runtime manager, so the containers' status.podIP(s) environment
// and the etc-hosts mount see them. The rules are kubelet's: with no primary pod IP, the node's
// first IP becomes it; with one pod IP and a dual-stack node, the node's IP of the other family is
// added. The node's IPs are nodeIPs reduced as kubelet's GetNodeHostIPs reduces a node's
// addresses: the first, then the first of the other family. For a pod without hostNetwork, or
// with no node IPs, podIPs is returned unchanged.
//
// The Generator applies this to the podIPs its Generate calls take, with Options.NodeIPs.
func HostNetworkPodIPs(pod *v1.Pod, podIPs []string, nodeIPs []net.IP) []string {
	if pod == nil || !pod.Spec.HostNetwork {
		return podIPs
	}
	hostIPs := nodeHostIPs(nodeIPs)
	if len(hostIPs) == 0 {
		return podIPs
	}
	if len(podIPs) == 0 || podIPs[0] == "" {
		podIPs = []string{hostIPs[0].String()}
	}
	if len(hostIPs) == 2 && len(podIPs) == 1 {
		if ip := netutils.ParseIPSloppy(podIPs[0]); ip != nil && netutils.IsIPv6(ip) != netutils.IsIPv6(hostIPs[1]) {
			podIPs = []string{podIPs[0], hostIPs[1].String()}
		}
	}
	return podIPs
}

// nodeHostIPs is the node's primary IP and, on a dual-stack node, its first IP of the other
// family, as kubelet's GetNodeHostIPs keeps them. Nil entries are skipped.
func nodeHostIPs(nodeIPs []net.IP) []net.IP {
	var out []net.IP
	for _, ip := range nodeIPs {
		if ip == nil {
			continue
		}
		if len(out) == 0 || (len(out) == 1 && netutils.IsIPv6(ip) != netutils.IsIPv6(out[0])) {
			out = append(out, ip)
		}
	}
	return out
}
