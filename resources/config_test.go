package resources_test

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/features"
	"github.com/podconfig/podconfig/resources"
)

func TestNewRejectsInvalidConfig(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(*resources.Config)
		wantErr string
	}{
		{
			name:    "zero node memory capacity is rejected",
			mutate:  func(cfg *resources.Config) { cfg.Node.MemoryCapacity = 0 },
			wantErr: "invalid resources config: node memory capacity 0 must be positive",
		},
		{
			name:    "negative swap capacity is rejected",
			mutate:  func(cfg *resources.Config) { cfg.Node.SwapCapacity = -1 },
			wantErr: "invalid resources config: node allocatable memory, swap capacity and page size must not be negative",
		},
		{
			name:    "a CFS period below 1ms is rejected",
			mutate:  func(cfg *resources.Config) { cfg.Kubelet.CPUCFSQuotaPeriod = 999 * time.Microsecond },
			wantErr: "invalid resources config: cpuCFSQuotaPeriod 999µs must be between 1ms and 1s, inclusive",
		},
		{
			name:    "a CFS period above 1s is rejected",
			mutate:  func(cfg *resources.Config) { cfg.Kubelet.CPUCFSQuotaPeriod = 2 * time.Second },
			wantErr: "invalid resources config: cpuCFSQuotaPeriod 2s must be between 1ms and 1s, inclusive",
		},
		{
			name:    "a zero memoryThrottlingFactor is rejected",
			mutate:  func(cfg *resources.Config) { cfg.Kubelet.MemoryThrottlingFactor = ptr.To(0.0) },
			wantErr: "invalid resources config: memoryThrottlingFactor 0 must be greater than 0 and at most 1.0",
		},
		{
			name:    "a memoryThrottlingFactor above 1 is rejected",
			mutate:  func(cfg *resources.Config) { cfg.Kubelet.MemoryThrottlingFactor = ptr.To(1.5) },
			wantErr: "invalid resources config: memoryThrottlingFactor 1.5 must be greater than 0 and at most 1.0",
		},
		{
			name:    "a NaN memoryThrottlingFactor is rejected",
			mutate:  func(cfg *resources.Config) { cfg.Kubelet.MemoryThrottlingFactor = ptr.To(math.NaN()) },
			wantErr: "invalid resources config: memoryThrottlingFactor NaN must be greater than 0 and at most 1.0",
		},
		{
			name:    "an unknown memoryReservationPolicy is rejected",
			mutate:  func(cfg *resources.Config) { cfg.Kubelet.MemoryReservationPolicy = "Hard" },
			wantErr: `invalid resources config: unknown memoryReservationPolicy "Hard" (want "None" or "TieredReservation")`,
		},
		{
			name:    "an unknown swapBehavior is rejected",
			mutate:  func(cfg *resources.Config) { cfg.Kubelet.SwapBehavior = "UnlimitedSwap" },
			wantErr: `invalid resources config: unknown swapBehavior "UnlimitedSwap" (want "NoSwap" or "LimitedSwap")`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := resources.DefaultConfig(v2Node())
			tt.mutate(&cfg)
			_, err := resources.New(cfg)
			require.ErrorIs(t, err, resources.ErrInvalidConfig)
			assert.EqualError(t, err, tt.wantErr)
		})
	}
}

func TestDefaultConfigIsKubeletDefault(t *testing.T) {
	cfg := resources.DefaultConfig(v2Node())
	assert.Equal(t, resources.KubeletSettings{
		CPUCFSQuota:             true,
		CPUCFSQuotaPeriod:       100 * time.Millisecond,
		MemoryReservationPolicy: resources.NoMemoryReservation,
		SwapBehavior:            resources.NoSwap,
	}, cfg.Kubelet)
	assert.Equal(t, features.Default(), cfg.Gates, "kubelet v1.37's default gates")
	assert.Nil(t, cfg.CPUs)
}

func TestNewFillsEmptySettingsAndCopiesInputs(t *testing.T) {
	cfg := resources.DefaultConfig(v2Node())
	cfg.Kubelet.MemoryReservationPolicy = ""
	cfg.Kubelet.SwapBehavior = ""
	cfg.Kubelet.CPUCFSQuotaPeriod = 0
	cfg.Kubelet.MemoryThrottlingFactor = ptr.To(0.5)
	c, err := resources.New(cfg)
	require.NoError(t, err)

	// Changing what the caller still holds must not change the Calculator.
	cfg.Node.HugePageSizes[0] = "64KB"
	*cfg.Kubelet.MemoryThrottlingFactor = 0.9

	got := c.Config()
	assert.Equal(t, resources.NoMemoryReservation, got.Kubelet.MemoryReservationPolicy)
	assert.Equal(t, resources.NoSwap, got.Kubelet.SwapBehavior)
	assert.Equal(t, 100*time.Millisecond, got.Kubelet.CPUCFSQuotaPeriod)
	assert.Equal(t, []string{"2MB", "1GB"}, got.Node.HugePageSizes)
	assert.Equal(t, 0.5, *got.Kubelet.MemoryThrottlingFactor)
}

func TestExclusiveCPUsFuncs(t *testing.T) {
	pod := samplePod()
	pod.Name = "pinned"
	var none resources.ExclusiveCPUsFuncs
	assert.False(t, none.ContainerHasExclusiveCPUs(pod, &pod.Spec.Containers[0]), "nil funcs answer false")
	assert.False(t, none.PodHasExclusiveCPUs(pod), "nil funcs answer false")

	c := newCalc(t, func(cfg *resources.Config) {
		cfg.CPUs = resources.ExclusiveCPUsFuncs{
			Container: func(_ *v1.Pod, c *v1.Container) bool { return c.Name == "app" },
			Pod:       func(p *v1.Pod) bool { return p.Name == "pinned" },
		}
	})
	res, _, err := c.ContainerResources(pod, &pod.Spec.Containers[0])
	require.NoError(t, err)
	assert.Equal(t, int64(-1), res.CpuQuota, "the container's quota is lifted")
	sandbox, _, err := c.SandboxResources(pod)
	require.NoError(t, err)
	assert.Equal(t, int64(-1), sandbox.CpuQuota, "the sandbox's quota is lifted")
}
