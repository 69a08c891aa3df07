package sysctl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/podconfig/podconfig/internal/sysctl"
)

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"a dotted name is kept", "net.ipv4.ip_forward", "net.ipv4.ip_forward"},
		{"a slashed name swaps its separators", "net/ipv4/conf/eno2.100/rp_filter", "net.ipv4.conf.eno2/100.rp_filter"},
		{"a name whose first separator is a dot is kept, slashes and all", "net.ipv4/conf", "net.ipv4/conf"},
		{"a name without separators is kept", "kernel", "kernel"},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, sysctl.Normalize(tc.in)) })
	}
}
