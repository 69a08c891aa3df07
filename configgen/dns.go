package configgen

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	utilio "k8s.io/utils/io"
	netutils "k8s.io/utils/net"
)

// Limits on what the runtime writes to a container's resolv.conf (the API's expanded DNS limits,
// GA since Kubernetes 1.28).
const (
	maxDNSNameservers     = 3
	maxDNSSearchPaths     = 32
	maxDNSSearchListChars = 2048
	maxDNSSearchPathChars = 253
	// maxResolvConfBytes is kubelet's read limit for resolv.conf; a file of this size or more is
	// an error.
	maxResolvConfBytes = 10 << 20
)

// NodeDNS is the node's DNS setup, as kubelet's --cluster-dns, --cluster-domain and --resolv-conf
// give it.
type NodeDNS struct {
	// ClusterDNS are the cluster DNS server IPs. Each is written as kubelet parses it (leading
	// zeros in IPv4 octets tolerated, IPv6 in canonical form); an entry that is not an IP is left
	// out with a warning, as kubelet leaves it out at start-up. None means pods asking for cluster
	// DNS fall back to the host's DNS, with a warning.
	ClusterDNS []string
	// ClusterDomain is the cluster's DNS domain, e.g. "cluster.local".
	ClusterDomain string
	// HostResolvConf is the content of the node's resolv.conf (kubelet's --resolv-conf file), or nil
	// when that flag is empty, in which case host DNS means the local resolver (127.0.0.1 or ::1).
	HostResolvConf []byte
	// NodeIPs are the node's IPs; with no resolv.conf they choose 127.0.0.1 or ::1 per family.
	NodeIPs []string
}

// PodDNS returns the pod's DNS configuration for its sandbox (kubelet's dns.Configurer.GetPodDNS).
// Kubelet records events when it falls back (ReasonMissingClusterDNS) or trims
// (ReasonDNSConfigForming); those come back as warnings, with the sandbox's (empty) container. DNS options that
// kubelet merges through a map come out in a stable order: each option name where it first
// appears (resolv.conf's options lines in order, then the pod's dnsConfig options), with the value
// of its last occurrence.
func PodDNS(pod *v1.Pod, node NodeDNS) (*runtimeapi.DNSConfig, []Warning, error) {
	if pod == nil {
		return nil, nil, fmt.Errorf("%w: pod must not be nil", ErrInvalidPod)
	}
	return parseNodeDNS(node).podDNS(pod)
}

// nodeDNSFacts is NodeDNS parsed: what every pod's DNS is built from. A Generator parses its
// node's once; each pod then copies what it keeps, so two configs never share a slice.
type nodeDNSFacts struct {
	node NodeDNS
	// resolvErr is the error parsing HostResolvConf gave; every pod reports it.
	resolvErr error
	// servers, searches and options are HostResolvConf's, nil without one.
	servers, searches, options []string
	// clusterDNS are the valid ClusterDNS IPs written as kubelet writes them; clusterDNSWarnings
	// name the invalid ones.
	clusterDNS         []string
	clusterDNSWarnings []Warning
	// svcDomain is "svc.<cluster domain>", the second cluster search domain.
	svcDomain string
}

func parseNodeDNS(node NodeDNS) *nodeDNSFacts {
	f := &nodeDNSFacts{node: node, svcDomain: "svc." + node.ClusterDomain}
	if node.HostResolvConf != nil {
		servers, searches, options, err := parseResolvConf(node.HostResolvConf)
		if err != nil {
			//lint:ignore ST1005 kubelet's text, capital and all
			f.resolvErr = fmt.Errorf("Encountered error while parsing resolv conf file. Error: %w", err)
		}
		f.servers, f.searches, f.options = servers, searches, options
	}
	f.clusterDNS = make([]string, 0, len(node.ClusterDNS))
	for _, s := range node.ClusterDNS {
		ip := netutils.ParseIPSloppy(s)
		if ip == nil {
			f.clusterDNSWarnings = append(f.clusterDNSWarnings, Warning{Reason: ReasonInvalidClusterDNS, Message: fmt.Sprintf("Invalid clusterDNS IP %q: left out", s)})
			continue
		}
		f.clusterDNS = append(f.clusterDNS, ip.String())
	}
	return f
}

// podDNS is PodDNS on parsed node facts.
func (f *nodeDNSFacts) podDNS(pod *v1.Pod) (*runtimeapi.DNSConfig, []Warning, error) {
	if f.resolvErr != nil {
		return nil, nil, f.resolvErr
	}
	cfg := &runtimeapi.DNSConfig{}
	warnings := append([]Warning(nil), f.clusterDNSWarnings...)
	warn := func(reason, msg string) { warnings = append(warnings, Warning{Reason: reason, Message: msg}) }
	node := f.node
	// hostResolv gives cfg the host's resolv.conf, copied.
	hostResolv := func() {
		if node.HostResolvConf != nil {
			cfg.Servers = append([]string{}, f.servers...)
			cfg.Searches = append([]string{}, f.searches...)
			cfg.Options = append([]string{}, f.options...)
		}
	}

	policy := pod.Spec.DNSPolicy
	switch {
	case policy == v1.DNSNone:
	case policy == v1.DNSClusterFirstWithHostNet,
		policy == v1.DNSClusterFirst && !pod.Spec.HostNetwork,
		policy != v1.DNSClusterFirst && policy != v1.DNSDefault:
		if policy != v1.DNSClusterFirstWithHostNet && policy != v1.DNSClusterFirst {
			warn(ReasonInvalidDNSPolicy, "invalid DNSPolicy="+string(policy)+": falling back to ClusterFirst")
		}
		if len(f.clusterDNS) > 0 {
			f.clusterFirst(cfg, pod.Namespace)
			break
		}
		warn(ReasonMissingClusterDNS, "kubelet does not have ClusterDNS IP configured and cannot create Pod using \"ClusterFirst\" policy. Falling back to \"Default\" policy.")
		hostResolv()
		hostDNS(cfg, node)
	default: // Default, or ClusterFirst on the host network
		hostResolv()
		hostDNS(cfg, node)
	}

	if pc := pod.Spec.DNSConfig; pc != nil {
		cfg.Servers = appendUnique(cfg.Servers, pc.Nameservers)
		cfg.Searches = appendUnique(cfg.Searches, pc.Searches)
		cfg.Options = mergeDNSOptions(cfg.Options, pc.Options)
	}
	if len(cfg.Servers) > maxDNSNameservers {
		cfg.Servers = cfg.Servers[:maxDNSNameservers]
		warn(ReasonDNSConfigForming, "Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: "+strings.Join(cfg.Servers, " "))
	}
	var trimmed bool
	if cfg.Searches, trimmed = fitSearches(cfg.Searches); trimmed {
		warn(ReasonDNSConfigForming, "Search Line limits were exceeded, some search paths have been omitted, the applied search line is: "+strings.Join(cfg.Searches, " "))
	}
	return cfg, warnings, nil
}

// hostDNS applies the host's DNS; with no resolv.conf that is the node-local resolver.
func hostDNS(cfg *runtimeapi.DNSConfig, node NodeDNS) {
	if node.HostResolvConf != nil {
		return
	}
	for _, s := range node.NodeIPs {
		ip := net.ParseIP(s)
		if ip != nil && ip.To4() == nil {
			cfg.Servers = append(cfg.Servers, "::1")
		} else {
			cfg.Servers = append(cfg.Servers, "127.0.0.1")
		}
	}
	if len(cfg.Servers) == 0 {
		cfg.Servers = []string{"127.0.0.1"}
	}
	cfg.Searches = []string{"."}
}

// clusterFirst gives cfg the cluster's DNS: its servers, the cluster's search domains before the
// host's, and ndots:5.
func (f *nodeDNSFacts) clusterFirst(cfg *runtimeapi.DNSConfig, namespace string) {
	cfg.Servers = slices.Clone(f.clusterDNS)
	cfg.Options = []string{"ndots:5"}
	if domain := f.node.ClusterDomain; domain != "" {
		// The host's domains follow, repeats dropped and first places kept, as appendUnique does.
		cfg.Searches = appendUnique([]string{namespace + ".svc." + domain, f.svcDomain, domain}, f.searches)
	} else if f.node.HostResolvConf != nil {
		// Without a cluster domain the host's search line is kept as it is.
		cfg.Searches = slices.Clone(f.searches)
	}
}

// appendUnique appends extra to base, dropping every repeat (base included), keeping first places.
// The result is a new slice.
func appendUnique(base, extra []string) []string {
	if len(base)+len(extra) == 0 {
		return nil
	}
	out := make([]string, 0, len(base)+len(extra))
	seen := make(map[string]bool, len(base)+len(extra))
	for _, list := range [2][]string{base, extra} {
		for _, s := range list {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// mergeDNSOptions merges the pod's options into the base ones; a pod option replaces a base option
// of the same name.
func mergeDNSOptions(base []string, pod []v1.PodDNSConfigOption) []string {
	type option struct{ name, value string }
	opts := make([]option, 0, len(base)+len(pod))
	index := make(map[string]int, len(base)+len(pod))
	set := func(name, value string) {
		if i, ok := index[name]; ok {
			opts[i].value = value
			return
		}
		index[name] = len(opts)
		opts = append(opts, option{name, value})
	}
	for _, o := range base {
		name, value, _ := strings.Cut(o, ":")
		set(name, value)
	}
	for _, o := range pod {
		value := ""
		if o.Value != nil {
			value = *o.Value
		}
		set(o.Name, value)
	}
	out := make([]string, 0, len(opts))
	for _, o := range opts {
		if o.value != "" {
			out = append(out, o.name+":"+o.value)
		} else {
			out = append(out, o.name)
		}
	}
	return out
}

// fitSearches applies the search-line limits: at most 32 paths, none over 253 characters, and a
// line of at most 2048 characters (dropping paths from the end).
func fitSearches(searches []string) ([]string, bool) {
	trimmed := false
	if len(searches) > maxDNSSearchPaths {
		searches, trimmed = searches[:maxDNSSearchPaths], true
	}
	kept := searches
	if slices.ContainsFunc(searches, func(s string) bool { return len(s) > maxDNSSearchPathChars }) {
		kept = searches[:0:0]
		for _, s := range searches {
			if len(s) > maxDNSSearchPathChars {
				trimmed = true
				continue
			}
			kept = append(kept, s)
		}
	}
	lineLen := 0
	for i, s := range kept {
		if i > 0 {
			lineLen++
		}
		lineLen += len(s)
	}
	for lineLen > maxDNSSearchListChars && len(kept) > 0 {
		lineLen -= len(kept[len(kept)-1]) + 1
		kept = kept[:len(kept)-1]
		trimmed = true
	}
	return kept, trimmed
}

// parseResolvConf reads nameserver, search and options lines as kubelet does: nameservers
// accumulate; the last search line wins, its domains lose a trailing dot and a lone "." is dropped;
// options accumulate over every options line, a later option replacing an earlier one of the same
// name (the part before ':') where that one stood. Content of 10 MiB or more is an error.
func parseResolvConf(content []byte) (servers, searches, options []string, err error) {
	if _, err := utilio.ReadAtMost(bytes.NewReader(content), maxResolvConfBytes); err != nil {
		return nil, nil, nil, err
	}
	servers, searches, options = []string{}, []string{}, []string{}
	emptyNameserver := false
	for _, line := range strings.Split(string(content), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		switch fields[0] {
		case "nameserver":
			if len(fields) < 2 {
				emptyNameserver = true
				continue
			}
			servers = append(servers, fields[1])
		case "search":
			searches = make([]string, 0, len(fields)-1)
			for _, s := range fields[1:] {
				if s != "." {
					searches = append(searches, strings.TrimSuffix(s, "."))
				}
			}
		case "options":
			options = appendResolvOptions(options, fields[1:])
		}
	}
	if emptyNameserver {
		// Kubelet aggregates one error per empty line, and its aggregate prints a repeated message
		// once.
		return servers, searches, options, errors.New("nameserver list is empty ")
	}
	return servers, searches, options, nil
}

// appendResolvOptions adds options to base; one whose name is already there replaces it in place.
func appendResolvOptions(base, options []string) []string {
	for _, o := range options {
		name, _, _ := strings.Cut(o, ":")
		replaced := false
		for i, b := range base {
			if bName, _, _ := strings.Cut(b, ":"); bName == name {
				base[i], replaced = o, true
				break
			}
		}
		if !replaced {
			base = append(base, o)
		}
	}
	return base
}
