package configgen

import (
	"testing"

	"github.com/stretchr/testify/assert"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

func TestPodSandboxIPs(t *testing.T) {
	network := func(primary string, extra ...string) *runtimeapi.PodSandboxStatus {
		n := &runtimeapi.PodSandboxNetworkStatus{Ip: primary}
		for _, ip := range extra {
			n.AdditionalIps = append(n.AdditionalIps, &runtimeapi.PodIP{Ip: ip})
		}
		return &runtimeapi.PodSandboxStatus{Network: n}
	}
	tests := []struct {
		name         string
		status       *runtimeapi.PodSandboxStatus
		want         []string
		wantWarnings int
	}{
		{"no network status gives no IPs", &runtimeapi.PodSandboxStatus{}, []string{}, 0},
		{"primary then additional IPs, in the runtime's order", network("10.0.0.1", "fd00::1"), []string{"10.0.0.1", "fd00::1"}, 0},
		{"an empty primary IP (host network) is skipped", network("", "10.0.0.2"), []string{"10.0.0.2"}, 0},
		{"IPs are kept as written, leading zeros included", network("010.000.000.001"), []string{"010.000.000.001"}, 0},
		{"an unparseable primary IP empties the list", network("bogus", "10.0.0.1"), nil, 1},
		{"an unparseable additional IP empties the list", network("10.0.0.1", "nope"), nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings := PodSandboxIPs(tt.status)
			assert.Equal(t, tt.want, got)
			assert.Len(t, warnings, tt.wantWarnings)
		})
	}
}
