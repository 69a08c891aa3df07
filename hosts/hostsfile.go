package hosts

import (
	"bytes"
	"fmt"
	"github.com/podconfig/podconfig/internal/podid"
	"net/netip"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	netutils "k8s.io/utils/net"
)

const (
	managedHeader            = "# Kubernetes-managed hosts file.\n"
	managedHeaderHostNetwork = "# Kubernetes-managed hosts file (host network).\n"
	loopbackEntries          = "127.0.0.1\tlocalhost\n" +
		"::1\tlocalhost ip6-localhost ip6-loopback\n" +
		"fe00::0\tip6-localnet\n" +
		"fe00::0\tip6-mcastprefix\n" +
		"fe00::1\tip6-allnodes\n" +
		"fe00::2\tip6-allrouters\n"
	aliasesHeader = "\n# Entries added by HostAliases.\n"
)

// managedHostsFileContent returns the /etc/hosts of a pod on the pod network, byte for byte as
// kubelet's managedHostsFileContent writes it: a header, the loopback entries, one line per pod IP in
// the order given ("<ip>\t<hostname>.<domain>\t<hostname>", or "<ip>\t<hostname>" without a domain),
// then the hostAliases block.
//
// Like kubelet, it does not check that pod IPs are IP addresses, nor sort or deduplicate them. Unlike
// kubelet, it refuses anything that would add a line or a comment to the file: a pod IP, hostName or
// hostDomainName with whitespace, a control character or '#', and any hostAlias that is not a valid
// IP with DNS-1123 subdomain hostnames (the API server's own rules). Such errors match
// ErrInvalidHostsEntry.
func managedHostsFileContent(podIPs []string, hostName, hostDomainName string, hostAliases []v1.HostAlias) ([]byte, error) {
	for i, ip := range podIPs {
		if err := checkToken(ip, func() *field.Path { return field.NewPath("podIPs").Index(i) }); err != nil {
			return nil, err
		}
	}
	if err := checkToken(hostName, func() *field.Path { return field.NewPath("hostname") }); err != nil {
		return nil, err
	}
	if err := checkToken(hostDomainName, func() *field.Path { return field.NewPath("hostDomainName") }); err != nil {
		return nil, err
	}
	if err := validateHostAliases(hostAliases); err != nil {
		return nil, err
	}

	var b bytes.Buffer
	b.WriteString(managedHeader)
	b.WriteString(loopbackEntries)
	for _, ip := range podIPs {
		b.WriteString(ip + "\t")
		if hostDomainName != "" {
			b.WriteString(hostName + "." + hostDomainName + "\t")
		}
		b.WriteString(hostName + "\n")
	}
	writeAliases(&b, hostAliases)
	return b.Bytes(), nil
}

// nodeHostsFileContent returns the /etc/hosts of a host-network pod, as kubelet's
// nodeHostsFileContent does: a header, the node's own hosts file unchanged, then the hostAliases
// block. The aliases are validated as in managedHostsFileContent; the node's file is trusted.
func nodeHostsFileContent(nodeHosts []byte, hostAliases []v1.HostAlias) ([]byte, error) {
	if err := validateHostAliases(hostAliases); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(managedHeaderHostNetwork)
	b.Write(nodeHosts)
	writeAliases(&b, hostAliases)
	return b.Bytes(), nil
}

// validateHostAliases checks each spec.hostAliases entry as the API server does: the IP must parse
// as an IP address (leading zeros tolerated, as for this legacy field) and every hostname must be a
// DNS-1123 subdomain, which rules out whitespace, '#', newlines and NUL. Kubelet relies on that
// validation having happened; podconfig repeats it because these entries become lines of a file
// inside the container. The error names the first bad field and matches ErrInvalidHostsEntry.
func validateHostAliases(hostAliases []v1.HostAlias) error {
	for i, alias := range hostAliases {
		if !isLegacyIP(alias.IP) {
			p := field.NewPath("spec", "hostAliases").Index(i).Child("ip")
			return invalidEntry(p, alias.IP, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")
		}
		for j, name := range alias.Hostnames {
			if msgs := podid.SubdomainErrors(name); len(msgs) != 0 {
				p := field.NewPath("spec", "hostAliases").Index(i).Child("hostnames").Index(j)
				return invalidEntry(p, name, strings.Join(msgs, ";"))
			}
		}
	}
	return nil
}

// isLegacyIP accepts what the API server's IsValidIPForLegacyField accepts without strict
// validation. netip handles the common case without allocating; it also takes IPv6 zones, which the
// API does not, and refuses IPv4 octets with leading zeros, which the API tolerates here.
func isLegacyIP(s string) bool {
	if addr, err := netip.ParseAddr(s); err == nil {
		return addr.Zone() == ""
	}
	return netutils.ParseIPSloppy(s) != nil
}

func invalidEntry(p *field.Path, value, detail string) error {
	return &kindError{Kind: ErrInvalidHostsEntry, Msg: field.Invalid(p, value, detail).Error()}
}

// checkToken refuses a value that would not stay one field of one line of a hosts file.
// The path is built only on failure, to keep the common case free of allocations.
func checkToken(value string, path func() *field.Path) error {
	for i := 0; i < len(value); i++ {
		if c := value[i]; c <= ' ' || c == 0x7f || c == '#' {
			return invalidEntry(path(), value, fmt.Sprintf("must not contain whitespace, control characters or '#' (found %q at byte %d)", c, i))
		}
	}
	return nil
}

// writeAliases writes kubelet's hostsEntriesFromHostAliases block: one line per alias, its IP and
// hostnames separated by tabs. An alias without hostnames still gets its line, "<ip>\t".
func writeAliases(b *bytes.Buffer, hostAliases []v1.HostAlias) {
	if len(hostAliases) == 0 {
		return
	}
	b.WriteString(aliasesHeader)
	for _, alias := range hostAliases {
		b.WriteString(alias.IP + "\t" + strings.Join(alias.Hostnames, "\t") + "\n")
	}
}
