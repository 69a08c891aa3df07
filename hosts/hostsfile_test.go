package hosts_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/hosts"
)

const managedPrefix = "# Kubernetes-managed hosts file.\n" +
	"127.0.0.1\tlocalhost\n" +
	"::1\tlocalhost ip6-localhost ip6-loopback\n" +
	"fe00::0\tip6-localnet\n" +
	"fe00::0\tip6-mcastprefix\n" +
	"fe00::1\tip6-allnodes\n" +
	"fe00::2\tip6-allrouters\n"

const subdomainRule = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"

func TestManagedHostsFileContent(t *testing.T) {
	tests := []struct {
		name     string
		podIPs   []string
		hostname string
		domain   string
		aliases  []v1.HostAlias
		want     string
		wantErr  string
	}{
		{
			name:     "without a domain each pod IP gets the short hostname",
			podIPs:   []string{"123.45.67.89"},
			hostname: "podFoo",
			aliases:  []v1.HostAlias{},
			want:     managedPrefix + "123.45.67.89\tpodFoo\n",
		},
		{
			name:     "with a domain each pod IP gets the FQDN then the short hostname",
			podIPs:   []string{"203.0.113.1"},
			hostname: "podFoo",
			domain:   "domainFoo",
			want:     managedPrefix + "203.0.113.1\tpodFoo.domainFoo\tpodFoo\n",
		},
		{
			name:     "every pod IP gets a line, in the order given, neither sorted nor deduplicated",
			podIPs:   []string{"fd00::6", "203.0.113.1", "fd00::6"},
			hostname: "podFoo",
			domain:   "domainFoo",
			want: managedPrefix +
				"fd00::6\tpodFoo.domainFoo\tpodFoo\n" +
				"203.0.113.1\tpodFoo.domainFoo\tpodFoo\n" +
				"fd00::6\tpodFoo.domainFoo\tpodFoo\n",
		},
		{
			name:     "pod IPs are not checked to be IP addresses, as in kubelet",
			podIPs:   []string{"not-an-ip"},
			hostname: "h",
			want:     managedPrefix + "not-an-ip\th\n",
		},
		{
			name:     "no pod IPs gives only the loopback entries",
			hostname: "h",
			want:     managedPrefix,
		},
		{
			name:     "hostAliases come after a blank line and a header, one line per alias, tab separated",
			podIPs:   []string{"203.0.113.1"},
			hostname: "podFoo",
			domain:   "domainFoo",
			aliases: []v1.HostAlias{
				{IP: "123.45.67.89", Hostnames: []string{"foo", "bar", "baz"}},
				{IP: "2001:db8::1", Hostnames: []string{"park"}},
			},
			want: managedPrefix + "203.0.113.1\tpodFoo.domainFoo\tpodFoo\n" +
				"\n# Entries added by HostAliases.\n" +
				"123.45.67.89\tfoo\tbar\tbaz\n" +
				"2001:db8::1\tpark\n",
		},
		{
			name:     "an alias without hostnames still gets its line",
			podIPs:   []string{"10.0.0.1"},
			hostname: "h",
			aliases:  []v1.HostAlias{{IP: "10.0.0.2"}},
			want:     managedPrefix + "10.0.0.1\th\n\n# Entries added by HostAliases.\n10.0.0.2\t\n",
		},
		{
			name:     "an alias IP with leading zeros is accepted, as the API server does for this field",
			hostname: "h",
			aliases:  []v1.HostAlias{{IP: "010.000.000.001", Hostnames: []string{"a"}}},
			want:     managedPrefix + "\n# Entries added by HostAliases.\n010.000.000.001\ta\n",
		},
		{
			name:     "an alias IP that is not an IP is rejected",
			hostname: "h",
			aliases:  []v1.HostAlias{{IP: "1.2.3.4", Hostnames: []string{"a"}}, {IP: "456.78.90.123", Hostnames: []string{"b"}}},
			wantErr:  `spec.hostAliases[1].ip: Invalid value: "456.78.90.123": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`,
		},
		{
			name:     "an alias IP with a newline and a second entry is rejected",
			hostname: "h",
			aliases:  []v1.HostAlias{{IP: "1.2.3.4\n6.6.6.6", Hostnames: []string{"a"}}},
			wantErr:  `spec.hostAliases[0].ip: Invalid value: "1.2.3.4\n6.6.6.6": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`,
		},
		{
			name:     "an empty alias IP is rejected",
			hostname: "h",
			aliases:  []v1.HostAlias{{Hostnames: []string{"a"}}},
			wantErr:  `spec.hostAliases[0].ip: Invalid value: "": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`,
		},
		{
			name:     "an alias IPv6 address with a zone is rejected, as by the API server",
			hostname: "h",
			aliases:  []v1.HostAlias{{IP: "fe80::1%eth0", Hostnames: []string{"a"}}},
			wantErr:  `spec.hostAliases[0].ip: Invalid value: "fe80::1%eth0": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`,
		},
		{
			name:     "an IPv4-mapped IPv6 alias IP is accepted, as by the API server for this field",
			hostname: "h",
			aliases:  []v1.HostAlias{{IP: "::ffff:10.0.0.1", Hostnames: []string{"a"}}},
			want:     managedPrefix + "\n# Entries added by HostAliases.\n::ffff:10.0.0.1\ta\n",
		},
		{
			name:     "an alias IPv6 zone with a space is rejected",
			hostname: "h",
			aliases:  []v1.HostAlias{{IP: "fe80::1%eth0 x", Hostnames: []string{"a"}}},
			wantErr:  `spec.hostAliases[0].ip: Invalid value: "fe80::1%eth0 x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`,
		},
		{
			name:     "an alias hostname with a newline is rejected",
			hostname: "h",
			aliases:  []v1.HostAlias{{IP: "1.2.3.4", Hostnames: []string{"ok", "a\n6.6.6.6\tevil"}}},
			wantErr:  `spec.hostAliases[0].hostnames[1]: Invalid value: "a\n6.6.6.6\tevil": ` + subdomainRule,
		},
		{
			name:     "an alias hostname with a space is rejected",
			hostname: "h",
			aliases:  []v1.HostAlias{{IP: "1.2.3.4", Hostnames: []string{"a b"}}},
			wantErr:  `spec.hostAliases[0].hostnames[0]: Invalid value: "a b": ` + subdomainRule,
		},
		{
			name:     "an alias hostname with a hash is rejected",
			hostname: "h",
			aliases:  []v1.HostAlias{{IP: "1.2.3.4", Hostnames: []string{"a#b"}}},
			wantErr:  `spec.hostAliases[0].hostnames[0]: Invalid value: "a#b": ` + subdomainRule,
		},
		{
			name:     "an alias hostname with NUL is rejected",
			hostname: "h",
			aliases:  []v1.HostAlias{{IP: "1.2.3.4", Hostnames: []string{"a\x00b"}}},
			wantErr:  `spec.hostAliases[0].hostnames[0]: Invalid value: "a\x00b": ` + subdomainRule,
		},
		{
			name:     "an empty alias hostname is rejected",
			hostname: "h",
			aliases:  []v1.HostAlias{{IP: "1.2.3.4", Hostnames: []string{""}}},
			wantErr:  `spec.hostAliases[0].hostnames[0]: Invalid value: "": ` + subdomainRule,
		},
		{
			name:     "a pod IP with a newline is rejected",
			podIPs:   []string{"10.0.0.1", "10.0.0.2\n6.6.6.6"},
			hostname: "h",
			wantErr:  `podIPs[1]: Invalid value: "10.0.0.2\n6.6.6.6": must not contain whitespace, control characters or '#' (found '\n' at byte 8)`,
		},
		{
			name:     "a pod IP with a space is rejected",
			podIPs:   []string{"10.0.0.1 evil"},
			hostname: "h",
			wantErr:  `podIPs[0]: Invalid value: "10.0.0.1 evil": must not contain whitespace, control characters or '#' (found ' ' at byte 8)`,
		},
		{
			name:     "a pod IP with a hash is rejected",
			podIPs:   []string{"#10.0.0.1"},
			hostname: "h",
			wantErr:  `podIPs[0]: Invalid value: "#10.0.0.1": must not contain whitespace, control characters or '#' (found '#' at byte 0)`,
		},
		{
			name:     "a hostname with a tab is rejected",
			podIPs:   []string{"10.0.0.1"},
			hostname: "h\tevil",
			wantErr:  `hostname: Invalid value: "h\tevil": must not contain whitespace, control characters or '#' (found '\t' at byte 1)`,
		},
		{
			name:     "a domain with a newline is rejected",
			podIPs:   []string{"10.0.0.1"},
			hostname: "h",
			domain:   "cluster.local\n1.1.1.1",
			wantErr:  `hostDomainName: Invalid value: "cluster.local\n1.1.1.1": must not contain whitespace, control characters or '#' (found '\n' at byte 13)`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := hosts.ManagedHostsFileContent(tt.podIPs, tt.hostname, tt.domain, tt.aliases)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				require.ErrorIs(t, err, hosts.ErrInvalidHostsEntry)
				assert.Nil(t, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

func TestNodeHostsFileContent(t *testing.T) {
	node := "# hosts file for testing.\n127.0.0.1\tlocalhost\n123.45.67.89\tsome.domain\n"
	tests := []struct {
		name      string
		nodeHosts string
		aliases   []v1.HostAlias
		want      string
		wantErr   string
	}{
		{
			name:      "the node's file follows the host-network header unchanged",
			nodeHosts: node,
			want:      "# Kubernetes-managed hosts file (host network).\n" + node,
		},
		{
			name:      "a node file without a final newline is copied as is",
			nodeHosts: "1.2.3.4\tx",
			want:      "# Kubernetes-managed hosts file (host network).\n1.2.3.4\tx",
		},
		{
			name:      "an empty node file gives the header alone",
			nodeHosts: "",
			want:      "# Kubernetes-managed hosts file (host network).\n",
		},
		{
			name:      "hostAliases are appended after the node's file",
			nodeHosts: node,
			aliases: []v1.HostAlias{
				{IP: "123.45.67.89", Hostnames: []string{"foo", "bar", "baz"}},
				{IP: "10.1.2.3", Hostnames: []string{"park", "doo", "boo"}},
			},
			want: "# Kubernetes-managed hosts file (host network).\n" + node +
				"\n# Entries added by HostAliases.\n123.45.67.89\tfoo\tbar\tbaz\n10.1.2.3\tpark\tdoo\tboo\n",
		},
		{
			name:      "hostAliases are validated for host-network pods too",
			nodeHosts: node,
			aliases:   []v1.HostAlias{{IP: "10.1.2.3", Hostnames: []string{"x\ny"}}},
			wantErr:   `spec.hostAliases[0].hostnames[0]: Invalid value: "x\ny": ` + subdomainRule,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := hosts.NodeHostsFileContent([]byte(tt.nodeHosts), tt.aliases)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				require.ErrorIs(t, err, hosts.ErrInvalidHostsEntry)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}
