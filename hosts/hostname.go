package hosts

import (
	"fmt"
	"github.com/podconfig/podconfig/internal/podid"
	"strings"

	v1 "k8s.io/api/core/v1"
)

// HostnameMaxLen is the longest hostname kubelet gives a pod: the kernel's 64-byte field less the
// terminating NUL.
const HostnameMaxLen = 63

// FQDNMaxLen is the longest FQDN that fits the kernel's nodename field (kubelet allows all 64 bytes).
const FQDNMaxLen = 64

// GeneratePodHostNameAndDomain returns the hostname and domain of pod, as kubelet's
// GeneratePodHostNameAndDomain does (clusterDomain is kubelet's --cluster-domain):
//
//   - spec.hostnameOverride, when set, must be a DNS-1123 subdomain; it is the hostname (truncated
//     like any other) and the domain is always empty, whatever spec.subdomain says;
//   - otherwise the hostname is spec.hostname, which must be a DNS-1123 label, or the pod's name,
//     truncated to 63 bytes with trailing '-' and '.' removed;
//   - spec.subdomain, when set, must be a DNS-1123 label and gives the domain
//     "<subdomain>.<namespace>.svc.<clusterDomain>".
//
// Kubelet logs a truncation; it comes back here as a warning. Kubelet trusts the API server to have
// validated the pod's name and namespace; podconfig does not, so a pod name used as the hostname must
// be a DNS-1123 subdomain and a non-empty namespace used in the domain a DNS-1123 label. Neither check
// rejects a pod an API server would accept.
func GeneratePodHostNameAndDomain(pod *v1.Pod, clusterDomain string) (hostname, domain string, warnings []string, err error) {
	if pod == nil {
		return "", "", nil, &kindError{Kind: ErrInvalidHostname, Msg: "no pod given"}
	}
	if pod.Spec.HostnameOverride != nil {
		override := *pod.Spec.HostnameOverride
		if msgs := podid.SubdomainErrors(override); len(msgs) != 0 {
			return "", "", nil, invalidName("pod HostnameOverride %q is not a valid DNS subdomain: %s", override, msgs)
		}
		hostname, warnings, err = truncatePodHostnameIfNeeded(pod.Name, override)
		if err != nil {
			return "", "", warnings, err
		}
		return hostname, "", warnings, nil
	}

	hostname = pod.Name
	if pod.Spec.Hostname != "" {
		if msgs := podid.LabelErrors(pod.Spec.Hostname); len(msgs) != 0 {
			return "", "", nil, invalidName("pod Hostname %q is not a valid DNS label: %s", pod.Spec.Hostname, msgs)
		}
		hostname = pod.Spec.Hostname
	} else if msgs := podid.SubdomainErrors(pod.Name); len(msgs) != 0 {
		return "", "", nil, invalidName("pod name %q is not a valid DNS subdomain: %s", pod.Name, msgs)
	}
	hostname, warnings, err = truncatePodHostnameIfNeeded(pod.Name, hostname)
	if err != nil {
		return "", "", warnings, err
	}

	if pod.Spec.Subdomain != "" {
		if msgs := podid.LabelErrors(pod.Spec.Subdomain); len(msgs) != 0 {
			return "", "", warnings, invalidName("pod Subdomain %q is not a valid DNS label: %s", pod.Spec.Subdomain, msgs)
		}
		if pod.Namespace != "" {
			if msgs := podid.LabelErrors(pod.Namespace); len(msgs) != 0 {
				return "", "", warnings, invalidName("pod namespace %q is not a valid DNS label: %s", pod.Namespace, msgs)
			}
		}
		domain = pod.Spec.Subdomain + "." + pod.Namespace + ".svc." + clusterDomain
	}
	return hostname, domain, warnings, nil
}

func invalidName(format, value string, msgs []string) error {
	return &kindError{Kind: ErrInvalidHostname, Msg: fmt.Sprintf(format, value, strings.Join(msgs, ";"))}
}

// truncatePodHostnameIfNeeded cuts hostname to 63 bytes and then drops trailing '-' and '.', as
// kubelet's truncatePodHostnameIfNeeded does; a hostname that fits is returned unchanged. The
// truncation, which kubelet logs, is returned as a warning. Nothing left is an error naming podName.
func truncatePodHostnameIfNeeded(podName, hostname string) (string, []string, error) {
	if len(hostname) <= HostnameMaxLen {
		return hostname, nil, nil
	}
	truncated := hostname[:HostnameMaxLen]
	warning := fmt.Sprintf("hostname for pod %q was longer than %d characters, truncated it to %q", podName, HostnameMaxLen, truncated)
	truncated = strings.TrimRight(truncated, "-.")
	if truncated == "" {
		return "", []string{warning}, &kindError{Kind: ErrInvalidHostname, Msg: fmt.Sprintf("hostname for pod %q was invalid: %q", podName, hostname)}
	}
	return truncated, []string{warning}, nil
}

// GetNodenameForKernel returns the name the pod's UTS namespace gets (PodSandboxConfig.Hostname), as
// kubelet's util.GetNodenameForKernel does: "<hostname>.<domain>" when setHostnameAsFQDN is true and
// the domain is not empty, an error when that is longer than 64 bytes, and the short hostname
// otherwise.
func GetNodenameForKernel(hostname, hostDomainName string, setHostnameAsFQDN *bool) (string, error) {
	if hostDomainName == "" || setHostnameAsFQDN == nil || !*setHostnameAsFQDN {
		return hostname, nil
	}
	fqdn := hostname + "." + hostDomainName
	if len(fqdn) > FQDNMaxLen {
		return "", &kindError{Kind: ErrFQDNTooLong, Msg: fmt.Sprintf(
			"failed to construct FQDN from pod hostname and cluster domain, FQDN %s is too long (%d characters is the max, %d characters requested)",
			fqdn, FQDNMaxLen, len(fqdn))}
	}
	return fqdn, nil
}
