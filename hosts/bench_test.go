package hosts_test

import (
	"testing"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/hosts"
	"github.com/podconfig/podconfig/internal/benchpod"
)

func BenchmarkManagedHostsFileContent(b *testing.B) {
	podIPs := []string{"10.244.1.7", "fd00:10:244:1::7"}
	aliases := []v1.HostAlias{
		{IP: "10.1.0.9", Hostnames: []string{"db", "db.internal"}},
		{IP: "10.1.0.10", Hostnames: []string{"cache"}},
	}
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if _, err := hosts.ManagedHostsFileContent(podIPs, "web-0", "web.shop.svc.cluster.local", aliases); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGeneratePodHostNameAndDomain(b *testing.B) {
	pod := testPod("web-0", "shop", v1.PodSpec{Hostname: "web-0", Subdomain: "web"})
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if _, _, _, err := hosts.GeneratePodHostNameAndDomain(pod, "cluster.local"); err != nil {
			b.Fatal(err)
		}
	}
}
