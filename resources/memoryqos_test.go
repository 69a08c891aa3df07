package resources_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/resources"
)

func TestContainerResourcesMemoryQoS(t *testing.T) {
	burstable := podOf(ctr("app", rl("memory", "256Mi"), rl("memory", "512Mi")))
	guaranteed := podOf(ctr("app", rl("cpu", "1", "memory", "512Mi"), rl("cpu", "1", "memory", "512Mi")))
	requestOnly := podOf(ctr("app", rl("memory", "256Mi"), nil))
	bestEffort := podOf(ctr("app", nil, nil))
	podLevelLimit := podOf(ctr("app", rl("memory", "256Mi"), nil))
	podLevelLimit.Spec.Resources = &v1.ResourceRequirements{Limits: rl("memory", "1Gi")}
	nearlyEqual := podOf(ctr("app", rl("memory", "268435456"), rl("memory", "268439552")))
	cpuOnly := podOf(ctr("app", rl("cpu", "1"), nil))

	tiered := func(cfg *resources.Config) { cfg.Kubelet.MemoryReservationPolicy = resources.TieredReservation }
	factor := func(f float64) func(*resources.Config) {
		return func(cfg *resources.Config) { cfg.Kubelet.MemoryThrottlingFactor = ptr.To(f) }
	}
	tests := []struct {
		name   string
		pod    *v1.Pod
		mutate []func(*resources.Config)
		want   map[string]string
	}{
		{
			name: "None reservation policy writes memory.min=0 and memory.low=0",
			pod:  burstable,
			want: v2Unified(),
		},
		{
			name:   "TieredReservation protects a Burstable request with memory.low",
			pod:    burstable,
			mutate: []func(*resources.Config){tiered},
			want:   map[string]string{"memory.oom.group": "1", "memory.low": "268435456"},
		},
		{
			name:   "TieredReservation protects a Guaranteed request with memory.min",
			pod:    guaranteed,
			mutate: []func(*resources.Config){tiered},
			want:   map[string]string{"memory.oom.group": "1", "memory.min": "536870912"},
		},
		{
			name:   "TieredReservation without a memory request writes both files as 0",
			pod:    cpuOnly,
			mutate: []func(*resources.Config){tiered},
			want:   v2Unified(),
		},
		{
			name: "no memoryThrottlingFactor (the 1.37 default) means no memory.high",
			pod:  requestOnly,
			mutate: []func(*resources.Config){func(cfg *resources.Config) {
				cfg.Node.AllocatableMemory = 8 * gi
			}},
			want: v2Unified(),
		},
		{
			name:   "memoryThrottlingFactor puts memory.high between request and limit, page-aligned",
			pod:    burstable,
			mutate: []func(*resources.Config){factor(0.9)},
			want:   v2Unified("memory.high", "510025728"),
		},
		{
			name:   "memory.high is rounded down to the node's page size",
			pod:    podOf(ctr("app", rl("memory", "100Mi"), rl("memory", "200Mi"))),
			mutate: []func(*resources.Config){factor(0.5), func(cfg *resources.Config) { cfg.Node.PageSize = 65536 }},
			want:   v2Unified("memory.high", "157286400"),
		},
		{
			name:   "no memory.high when the memory request equals the limit",
			pod:    guaranteed,
			mutate: []func(*resources.Config){factor(0.9)},
			want:   v2Unified(),
		},
		{
			name: "without a memory limit memory.high comes from node allocatable memory",
			pod:  requestOnly,
			mutate: []func(*resources.Config){factor(0.9), func(cfg *resources.Config) {
				cfg.Node.AllocatableMemory = 8 * gi
			}},
			want: v2Unified("memory.high", "7757783040"),
		},
		{
			name:   "without a memory limit and unknown allocatable memory there is no memory.high",
			pod:    requestOnly,
			mutate: []func(*resources.Config){factor(0.9)},
			want:   v2Unified(),
		},
		{
			name: "a BestEffort container is throttled below node allocatable memory",
			pod:  bestEffort,
			mutate: []func(*resources.Config){factor(0.9), func(cfg *resources.Config) {
				cfg.Node.AllocatableMemory = 8 * gi
			}},
			want: v2Unified("memory.high", "7730937856"),
		},
		{
			name: "a pod-level memory limit leaves throttling to the pod cgroup",
			pod:  podLevelLimit,
			mutate: []func(*resources.Config){factor(0.9), func(cfg *resources.Config) {
				cfg.Node.AllocatableMemory = 8 * gi
			}},
			want: v2Unified(),
		},
		{
			name: "without the PodLevelResources gate the pod-level memory limit does not stop memory.high",
			pod:  podLevelLimit,
			mutate: []func(*resources.Config){factor(0.9), func(cfg *resources.Config) {
				cfg.Node.AllocatableMemory = 8 * gi
				cfg.Gates.PodLevelResources = false
			}},
			want: v2Unified("memory.high", "7757783040"),
		},
		{
			name:   "memory.high that does not exceed the request is not written",
			pod:    nearlyEqual,
			mutate: []func(*resources.Config){factor(0.1)},
			want:   v2Unified(),
		},
		{
			name:   "MemoryQoS off on cgroup v2 writes memory.high=max even with a factor",
			pod:    burstable,
			mutate: []func(*resources.Config){factor(0.9), func(cfg *resources.Config) { cfg.Gates.MemoryQoS = false }},
			want:   map[string]string{"memory.oom.group": "1", "memory.high": "max"},
		},
		{
			name:   "MemoryQoS does nothing on cgroup v1",
			pod:    burstable,
			mutate: []func(*resources.Config){factor(0.9), tiered, func(cfg *resources.Config) { cfg.Node.CgroupV2 = false }},
			want:   nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCalc(t, func(cfg *resources.Config) {
				for _, m := range tt.mutate {
					m(cfg)
				}
			})
			got, warnings, err := c.ContainerResources(tt.pod, &tt.pod.Spec.Containers[0])
			require.NoError(t, err)
			assert.Empty(t, warnings)
			assert.Equal(t, tt.want, got.Unified)
		})
	}
}
