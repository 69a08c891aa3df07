package vknode_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
)

func TestProviderRefusesPodsWithSysctlsKubeletDoesNotAllow(t *testing.T) {
	tests := []struct {
		name        string
		sysctl      string
		hostNetwork bool
		want        string // the message of a refused pod; empty for a pod that runs
	}{
		{name: "a sysctl off kubelet's safe list is refused", sysctl: "kernel.msgmax",
			want: `Pod was rejected: forbidden sysctl: "kernel.msgmax" not allowlisted`},
		{name: "a safe net sysctl is refused with hostNetwork", sysctl: "net.ipv4.ip_local_port_range", hostNetwork: true,
			want: `Pod was rejected: forbidden sysctl: "net.ipv4.ip_local_port_range" not allowed with host net enabled`},
		{name: "a safe sysctl spelt with slashes runs", sysctl: "kernel/shm_rmid_forced"},
		{name: "a safe net sysctl runs in the pod's own network", sysctl: "net.ipv4.ping_group_range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := testPod(v1.RestartPolicyNever)
			pod.Spec.HostNetwork = tt.hostNetwork
			pod.Spec.SecurityContext.Sysctls = []v1.Sysctl{{Name: tt.sysctl, Value: "1"}}
			h := newHarness(t, pod)
			ctx := context.Background()
			require.NoError(t, h.p.CreatePod(ctx, pod))
			t.Cleanup(func() {
				sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
				defer cancel()
				assert.NoError(t, h.p.Shutdown(sctx, 0))
			})
			if tt.want == "" {
				h.waitPhase(t, v1.PodRunning)
				return
			}
			got := h.waitPhase(t, v1.PodFailed)
			assert.Equal(t, "SysctlForbidden", got.Status.Reason)
			assert.Equal(t, tt.want, got.Status.Message)
			sandboxes, containers := h.rt.Counts()
			assert.Equal(t, [2]int{0, 0}, [2]int{sandboxes, containers}, "nothing of a refused pod is made")
		})
	}
}
