package sysctl

import "strings"

// Normalize turns a sysctl name written with '/' separators into the dotted form, as
// component-helpers' sysctl.NormalizeName does for the API server and kubelet: only when the
// first separator is '/', every '.' and '/' swap ("net/ipv4/conf/eno2.100/rp_filter" becomes
// "net.ipv4.conf.eno2/100.rp_filter"); other names are returned unchanged.
func Normalize(name string) string {
	i := strings.IndexAny(name, "./")
	if i < 0 || name[i] == '.' {
		return name
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '.':
			return '/'
		case '/':
			return '.'
		}
		return r
	}, name)
}
