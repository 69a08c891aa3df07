package hosts_test

import (
	"errors"
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/hosts"
)

// ExampleHostsFileContent renders the /etc/hosts of a dual-stack pod with a subdomain and a
// hostAlias, as kubelet writes it.
func ExampleHostsFileContent() {
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web-0", Namespace: "shop"},
		Spec: v1.PodSpec{
			Subdomain:   "web",
			HostAliases: []v1.HostAlias{{IP: "10.1.0.9", Hostnames: []string{"db", "db.internal"}}},
		},
	}
	hostname, domain, _, err := hosts.GeneratePodHostNameAndDomain(pod, "cluster.local")
	if err != nil {
		panic(err)
	}
	content, err := hosts.HostsFileContent(hosts.HostsFileOptions{
		PodIPs: []string{"10.244.1.7", "fd00::7"}, HostName: hostname, HostDomainName: domain, HostAliases: pod.Spec.HostAliases,
	})
	if err != nil {
		panic(err)
	}
	fmt.Print(string(content))
	// Output:
	// # Kubernetes-managed hosts file.
	// 127.0.0.1	localhost
	// ::1	localhost ip6-localhost ip6-loopback
	// fe00::0	ip6-localnet
	// fe00::0	ip6-mcastprefix
	// fe00::1	ip6-allnodes
	// fe00::2	ip6-allrouters
	// 10.244.1.7	web-0.web.shop.svc.cluster.local	web-0
	// fd00::7	web-0.web.shop.svc.cluster.local	web-0
	//
	// # Entries added by HostAliases.
	// 10.1.0.9	db	db.internal
}

// ExampleHostsFileContent_injection shows a hostAlias that tries to add a line of its own.
func ExampleHostsFileContent_injection() {
	aliases := []v1.HostAlias{{IP: "10.1.0.9", Hostnames: []string{"db\n10.6.6.6\tbank.example.com"}}}
	_, err := hosts.HostsFileContent(hosts.HostsFileOptions{PodIPs: []string{"10.244.1.7"}, HostName: "web-0", HostAliases: aliases})
	fmt.Println(errors.Is(err, hosts.ErrInvalidHostsEntry))
	fmt.Println(strings.SplitAfter(err.Error(), "Invalid value: ")[0])
	// Output:
	// true
	// spec.hostAliases[0].hostnames[0]: Invalid value:
}

// ExampleMakeHostsFile writes the hosts file of a host-network pod into an in-memory pod directory,
// with the node's hosts file given as bytes so the result does not depend on the machine.
func ExampleMakeHostsFile() {
	fsys := hostfs.NewMemory()
	_ = fsys.MkdirAll("/var/lib/kubelet/pods/1234", 0o750)

	path, err := hosts.MakeHostsFile(fsys, hosts.HostsFileOptions{
		PodDir:      "/var/lib/kubelet/pods/1234",
		HostNetwork: true,
		NodeHosts:   func() ([]byte, error) { return []byte("127.0.0.1\tlocalhost\n10.0.0.2\tnode-a\n"), nil },
	})
	if err != nil {
		panic(err)
	}
	content, _ := fsys.ReadFile(path)
	fmt.Println(path)
	fmt.Print(string(content))
	// Output:
	// /var/lib/kubelet/pods/1234/etc-hosts
	// # Kubernetes-managed hosts file (host network).
	// 127.0.0.1	localhost
	// 10.0.0.2	node-a
}

// ExampleHostsFileContent_hostNetwork renders the hosts file of a host-network pod: the node's own file with
// the pod's hostAliases after it.
func ExampleHostsFileContent_hostNetwork() {
	content, err := hosts.HostsFileContent(hosts.HostsFileOptions{
		HostNetwork: true,
		NodeHosts:   func() ([]byte, error) { return []byte("127.0.0.1\tlocalhost\n10.0.0.1\tnode-a\n"), nil },
		HostAliases: []v1.HostAlias{{IP: "10.1.0.9", Hostnames: []string{"db"}}},
	})
	if err != nil {
		panic(err)
	}
	fmt.Print(string(content))
	// Output:
	// # Kubernetes-managed hosts file (host network).
	// 127.0.0.1	localhost
	// 10.0.0.1	node-a
	//
	// # Entries added by HostAliases.
	// 10.1.0.9	db
}
