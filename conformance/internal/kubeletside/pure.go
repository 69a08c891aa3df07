package kubeletside

import (
	_ "unsafe" // for go:linkname

	"context"

	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/kubelet"
	"k8s.io/kubernetes/pkg/kubelet/network/dns"
	"k8s.io/kubernetes/pkg/kubelet/util"
)

// Kubelet's pure functions, called directly.

//go:linkname verifyRunAsNonRoot k8s.io/kubernetes/pkg/kubelet/kuberuntime.verifyRunAsNonRoot
func verifyRunAsNonRoot(ctx context.Context, pod *v1.Pod, container *v1.Container, uid *int64, username string) error

//go:linkname managedHostsFileContent k8s.io/kubernetes/pkg/kubelet.managedHostsFileContent
func managedHostsFileContent(hostIPs []string, hostName, hostDomainName string, hostAliases []v1.HostAlias) []byte

// VerifyRunAsNonRoot is kuberuntime's verifyRunAsNonRoot.
func VerifyRunAsNonRoot(pod *v1.Pod, container *v1.Container, uid *int64, username string) error {
	return verifyRunAsNonRoot(context.Background(), pod, container, uid, username)
}

// ManagedHostsFileContent is kubelet's managedHostsFileContent.
func ManagedHostsFileContent(podIPs []string, hostName, hostDomainName string, hostAliases []v1.HostAlias) []byte {
	return managedHostsFileContent(podIPs, hostName, hostDomainName, hostAliases)
}

// GeneratePodHostNameAndDomain is kubelet's GeneratePodHostNameAndDomain with the given cluster
// domain.
func GeneratePodHostNameAndDomain(pod *v1.Pod, clusterDomain string) (string, string, error) {
	kl := &kubelet.Kubelet{}
	set(kl, "dnsConfigurer", &dns.Configurer{ClusterDomain: clusterDomain})
	return kl.GeneratePodHostNameAndDomain(klog.Background(), pod)
}

// GetNodenameForKernel is kubelet's util.GetNodenameForKernel.
func GetNodenameForKernel(hostname, domain string, setHostnameAsFQDN *bool) (string, error) {
	return util.GetNodenameForKernel(hostname, domain, setHostnameAsFQDN)
}
