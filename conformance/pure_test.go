package conformance

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/conformance/internal/kubeletside"
	"github.com/podconfig/podconfig/hosts"
	"github.com/podconfig/podconfig/security"
)

// errMatches reports whether podconfig's error p carries kubelet's error k (both nil, or p's text
// contains k's).
func errMatches(k, p error) bool {
	if k == nil || p == nil {
		return k == nil && p == nil
	}
	return strings.Contains(p.Error(), k.Error())
}

// TestVerifyRunAsNonRoot runs kubelet's verifyRunAsNonRoot and podconfig's on every combination
// of pod and container runAsNonRoot/runAsUser and image uid/user name. podconfig fails closed
// where kubelet does not (an image with neither uid nor name, runAsUser beyond 2147483647 under
// runAsNonRoot; docs/compatibility.md): those combinations must fail in podconfig, whatever kubelet says.
func TestVerifyRunAsNonRoot(t *testing.T) {
	bools := []*bool{nil, ptr.To(false), ptr.To(true)}
	users := []*int64{nil, ptr.To[int64](0), ptr.To[int64](1000), ptr.To[int64](1 << 32)}
	names := []string{"", "root", "nobody", "1000"}
	n := 0
	for _, podNonRoot := range bools {
		for _, podUser := range users {
			for _, cNonRoot := range bools {
				for _, cUser := range users {
					for _, imageUID := range users[:3] {
						for _, name := range names {
							pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u"},
								Spec: v1.PodSpec{SecurityContext: &v1.PodSecurityContext{RunAsNonRoot: podNonRoot, RunAsUser: podUser}}}
							c := &v1.Container{Name: "c", SecurityContext: &v1.SecurityContext{RunAsNonRoot: cNonRoot, RunAsUser: cUser}}
							pod.Spec.Containers = []v1.Container{*c}
							k := kubeletside.VerifyRunAsNonRoot(pod, c, imageUID, name)
							p := security.VerifyRunAsNonRoot(pod, c, imageUID, name)
							n++
							if errMatches(k, p) {
								continue
							}
							nonRoot := ptr.Deref(cNonRoot, ptr.Deref(podNonRoot, false))
							user := cUser
							if user == nil {
								user = podUser
							}
							failsClosed := nonRoot && k == nil && p != nil &&
								((user == nil && imageUID == nil && name == "") || (user != nil && *user > 2147483647))
							if !failsClosed {
								t.Errorf("pod %v/%v container %v/%v image %v %q: kubelet %v, podconfig %v",
									fmtPtr(podNonRoot), fmtPtr(podUser), fmtPtr(cNonRoot), fmtPtr(cUser), fmtPtr(imageUID), name, k, p)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d combinations", n)
}

func fmtPtr[T any](p *T) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}

// TestHostnameAndHostsFile runs kubelet's GeneratePodHostNameAndDomain, GetNodenameForKernel and
// managedHostsFileContent and podconfig's on combinations of names, hostnames, subdomains,
// overrides, cluster domains, pod IPs and host aliases. A pod name that is not a DNS subdomain
// (the API server refuses it) used as the hostname must fail in podconfig whatever kubelet does.
func TestHostnameAndHostsFile(t *testing.T) {
	long := strings.Repeat("a", 70)
	podNames := []string{"web", long, strings.Repeat("b", 62) + ".-x"}
	hostnames := []string{"", "web-0", "Bad_Name"}
	subdomains := []string{"", "svc", "bad.sub"}
	overrides := []*string{nil, ptr.To("custom.host"), ptr.To("Bad_Override")}
	domains := []string{"cluster.local", "", strings.Repeat("d", 40) + ".example"}
	fqdn := []*bool{nil, ptr.To(true)}
	ips := [][]string{{"10.244.0.5"}, {"10.244.0.5", "fd00::5"}}
	aliases := [][]v1.HostAlias{nil, {{IP: "10.1.2.3", Hostnames: []string{"foo", "bar.local"}}}}
	n := 0
	for _, name := range podNames {
		for _, hn := range hostnames {
			for _, sd := range subdomains {
				for _, ov := range overrides {
					for _, domain := range domains {
						pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns"},
							Spec: v1.PodSpec{Hostname: hn, Subdomain: sd, HostnameOverride: ov}}
						kh, kd, kerr := kubeletside.GeneratePodHostNameAndDomain(pod, domain)
						ph, pd, _, perr := hosts.GeneratePodHostNameAndDomain(pod, domain)
						n++
						if ov == nil && hn == "" && len(validation.IsDNS1123Subdomain(name)) != 0 {
							// A pod name the API server would refuse: podconfig refuses it as a
							// hostname (docs/compatibility.md, hostname row); kubelet uses it.
							if perr == nil {
								t.Errorf("pod name %q: podconfig accepted it", name)
							}
							continue
						}
						if !errMatches(kerr, perr) || kh != ph || kd != pd {
							t.Errorf("%q/%q/%q/%v in %q: kubelet %q %q %v, podconfig %q %q %v", name, hn, sd, fmtPtr(ov), domain, kh, kd, kerr, ph, pd, perr)
							continue
						}
						if kerr != nil {
							continue
						}
						for _, f := range fqdn {
							kn, kerr := kubeletside.GetNodenameForKernel(kh, kd, f)
							pn, perr := hosts.GetNodenameForKernel(ph, pd, f)
							if !errMatches(kerr, perr) || kn != pn {
								t.Errorf("nodename %q %q %v: kubelet %q %v, podconfig %q %v", kh, kd, fmtPtr(f), kn, kerr, pn, perr)
							}
						}
						for _, ip := range ips {
							for _, a := range aliases {
								k := kubeletside.ManagedHostsFileContent(ip, kh, kd, a)
								p, err := hosts.HostsFileContent(hosts.HostsFileOptions{PodIPs: ip, HostName: ph, HostDomainName: pd, HostAliases: a})
								if err != nil || !bytes.Equal(k, p) {
									t.Errorf("hosts file %v %q %q %v: kubelet %q, podconfig %q %v", ip, kh, kd, a, k, p, err)
								}
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d combinations", n)
}
