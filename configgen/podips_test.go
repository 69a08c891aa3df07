package configgen

import (
	"net"
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

func TestPodSandboxIPs(t *testing.T) {
	network := func(primary string, extra ...string) *runtimeapi.PodSandboxStatus {
		n := &runtimeapi.PodSandboxNetworkStatus{Ip: primary}
		for _, ip := range extra {
			n.AdditionalIps = append(n.AdditionalIps, &runtimeapi.PodIP{Ip: ip})
		}
		return &runtimeapi.PodSandboxStatus{Network: n}
	}
	tests := []struct {
		name        string
		status      *runtimeapi.PodSandboxStatus
		want        []string
		wantReasons []string
	}{
		{"no network status gives no IPs", &runtimeapi.PodSandboxStatus{}, []string{}, nil},
		{"primary then additional IPs, in the runtime's order", network("10.0.0.1", "fd00::1"), []string{"10.0.0.1", "fd00::1"}, nil},
		{"an empty primary IP (host network) is skipped", network("", "10.0.0.2"), []string{"10.0.0.2"}, nil},
		{"IPs are kept as written, leading zeros included", network("010.000.000.001"), []string{"010.000.000.001"}, nil},
		{"an unparseable primary IP empties the list", network("bogus", "10.0.0.1"), nil, []string{ReasonUnparseablePodIP}},
		{"an unparseable additional IP empties the list", network("10.0.0.1", "nope"), nil, []string{ReasonUnparseablePodIP}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings := PodSandboxIPs(tt.status)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.wantReasons, warningReasons(warnings))
		})
	}
}

func TestHostNetworkPodIPs(t *testing.T) {
	hostNet := &v1.Pod{Spec: v1.PodSpec{HostNetwork: true}}
	v4, v6, v4b := net.ParseIP("192.0.2.10"), net.ParseIP("2001:db8::10"), net.ParseIP("192.0.2.11")
	tests := []struct {
		name    string
		pod     *v1.Pod
		podIPs  []string
		nodeIPs []net.IP
		want    []string
	}{
		{"a pod network pod keeps its IPs", &v1.Pod{}, []string{"10.244.0.5"}, []net.IP{v4}, []string{"10.244.0.5"}},
		{"a pod network pod with no IPs keeps none", &v1.Pod{}, nil, []net.IP{v4}, nil},
		{"a host-network pod with no IPs gets the node's IP", hostNet, nil, []net.IP{v4}, []string{"192.0.2.10"}},
		{"an empty primary IP counts as none", hostNet, []string{""}, []net.IP{v4}, []string{"192.0.2.10"}},
		{"a dual-stack node gives both families, primary first", hostNet, nil, []net.IP{v6, v4}, []string{"2001:db8::10", "192.0.2.10"}},
		{"only the first IP of each family counts (GetNodeHostIPs)", hostNet, nil, []net.IP{v4, v4b, v6}, []string{"192.0.2.10", "2001:db8::10"}},
		{"a set primary IP is kept and the other family added", hostNet, []string{"192.0.2.99"}, []net.IP{v4, v6}, []string{"192.0.2.99", "2001:db8::10"}},
		{"a second IP of the same family as the pod's is not added", hostNet, []string{"2001:db8::99"}, []net.IP{v4, v6}, []string{"2001:db8::99"}},
		{"two pod IPs are kept", hostNet, []string{"192.0.2.99", "2001:db8::99"}, []net.IP{v4, v6}, []string{"192.0.2.99", "2001:db8::99"}},
		{"no node IPs leave the pod with none", hostNet, nil, nil, nil},
		{"a nil pod is returned unchanged", nil, []string{"10.0.0.1"}, []net.IP{v4}, []string{"10.0.0.1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, HostNetworkPodIPs(tt.pod, tt.podIPs, tt.nodeIPs))
		})
	}
}
