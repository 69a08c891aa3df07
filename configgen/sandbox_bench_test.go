package configgen

import (
	"testing"

	"github.com/podconfig/podconfig/internal/benchpod"
)

// BenchmarkPodDNS builds benchpod's sandbox DNS config (ClusterFirst, one cluster DNS server, a
// host search domain) from node facts parsed once, as a Generator does.
func BenchmarkPodDNS(b *testing.B) {
	node := benchpod.NodeFacts()
	facts := parseNodeDNS(NodeDNS{ClusterDNS: node.ClusterDNS, ClusterDomain: node.ClusterDomain,
		HostResolvConf: []byte(node.ResolvConf), NodeIPs: node.IPs})
	pod := benchpod.Pod()
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if _, _, err := facts.podDNS(pod); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSandboxPortMappings maps benchpod's two named container ports.
func BenchmarkSandboxPortMappings(b *testing.B) {
	pod := benchpod.Pod()
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if ports, _ := sandboxPortMappings(pod); len(ports) != 2 {
			b.Fatal(ports)
		}
	}
}
