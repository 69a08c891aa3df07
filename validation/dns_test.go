package validation

import (
	"fmt"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
)

func TestDNS(t *testing.T) {
	const searchMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*')"
	var manySearches []string
	for i := range 33 {
		manySearches = append(manySearches, fmt.Sprintf("s%d.example.com", i))
	}
	pfRun(t, []pfCase{
		{
			name: "an empty dnsPolicy is required",
			edit: func(p *v1.Pod) { p.Spec.DNSPolicy = "" },
			want: []string{"spec.dnsPolicy: Required value"},
		},
		{
			name: "an unknown dnsPolicy is refused with the supported values",
			edit: func(p *v1.Pod) { p.Spec.DNSPolicy = "ClusterLast" },
			want: []string{`spec.dnsPolicy: Unsupported value: "ClusterLast": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"`},
		},
		{
			name: "dnsPolicy None without a dnsConfig is refused",
			edit: func(p *v1.Pod) { p.Spec.DNSPolicy = v1.DNSNone },
			want: []string{"spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None"},
		},
		{
			name: "dnsPolicy None without a nameserver is refused, nothing else checked",
			edit: func(p *v1.Pod) {
				p.Spec.DNSPolicy = v1.DNSNone
				p.Spec.DNSConfig = &v1.PodDNSConfig{Searches: []string{"Bad_"}}
			},
			want: []string{"spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None"},
		},
		{
			name: "more than 3 nameservers are refused, and each that is not an IP address",
			edit: func(p *v1.Pod) {
				p.Spec.DNSConfig = &v1.PodDNSConfig{Nameservers: []string{"1.1.1.1", "8.8.8.8", "9.9.9.9", "dns.example.com"}}
			},
			want: []string{
				`spec.dnsConfig.nameservers: Invalid value: ["1.1.1.1","8.8.8.8","9.9.9.9","dns.example.com"]: must not have more than 3 nameservers`,
				`spec.dnsConfig.nameservers[3]: Invalid value: "dns.example.com": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`,
			},
		},
		{
			name: "a nameserver with a leading zero is refused",
			edit: func(p *v1.Pod) { p.Spec.DNSConfig = &v1.PodDNSConfig{Nameservers: []string{"010.0.0.1"}} },
			want: []string{`spec.dnsConfig.nameservers[0]: Invalid value: "010.0.0.1": must not have leading 0s`},
		},
		{
			name: "a search domain with a newline and a nameserver line is refused",
			edit: func(p *v1.Pod) {
				p.Spec.DNSConfig = &v1.PodDNSConfig{Searches: []string{"svc.cluster.local\nnameserver 10.0.0.1"}}
			},
			want: []string{`spec.dnsConfig.searches[0]: Invalid value: "svc.cluster.local\nnameserver 10.0.0.1": ` + searchMsg},
		},
		{
			name: "a search domain is checked without its trailing dot, '.' and '_' pass",
			edit: func(p *v1.Pod) {
				p.Spec.DNSConfig = &v1.PodDNSConfig{Searches: []string{".", "_tcp.example.com.", "Example.com."}}
			},
			want: []string{`spec.dnsConfig.searches[2]: Invalid value: "Example.com": ` + searchMsg},
		},
		{
			name: "more than 32 search domains are refused",
			edit: func(p *v1.Pod) { p.Spec.DNSConfig = &v1.PodDNSConfig{Searches: manySearches} },
			want: []string{`spec.dnsConfig.searches: Invalid value: ["` + strings.Join(manySearches, `","`) + `"]: must not have more than 32 search paths`},
		},
		{
			name: "search domains above 2048 characters with their spaces are refused",
			edit: func(p *v1.Pod) {
				p.Spec.DNSConfig = &v1.PodDNSConfig{Searches: []string{strings.Repeat("a", 63) + "." + strings.Repeat("b", 63), strings.Repeat("c.", 960) + "d"}}
			},
			want: []string{`spec.dnsConfig.searches: Invalid value: ["` + strings.Repeat("a", 63) + "." + strings.Repeat("b", 63) + `","` + strings.Repeat("c.", 960) + `d"]: must not have more than 2048 characters (including spaces) in the search list`,
				`spec.dnsConfig.searches[1]: Invalid value: "` + strings.Repeat("c.", 960) + `d": must be no more than 253 characters`},
		},
		{
			name: "an option without a name is refused",
			edit: func(p *v1.Pod) {
				p.Spec.DNSConfig = &v1.PodDNSConfig{Options: []v1.PodDNSConfigOption{{Name: "ndots"}, {}}}
			},
			want: []string{"spec.dnsConfig.options[1]: Required value: must not be empty"},
		},
		{
			name: "a host alias without an IP address and with a hostname that is not a subdomain is refused",
			edit: func(p *v1.Pod) { p.Spec.HostAliases = []v1.HostAlias{{Hostnames: []string{"db", "DB_1"}}} },
			want: []string{
				`spec.hostAliases[0].ip: Invalid value: "": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`,
				`spec.hostAliases[0].hostnames[1]: Invalid value: "DB_1": ` + pfSubdomainMsg,
			},
		},
	})
}
