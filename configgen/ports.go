package configgen

import (
	"net"
	"slices"
	"strconv"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// SandboxPortMappings returns the sandbox's port mappings: every port of every regular container,
// in order (kuberuntime's generatePodSandboxConfig with MakePortMappings). Within one container a
// port whose name, or for an unnamed port its family, protocol, host IP, container port and host
// port, repeats an earlier one is skipped with a warning, as kubelet does; an unknown protocol is
// TCP with a warning; init and ephemeral containers publish no ports. The result is nil when there
// are none.
func SandboxPortMappings(pod *v1.Pod) ([]*runtimeapi.PortMapping, []Warning) {
	pod = orEmptyPod(pod)
	total := 0
	for i := range pod.Spec.Containers {
		total += len(pod.Spec.Containers[i].Ports)
	}
	if total == 0 {
		return nil, nil
	}
	mappings, out := portMessages(total)
	var warnings []Warning
	var keysBuf [8]string
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		keys := keysBuf[:0]
		var seen map[string]struct{}
		if len(c.Ports) > len(keysBuf) {
			// Too many ports to compare each with every earlier one.
			seen = make(map[string]struct{}, len(c.Ports))
		}
		for _, p := range c.Ports {
			key := portKey(p)
			dup := false
			if seen != nil {
				_, dup = seen[key]
				seen[key] = struct{}{}
			} else {
				dup = slices.Contains(keys, key)
				keys = append(keys, key)
			}
			if dup {
				warnings = append(warnings, Warning{Reason: ReasonPortNameConflict, Container: c.Name,
					Message: "port name conflicted, " + strconv.Quote(key) + " is defined more than once in container " + c.Name})
				continue
			}
			proto, known := toRuntimeProtocol(p.Protocol)
			if !known {
				warnings = append(warnings, Warning{Reason: ReasonUnknownPortProtocol, Container: c.Name,
					Message: "unknown protocol " + strconv.Quote(string(p.Protocol)) + " of a port in container " + c.Name + ", defaulting to TCP"})
			}
			mappings = mappings[:len(mappings)+1]
			m := &mappings[len(mappings)-1]
			m.Protocol, m.ContainerPort, m.HostPort, m.HostIp = proto, p.ContainerPort, p.HostPort, p.HostIP
			out = append(out, m)
		}
	}
	return out, warnings
}

// portMessages returns room for n port mappings and for the pointers to them. The messages share
// one allocation; for up to four, the pointers share it too.
func portMessages(n int) ([]runtimeapi.PortMapping, []*runtimeapi.PortMapping) {
	switch {
	case n == 1:
		b := new(struct {
			m [1]runtimeapi.PortMapping
			p [1]*runtimeapi.PortMapping
		})
		return b.m[:0], b.p[:0]
	case n == 2:
		b := new(struct {
			m [2]runtimeapi.PortMapping
			p [2]*runtimeapi.PortMapping
		})
		return b.m[:0], b.p[:0]
	case n <= 4:
		b := new(struct {
			m [4]runtimeapi.PortMapping
			p [4]*runtimeapi.PortMapping
		})
		return b.m[:0:n], b.p[:0:n]
	}
	return make([]runtimeapi.PortMapping, 0, n), make([]*runtimeapi.PortMapping, 0, n)
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
