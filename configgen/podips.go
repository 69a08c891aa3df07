package configgen

import (
	"strconv"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	netutils "k8s.io/utils/net"
)

// PodSandboxIPs returns the pod IPs kubelet takes from a sandbox's status (kuberuntime's
// determinePodSandboxIPs): the primary IP, then the additional ones, in the runtime's order. An
// IP that does not parse makes the whole list empty, with a warning, as in kubelet: the pod then
// has no IPs for its environment and hosts file. Pass the result as podIPs to
// GenerateContainerConfig and GenerateRunContainerOptions.
func PodSandboxIPs(status *runtimeapi.PodSandboxStatus) ([]string, []string) {
	ips := []string{}
	if status.GetNetwork() == nil {
		return ips, nil
	}
	// An empty primary IP is normal: the runtime does not manage host-network pods' IPs.
	if ip := status.Network.GetIp(); ip != "" {
		if netutils.ParseIPSloppy(ip) == nil {
			return nil, []string{"pod sandbox reported an unparseable primary IP " + strconv.Quote(ip)}
		}
		ips = append(ips, ip)
	}
	for _, extra := range status.Network.GetAdditionalIps() {
		if netutils.ParseIPSloppy(extra.GetIp()) == nil {
			return nil, []string{"pod sandbox reported an unparseable additional IP " + strconv.Quote(extra.GetIp())}
		}
		ips = append(ips, extra.GetIp())
	}
	return ips, nil
}
