package configgen

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/ptr"
)

func TestPodDNS(t *testing.T) {
	resolv := []byte("# comment\nnameserver 10.0.0.2\nnameserver 10.0.0.3\nsearch corp.example. lab.example\noptions ndots:2 edns0\n")
	cluster := NodeDNS{ClusterDNS: []string{"10.96.0.10"}, ClusterDomain: "cluster.local", HostResolvConf: resolv}
	pod := func(policy v1.DNSPolicy, hostNet bool, cfg *v1.PodDNSConfig) *v1.Pod {
		return &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"},
			Spec:       v1.PodSpec{DNSPolicy: policy, HostNetwork: hostNet, DNSConfig: cfg},
		}
	}
	tests := []struct {
		name        string
		pod         *v1.Pod
		node        NodeDNS
		want        *runtimeapi.DNSConfig
		wantReasons []string
	}{
		{
			name: "ClusterFirst: cluster servers, cluster searches before host searches, ndots:5",
			pod:  pod(v1.DNSClusterFirst, false, nil), node: cluster,
			want: &runtimeapi.DNSConfig{
				Servers:  []string{"10.96.0.10"},
				Searches: []string{"ns.svc.cluster.local", "svc.cluster.local", "cluster.local", "corp.example", "lab.example"},
				Options:  []string{"ndots:5"},
			},
		},
		{
			name: "ClusterFirst on the host network falls back to the host's DNS",
			pod:  pod(v1.DNSClusterFirst, true, nil), node: cluster,
			want: &runtimeapi.DNSConfig{
				Servers: []string{"10.0.0.2", "10.0.0.3"}, Searches: []string{"corp.example", "lab.example"},
				Options: []string{"ndots:2", "edns0"},
			},
		},
		{
			name: "ClusterFirstWithHostNet keeps cluster DNS on the host network",
			pod:  pod(v1.DNSClusterFirstWithHostNet, true, nil), node: cluster,
			want: &runtimeapi.DNSConfig{
				Servers:  []string{"10.96.0.10"},
				Searches: []string{"ns.svc.cluster.local", "svc.cluster.local", "cluster.local", "corp.example", "lab.example"},
				Options:  []string{"ndots:5"},
			},
		},
		{
			name: "Default uses the host's resolv.conf",
			pod:  pod(v1.DNSDefault, false, nil), node: cluster,
			want: &runtimeapi.DNSConfig{
				Servers: []string{"10.0.0.2", "10.0.0.3"}, Searches: []string{"corp.example", "lab.example"},
				Options: []string{"ndots:2", "edns0"},
			},
		},
		{
			name: "None starts empty and takes only the pod's dnsConfig",
			pod: pod(v1.DNSNone, false, &v1.PodDNSConfig{
				Nameservers: []string{"1.1.1.1"}, Searches: []string{"a.example"},
				Options: []v1.PodDNSConfigOption{{Name: "ndots", Value: ptr.To("1")}, {Name: "rotate"}},
			}), node: cluster,
			want: &runtimeapi.DNSConfig{Servers: []string{"1.1.1.1"}, Searches: []string{"a.example"}, Options: []string{"ndots:1", "rotate"}},
		},
		{
			name: "no cluster DNS: ClusterFirst falls back to host DNS with a warning",
			pod:  pod(v1.DNSClusterFirst, false, nil), node: NodeDNS{ClusterDomain: "cluster.local", HostResolvConf: resolv},
			want: &runtimeapi.DNSConfig{
				Servers: []string{"10.0.0.2", "10.0.0.3"}, Searches: []string{"corp.example", "lab.example"},
				Options: []string{"ndots:2", "edns0"},
			},
			wantReasons: []string{ReasonMissingClusterDNS},
		},
		{
			name: "empty --resolv-conf: host DNS is the local resolver per node IP family, search \".\"",
			pod:  pod(v1.DNSDefault, false, nil), node: NodeDNS{NodeIPs: []string{"192.0.2.1", "2001:db8::1"}},
			want: &runtimeapi.DNSConfig{Servers: []string{"127.0.0.1", "::1"}, Searches: []string{"."}},
		},
		{
			name: "empty --resolv-conf and no node IPs: 127.0.0.1",
			pod:  pod(v1.DNSDefault, false, nil), node: NodeDNS{},
			want: &runtimeapi.DNSConfig{Servers: []string{"127.0.0.1"}, Searches: []string{"."}},
		},
		{
			name: "no cluster domain: searches are the host's only",
			pod:  pod(v1.DNSClusterFirst, false, nil), node: NodeDNS{ClusterDNS: []string{"10.96.0.10"}, HostResolvConf: resolv},
			want: &runtimeapi.DNSConfig{Servers: []string{"10.96.0.10"}, Searches: []string{"corp.example", "lab.example"}, Options: []string{"ndots:5"}},
		},
		{
			name: "no cluster domain: the host's search line is kept as it is, repeats included",
			pod:  pod(v1.DNSClusterFirst, false, nil),
			node: NodeDNS{ClusterDNS: []string{"10.96.0.10"}, HostResolvConf: []byte("search a.example a.example b.example\n")},
			want: &runtimeapi.DNSConfig{Servers: []string{"10.96.0.10"}, Searches: []string{"a.example", "a.example", "b.example"}, Options: []string{"ndots:5"}},
		},
		{
			name: "a cluster domain drops the host's repeated and cluster search domains",
			pod:  pod(v1.DNSClusterFirst, false, nil),
			node: NodeDNS{ClusterDNS: []string{"10.96.0.10"}, ClusterDomain: "cluster.local",
				HostResolvConf: []byte("search a.example cluster.local a.example\n")},
			want: &runtimeapi.DNSConfig{
				Servers:  []string{"10.96.0.10"},
				Searches: []string{"ns.svc.cluster.local", "svc.cluster.local", "cluster.local", "a.example"},
				Options:  []string{"ndots:5"},
			},
		},
		{
			name: "a host resolv.conf without a search line leaves an empty search list",
			pod:  pod(v1.DNSClusterFirst, false, nil),
			node: NodeDNS{ClusterDNS: []string{"10.96.0.10"}, HostResolvConf: []byte("nameserver 10.0.0.2\n")},
			want: &runtimeapi.DNSConfig{Servers: []string{"10.96.0.10"}, Searches: []string{}, Options: []string{"ndots:5"}},
		},
		{
			name: "no cluster domain and no resolv.conf: no search list",
			pod:  pod(v1.DNSClusterFirst, false, nil), node: NodeDNS{ClusterDNS: []string{"10.96.0.10"}},
			want: &runtimeapi.DNSConfig{Servers: []string{"10.96.0.10"}, Options: []string{"ndots:5"}},
		},
		{
			name: "pod dnsConfig is appended without duplicates and its options replace same-named ones",
			pod: pod(v1.DNSClusterFirst, false, &v1.PodDNSConfig{
				Nameservers: []string{"10.96.0.10", "8.8.8.8"}, Searches: []string{"svc.cluster.local", "extra.example"},
				Options: []v1.PodDNSConfigOption{{Name: "ndots", Value: ptr.To("3")}, {Name: "single-request"}},
			}), node: cluster,
			want: &runtimeapi.DNSConfig{
				Servers:  []string{"10.96.0.10", "8.8.8.8"},
				Searches: []string{"ns.svc.cluster.local", "svc.cluster.local", "cluster.local", "corp.example", "lab.example", "extra.example"},
				Options:  []string{"ndots:3", "single-request"},
			},
		},
		{
			name:        "more than three nameservers are trimmed with a warning",
			pod:         pod(v1.DNSNone, false, &v1.PodDNSConfig{Nameservers: []string{"1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4"}}),
			node:        cluster,
			want:        &runtimeapi.DNSConfig{Servers: []string{"1.1.1.1", "2.2.2.2", "3.3.3.3"}, Options: []string{}},
			wantReasons: []string{ReasonDNSConfigForming},
		},
		{
			name:        "a search path over 253 characters is dropped with a warning",
			pod:         pod(v1.DNSNone, false, &v1.PodDNSConfig{Searches: []string{"ok.example", strings.Repeat("a", 254)}}),
			node:        cluster,
			want:        &runtimeapi.DNSConfig{Searches: []string{"ok.example"}, Options: []string{}},
			wantReasons: []string{ReasonDNSConfigForming},
		},
		{
			name: "an invalid policy is treated as ClusterFirst with a warning",
			pod:  pod("Bogus", false, nil), node: cluster,
			want: &runtimeapi.DNSConfig{
				Servers:  []string{"10.96.0.10"},
				Searches: []string{"ns.svc.cluster.local", "svc.cluster.local", "cluster.local", "corp.example", "lab.example"},
				Options:  []string{"ndots:5"},
			},
			wantReasons: []string{ReasonInvalidDNSPolicy},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings, err := PodDNS(tt.pod, tt.node)
			require.NoError(t, err)
			assert.Equal(t, tt.want.Servers, got.Servers)
			assert.Equal(t, tt.want.Searches, got.Searches)
			assert.Equal(t, tt.want.Options, got.Options)
			assert.Equal(t, tt.wantReasons, warningReasons(warnings), "warnings: %v", warnings)
		})
	}
}

func TestPodDNSSearchLimits(t *testing.T) {
	t.Run("more than 32 search paths keep the first 32", func(t *testing.T) {
		var s []string
		for i := 0; i < 40; i++ {
			s = append(s, strings.Repeat("x", 3)+string(rune('a'+i%26))+string(rune('a'+i/26)))
		}
		got, w, err := PodDNS(&v1.Pod{Spec: v1.PodSpec{DNSPolicy: v1.DNSNone, DNSConfig: &v1.PodDNSConfig{Searches: s}}}, NodeDNS{})
		require.NoError(t, err)
		assert.Equal(t, s[:32], got.Searches)
		assert.Len(t, w, 1)
	})
	t.Run("a search line over 2048 characters loses paths from the end", func(t *testing.T) {
		var s []string
		for i := 0; i < 10; i++ {
			s = append(s, strings.Repeat(string(rune('a'+i)), 250))
		}
		got, w, err := PodDNS(&v1.Pod{Spec: v1.PodSpec{DNSPolicy: v1.DNSNone, DNSConfig: &v1.PodDNSConfig{Searches: s}}}, NodeDNS{})
		require.NoError(t, err)
		assert.Equal(t, s[:8], got.Searches) // 8*250+7 = 2007 <= 2048
		assert.Len(t, w, 1)
	})
	t.Run("a nameserver line without an address is an error", func(t *testing.T) {
		_, _, err := PodDNS(&v1.Pod{Spec: v1.PodSpec{DNSPolicy: v1.DNSDefault}}, NodeDNS{HostResolvConf: []byte("nameserver\n")})
		require.EqualError(t, err, "Encountered error while parsing resolv conf file. Error: nameserver list is empty ")
	})
}

// TestPodDNSHostResolvConf covers kubelet's parseResolvConf and getHostDNSConfig: how the node's
// resolv.conf becomes the base of a pod's DNS.
func TestPodDNSHostResolvConf(t *testing.T) {
	defaultPolicy := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}, Spec: v1.PodSpec{DNSPolicy: v1.DNSDefault}}
	clusterFirst := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}, Spec: v1.PodSpec{DNSPolicy: v1.DNSClusterFirst}}
	tests := []struct {
		name         string
		pod          *v1.Pod
		resolv       string
		clusterDNS   []string
		wantServers  []string
		wantSearches []string
		wantOptions  []string
		wantReasons  []string
	}{
		{
			name:        "search . (systemd-resolved's stub) is dropped, leaving no search path",
			pod:         defaultPolicy,
			resolv:      "nameserver 127.0.0.53\noptions edns0 trust-ad\nsearch .\n",
			wantServers: []string{"127.0.0.53"}, wantSearches: []string{}, wantOptions: []string{"edns0", "trust-ad"},
		},
		{
			name:        "search . among other domains is dropped and trailing dots are trimmed",
			pod:         defaultPolicy,
			resolv:      "search corp.example. . lab.example\n",
			wantServers: []string{}, wantSearches: []string{"corp.example", "lab.example"}, wantOptions: []string{},
		},
		{
			name:         "search . does not add an empty search path after the cluster's",
			pod:          clusterFirst,
			resolv:       "nameserver 127.0.0.53\nsearch .\n",
			clusterDNS:   []string{"10.96.0.10"},
			wantServers:  []string{"10.96.0.10"},
			wantSearches: []string{"ns.svc.cluster.local", "svc.cluster.local", "cluster.local"},
			wantOptions:  []string{"ndots:5"},
		},
		{
			name:        "options lines accumulate, and a later option of the same name replaces the earlier in place",
			pod:         defaultPolicy,
			resolv:      "options ndots:2 timeout:1\noptions attempts:3 ndots:4\n",
			wantServers: []string{}, wantSearches: []string{}, wantOptions: []string{"ndots:4", "timeout:1", "attempts:3"},
		},
		{
			name:        "an option repeated on one line is kept once, with its last value",
			pod:         defaultPolicy,
			resolv:      "options rotate ndots:1 ndots:2\n",
			wantServers: []string{}, wantSearches: []string{}, wantOptions: []string{"rotate", "ndots:2"},
		},
		{
			name:         "cluster DNS addresses are written as kubelet parses them, leading zeros and all",
			pod:          clusterFirst,
			resolv:       "",
			clusterDNS:   []string{"010.096.000.010", "fd00:0:0::a"},
			wantServers:  []string{"10.96.0.10", "fd00::a"},
			wantSearches: []string{"ns.svc.cluster.local", "svc.cluster.local", "cluster.local"},
			wantOptions:  []string{"ndots:5"},
		},
		{
			name:         "a cluster DNS entry that is not an IP is dropped with a warning",
			pod:          clusterFirst,
			resolv:       "",
			clusterDNS:   []string{"dns.example", "10.96.0.10"},
			wantServers:  []string{"10.96.0.10"},
			wantSearches: []string{"ns.svc.cluster.local", "svc.cluster.local", "cluster.local"},
			wantOptions:  []string{"ndots:5"},
			wantReasons:  []string{ReasonInvalidClusterDNS},
		},
		{
			name:        "no valid cluster DNS entry: ClusterFirst falls back to the host's DNS",
			pod:         clusterFirst,
			resolv:      "nameserver 10.0.0.2\n",
			clusterDNS:  []string{"dns.example"},
			wantServers: []string{"10.0.0.2"}, wantSearches: []string{}, wantOptions: []string{},
			wantReasons: []string{ReasonInvalidClusterDNS, ReasonMissingClusterDNS},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			node := NodeDNS{ClusterDNS: tt.clusterDNS, ClusterDomain: "cluster.local", HostResolvConf: []byte(tt.resolv)}
			got, warnings, err := PodDNS(tt.pod, node)
			require.NoError(t, err)
			assert.Equal(t, tt.wantServers, got.Servers)
			assert.Equal(t, tt.wantSearches, got.Searches)
			assert.Equal(t, tt.wantOptions, got.Options)
			assert.Equal(t, tt.wantReasons, warningReasons(warnings), "warnings: %v", warnings)
		})
	}
}

func TestPodDNSHostResolvConfErrors(t *testing.T) {
	pod := &v1.Pod{Spec: v1.PodSpec{DNSPolicy: v1.DNSDefault}}
	tests := []struct {
		name    string
		resolv  []byte
		wantErr string
	}{
		{
			name:    "several empty nameserver lines give one message, as kubelet's error aggregate de-duplicates",
			resolv:  []byte("nameserver\nsearch a.example\nnameserver\n"),
			wantErr: "Encountered error while parsing resolv conf file. Error: nameserver list is empty ",
		},
		{
			name:    "a resolv.conf of 10 MiB reaches kubelet's read limit",
			resolv:  bytes.Repeat([]byte("#"), 10<<20),
			wantErr: "Encountered error while parsing resolv conf file. Error: the read limit is reached",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := PodDNS(pod, NodeDNS{HostResolvConf: tt.resolv})
			require.EqualError(t, err, tt.wantErr)
			assert.Nil(t, got)
		})
	}
	t.Run("a resolv.conf just under 10 MiB is read", func(t *testing.T) {
		resolv := append(bytes.Repeat([]byte("#"), 10<<20-len("\nnameserver 10.0.0.2")-1), "\nnameserver 10.0.0.2"...)
		got, _, err := PodDNS(pod, NodeDNS{HostResolvConf: resolv})
		require.NoError(t, err)
		assert.Equal(t, []string{"10.0.0.2"}, got.Servers)
	})
}
