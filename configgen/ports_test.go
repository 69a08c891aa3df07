package configgen

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

func TestSandboxPortMappings(t *testing.T) {
	port := func(name string, proto v1.Protocol, cport, hport int32, hostIP string) v1.ContainerPort {
		return v1.ContainerPort{Name: name, Protocol: proto, ContainerPort: cport, HostPort: hport, HostIP: hostIP}
	}
	pm := func(proto runtimeapi.Protocol, cport, hport int32, hostIP string) *runtimeapi.PortMapping {
		return &runtimeapi.PortMapping{Protocol: proto, ContainerPort: cport, HostPort: hport, HostIp: hostIP}
	}
	tests := []struct {
		name        string
		spec        v1.PodSpec
		want        []*runtimeapi.PortMapping
		wantReasons []string
	}{
		{name: "no ports gives nil", spec: v1.PodSpec{Containers: []v1.Container{{Name: "a"}}}},
		{
			name: "duplicates within a container are skipped by name or by family/proto/hostIP/ports",
			spec: v1.PodSpec{Containers: []v1.Container{{Name: "a", Ports: []v1.ContainerPort{
				port("", v1.ProtocolTCP, 80, 8080, "127.0.0.1"),
				port("", v1.ProtocolTCP, 443, 4343, "192.168.0.1"),
				port("foo", v1.ProtocolUDP, 555, 5555, ""),
				port("foo", v1.ProtocolUDP, 888, 8888, ""),
				port("", v1.ProtocolTCP, 80, 8080, "127.0.0.1"),
				port("", v1.ProtocolTCP, 80, 8080, "::"),
				port("", v1.ProtocolTCP, 1234, 5678, ""),
			}}}},
			want: []*runtimeapi.PortMapping{
				pm(runtimeapi.Protocol_TCP, 80, 8080, "127.0.0.1"),
				pm(runtimeapi.Protocol_TCP, 443, 4343, "192.168.0.1"),
				pm(runtimeapi.Protocol_UDP, 555, 5555, ""),
				pm(runtimeapi.Protocol_TCP, 80, 8080, "::"),
				pm(runtimeapi.Protocol_TCP, 1234, 5678, ""),
			},
			wantReasons: []string{ReasonPortNameConflict, ReasonPortNameConflict},
		},
		{
			name: "the same port in two containers is kept twice; init and ephemeral containers publish none",
			spec: v1.PodSpec{
				InitContainers: []v1.Container{{Name: "i", Ports: []v1.ContainerPort{port("", v1.ProtocolTCP, 9, 9, "")}}},
				Containers: []v1.Container{
					{Name: "a", Ports: []v1.ContainerPort{port("", v1.ProtocolSCTP, 1, 1, "")}},
					{Name: "b", Ports: []v1.ContainerPort{port("", v1.ProtocolSCTP, 1, 1, "")}},
				},
			},
			want: []*runtimeapi.PortMapping{pm(runtimeapi.Protocol_SCTP, 1, 1, ""), pm(runtimeapi.Protocol_SCTP, 1, 1, "")},
		},
		{
			name:        "an unknown protocol becomes TCP with a warning, as kubelet logs it",
			spec:        v1.PodSpec{Containers: []v1.Container{{Name: "a", Ports: []v1.ContainerPort{port("", "QUIC", 1, 2, "")}}}},
			want:        []*runtimeapi.PortMapping{pm(runtimeapi.Protocol_TCP, 1, 2, "")},
			wantReasons: []string{ReasonUnknownPortProtocol},
		},
		{
			name:        "an empty protocol (no API defaulting) becomes TCP with a warning",
			spec:        v1.PodSpec{Containers: []v1.Container{{Name: "a", Ports: []v1.ContainerPort{port("", "", 1, 2, "")}}}},
			want:        []*runtimeapi.PortMapping{pm(runtimeapi.Protocol_TCP, 1, 2, "")},
			wantReasons: []string{ReasonUnknownPortProtocol},
		},
	}
	// A container with many ports: duplicates are found the same way.
	var many []v1.ContainerPort
	var manyWant []*runtimeapi.PortMapping
	for i := int32(1); i <= 12; i++ {
		many = append(many, port("", v1.ProtocolTCP, i, 0, ""))
		manyWant = append(manyWant, pm(runtimeapi.Protocol_TCP, i, 0, ""))
	}
	many = append(many, port("", v1.ProtocolTCP, 3, 0, ""))
	tests = append(tests, struct {
		name        string
		spec        v1.PodSpec
		want        []*runtimeapi.PortMapping
		wantReasons []string
	}{
		name: "duplicates among many ports are skipped too", spec: v1.PodSpec{Containers: []v1.Container{{Name: "a", Ports: many}}},
		want: manyWant, wantReasons: []string{ReasonPortNameConflict},
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings := sandboxPortMappings(&v1.Pod{Spec: tt.spec})
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.wantReasons, warningReasons(warnings))
		})
	}
}

// Every count of ports gets every mapping, each its own message, whichever allocation holds them.
func TestSandboxPortMappingsEveryCount(t *testing.T) {
	for n := 1; n <= 6; n++ {
		var ports []v1.ContainerPort
		var want []*runtimeapi.PortMapping
		for i := 1; i <= n; i++ {
			ports = append(ports, v1.ContainerPort{ContainerPort: int32(i), Protocol: v1.ProtocolUDP})
			want = append(want, &runtimeapi.PortMapping{Protocol: runtimeapi.Protocol_UDP, ContainerPort: int32(i)})
		}
		got, warnings := sandboxPortMappings(&v1.Pod{Spec: v1.PodSpec{Containers: []v1.Container{{Name: "a", Ports: ports}}}})
		assert.Empty(t, warnings)
		assert.Equal(t, want, got, "%d ports", n)
		assert.Len(t, got, cap(got), "%d ports: no room past the mappings", n)
		got[0].HostPort = 99
		for _, m := range got[1:] {
			assert.Zero(t, m.HostPort, "%d ports: messages are distinct", n)
		}
	}
}
