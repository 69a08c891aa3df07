package resources_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/resources"
)

func TestContainerResourcesSwap(t *testing.T) {
	burstable := func() *v1.Pod { return podOf(ctr("app", rl("memory", "1Gi"), rl("memory", "2Gi"))) }
	critical := burstable()
	critical.Spec.Priority = ptr.To(int32(2000000000))
	static := burstable()
	static.Annotations = map[string]string{"kubernetes.io/config.source": "file"}

	limited := func(cfg *resources.Config) { cfg.Kubelet.SwapBehavior = resources.LimitedSwap }
	v1Limited := func(cfg *resources.Config) {
		cfg.Kubelet.SwapBehavior = resources.LimitedSwap
		cfg.Node.CgroupV2 = false
	}
	tests := []struct {
		name          string
		pod           *v1.Pod
		noController  bool
		mutate        func(*resources.Config)
		wantSwapMax   string // "" means no memory.swap.max key
		wantSwapLimit int64
		wantBehavior  resources.SwapBehavior
		wantWarnings  []resources.Warning
	}{
		{
			name:         "no swap controller: no swap setting at all",
			pod:          burstable(),
			noController: true,
			mutate:       limited,
			wantBehavior: resources.NoSwap,
		},
		{
			name:         "NoSwap on cgroup v2 writes memory.swap.max=0",
			pod:          burstable(),
			wantSwapMax:  "0",
			wantBehavior: resources.NoSwap,
		},
		{
			name:          "NoSwap on cgroup v1 sets the memory+swap limit to the memory limit",
			pod:           burstable(),
			mutate:        func(cfg *resources.Config) { cfg.Node.CgroupV2 = false },
			wantSwapLimit: 2 * gi,
			wantBehavior:  resources.NoSwap,
		},
		{
			name:         "NoSwap on cgroup v1 without a memory limit leaves the swap limit 0",
			pod:          podOf(ctr("app", rl("memory", "1Gi"), nil)),
			mutate:       func(cfg *resources.Config) { cfg.Node.CgroupV2 = false },
			wantBehavior: resources.NoSwap,
		},
		{
			name:         "LimitedSwap gives a Burstable container its request's share of swap",
			pod:          burstable(),
			mutate:       limited,
			wantSwapMax:  "268435456",
			wantBehavior: resources.LimitedSwap,
		},
		{
			name:          "LimitedSwap needs cgroup v2",
			pod:           burstable(),
			mutate:        v1Limited,
			wantSwapLimit: 2 * gi,
			wantBehavior:  resources.NoSwap,
		},
		{
			name:         "LimitedSwap is off for critical pods",
			pod:          critical,
			mutate:       limited,
			wantSwapMax:  "0",
			wantBehavior: resources.NoSwap,
		},
		{
			name:         "LimitedSwap is off for static pods",
			pod:          static,
			mutate:       limited,
			wantSwapMax:  "0",
			wantBehavior: resources.NoSwap,
		},
		{
			name:         "LimitedSwap is off for Guaranteed pods",
			pod:          podOf(ctr("app", rl("cpu", "1", "memory", "1Gi"), rl("cpu", "1", "memory", "1Gi"))),
			mutate:       limited,
			wantSwapMax:  "0",
			wantBehavior: resources.NoSwap,
		},
		{
			name:         "LimitedSwap is off for BestEffort pods",
			pod:          podOf(ctr("app", nil, nil)),
			mutate:       limited,
			wantSwapMax:  "0",
			wantBehavior: resources.NoSwap,
		},
		{
			name:         "LimitedSwap is off for a container that neither requests nor limits memory",
			pod:          podOf(ctr("app", rl("cpu", "1"), nil)),
			mutate:       limited,
			wantSwapMax:  "0",
			wantBehavior: resources.NoSwap,
		},
		{
			name:         "LimitedSwap is off when the memory request equals the limit",
			pod:          podOf(ctr("app", rl("cpu", "1", "memory", "1Gi"), rl("memory", "1Gi"))),
			mutate:       limited,
			wantSwapMax:  "0",
			wantBehavior: resources.NoSwap,
		},
		{
			name:         "LimitedSwap with a limit but no request gives no swap",
			pod:          podOf(ctr("app", nil, rl("memory", "1Gi"))),
			mutate:       limited,
			wantSwapMax:  "0",
			wantBehavior: resources.LimitedSwap,
		},
		{
			name:         "LimitedSwap with a request above node memory falls back to NoSwap with a warning",
			pod:          podOf(ctr("app", rl("memory", "64Gi"), rl("memory", "128Gi"))),
			mutate:       limited,
			wantSwapMax:  "0",
			wantBehavior: resources.LimitedSwap,
			wantWarnings: []resources.Warning{{Kind: resources.WarningSwapDisallowed,
				Message: `container "app": cannot calculate swap allocation amount; disallowing swap: container request 68719476736 is larger than total node memory 34359738368`}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCalc(t, func(cfg *resources.Config) {
				cfg.Node.SwapControllerAvailable = !tt.noController
				cfg.Node.SwapCapacity = 8 * gi
				cfg.Node.HugePageSizes = nil
				if tt.mutate != nil {
					tt.mutate(cfg)
				}
			})
			ctr := &tt.pod.Spec.Containers[0]
			got, warnings, err := c.ContainerResources(tt.pod, ctr)
			require.NoError(t, err)
			assert.Equal(t, tt.wantWarnings, warnings)
			assert.Equal(t, tt.wantSwapLimit, got.MemorySwapLimitInBytes)
			swapMax, ok := got.Unified["memory.swap.max"]
			assert.Equal(t, tt.wantSwapMax != "", ok, "memory.swap.max present")
			assert.Equal(t, tt.wantSwapMax, swapMax)
			assert.Equal(t, tt.wantBehavior, c.GetContainerSwapBehavior(tt.pod, ctr))
		})
	}
}
