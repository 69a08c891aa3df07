package configgen

import (
	"net"
	"strconv"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// sandboxPortMappings returns the sandbox's port mappings: every port of every regular container,
// in order (kuberuntime's generatePodSandboxConfig with MakePortMappings). Within one container a
// port whose name, or for an unnamed port its family, protocol, host IP, container port and host
// port, repeats an earlier one is skipped with a warning, as kubelet does; an unknown protocol is
// TCP with a warning; init and ephemeral containers publish no ports. The result is nil when there
// are none.
func sandboxPortMappings(pod *v1.Pod) ([]*runtimeapi.PortMapping, []Warning) {
	pod = orEmptyPod(pod)
	total := 0
	for i := range pod.Spec.Containers {
		total += len(pod.Spec.Containers[i].Ports)
	}
	if total == 0 {
		return nil, nil
	}
	out := make([]*runtimeapi.PortMapping, 0, total)
	var warnings []Warning
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		seen := make(map[string]bool, len(c.Ports))
		for _, p := range c.Ports {
			key := portKey(p)
			if seen[key] {
				warnings = append(warnings, Warning{Reason: ReasonPortNameConflict, Container: c.Name,
					Message: "port name conflicted, " + strconv.Quote(key) + " is defined more than once in container " + c.Name})
				continue
			}
			seen[key] = true
			proto, known := toRuntimeProtocol(p.Protocol)
			if !known {
				warnings = append(warnings, Warning{Reason: ReasonUnknownPortProtocol, Container: c.Name,
					Message: "unknown protocol " + strconv.Quote(string(p.Protocol)) + " of a port in container " + c.Name + ", defaulting to TCP"})
			}
			out = append(out, &runtimeapi.PortMapping{
				Protocol: proto, ContainerPort: p.ContainerPort, HostPort: p.HostPort, HostIp: p.HostIP,
			})
		}
	}
	return out, warnings
}

// portKey names a port for de-duplication: its name, else "<family>-<proto>-<hostIP>:<cport>:<hport>"
// with family any, v4 or v6, so the same port may be published once per address family.
func portKey(p v1.ContainerPort) string {
	if p.Name != "" {
		return p.Name
	}
	family := "any"
	if p.HostIP != "" {
		family = "v4"
		if ip := net.ParseIP(p.HostIP); ip != nil && ip.To4() == nil {
			family = "v6"
		}
	}
	return family + "-" + string(p.Protocol) + "-" + p.HostIP + ":" +
		strconv.Itoa(int(p.ContainerPort)) + ":" + strconv.Itoa(int(p.HostPort))
}

// toRuntimeProtocol maps an API protocol to CRI's; kubelet treats anything unknown, the empty
// string included, as TCP and logs it.
func toRuntimeProtocol(p v1.Protocol) (runtimeapi.Protocol, bool) {
	switch p {
	case v1.ProtocolTCP:
		return runtimeapi.Protocol_TCP, true
	case v1.ProtocolUDP:
		return runtimeapi.Protocol_UDP, true
	case v1.ProtocolSCTP:
		return runtimeapi.Protocol_SCTP, true
	default:
		return runtimeapi.Protocol_TCP, false
	}
}
