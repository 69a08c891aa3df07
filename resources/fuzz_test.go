package resources_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/resources"
)

// FuzzContainerResources feeds hostile quantities and resource names through every path
// (pod-level resources, sidecars, LimitedSwap, MemoryQoS with throttling) and checks that
// nothing panics and that the sandbox and container calls agree on their shape.
func FuzzContainerResources(f *testing.F) {
	f.Add("250m", "1", "256Mi", "512Mi", "hugepages-2Mi", "4Mi", "1Gi", uint8(0))
	f.Add("0", "-1", "1E", "-5Ei", "hugepages-0", "1", "0", uint8(255))
	f.Add("9223372036854775807", "1n", "1e18", "1k", "hugepages-1025Ki", "-1", "8Ei", uint8(7))
	f.Fuzz(func(t *testing.T, cpuReq, cpuLim, memReq, memLim, hpName, hpVal, podMem string, flags uint8) {
		list := func(pairs ...string) v1.ResourceList {
			l := v1.ResourceList{}
			for i := 0; i+1 < len(pairs); i += 2 {
				if q, err := resource.ParseQuantity(pairs[i+1]); err == nil {
					l[v1.ResourceName(pairs[i])] = q
				}
			}
			return l
		}
		main := ctr("main", list("cpu", cpuReq, "memory", memReq), list("cpu", cpuLim, "memory", memLim, hpName, hpVal))
		pod := podOf(main)
		if flags&1 != 0 {
			pod.Spec.InitContainers = []v1.Container{sidecar("side", list("memory", memLim), nil), ctr("init", list("cpu", cpuLim), nil)}
		}
		if flags&2 != 0 {
			pod.Spec.Resources = &v1.ResourceRequirements{Requests: list("memory", podMem), Limits: list("cpu", cpuReq, hpName, podMem)}
		}
		if flags&4 != 0 {
			pod.Spec.Overhead = list("cpu", cpuReq, "memory", podMem)
		}
		c := newCalc(t, func(cfg *resources.Config) {
			cfg.Node.CgroupV2 = flags&8 == 0
			cfg.Node.SwapControllerAvailable = true
			cfg.Node.SwapCapacity = 1 << 30
			cfg.Node.AllocatableMemory = 1 << 33
			cfg.Kubelet.SwapBehavior = resources.LimitedSwap
			cfg.Kubelet.MemoryThrottlingFactor = ptr.To(0.9)
			if flags&16 != 0 {
				cfg.Kubelet.MemoryReservationPolicy = resources.TieredReservation
			}
		})
		for _, ct := range []*v1.Container{&pod.Spec.Containers[0], findContainer(pod, "side")} {
			got, _, err := c.ContainerResources(pod, ct)
			require.NoError(t, err)
			require.Len(t, got.HugepageLimits, 2)
			assert.GreaterOrEqual(t, got.CpuShares, int64(2))
			assert.LessOrEqual(t, got.CpuShares, int64(262144))
			assert.Contains(t, []int64{-997, 1000}, clampCheck(got.OomScoreAdj))
		}
		res, overhead, err := c.SandboxResources(pod)
		require.NoError(t, err)
		require.NotNil(t, res)
		require.NotNil(t, overhead)
	})
}

// clampCheck maps an OOM score to -997 or 1000 when it is in kubelet's possible range, so the
// fuzz test can assert the range with Contains.
func clampCheck(adj int64) int64 {
	if adj == -997 || (adj >= 3 && adj <= 1000) {
		if adj == -997 {
			return -997
		}
		return 1000
	}
	return adj
}

func TestCalculatorIsSafeForConcurrentUse(t *testing.T) {
	c := newCalc(t, func(cfg *resources.Config) { cfg.Kubelet.MemoryThrottlingFactor = ptr.To(0.8) })
	pod := samplePod()
	want, _, err := c.ContainerResources(pod, &pod.Spec.Containers[0])
	require.NoError(t, err)
	var wg sync.WaitGroup
	results := make([]*lcr, 8)
	for i := range results {
		wg.Go(func() {
			got, _, err := c.ContainerResources(pod, &pod.Spec.Containers[0])
			if err == nil {
				results[i] = got
			}
		})
	}
	wg.Wait()
	for _, got := range results {
		assert.Equal(t, want, got)
	}
}

// FuzzHugePageSizeKeysFromDirNames checks that odd directory names never panic and that the
// listing order comes from the names alone, as the kernel's does.
func FuzzHugePageSizeKeysFromDirNames(f *testing.F) {
	f.Add("hugepages-2048kB", "hugepages-1048576kB", "hugepages-64kB")
	f.Add("hugepages--1kB", "hugepages-99999999999999999999kB", "hugepages-kB")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		got := resources.HugePageSizeKeysFromDirNames([]string{a, b, c})
		assert.Equal(t, got, resources.HugePageSizeKeysFromDirNames([]string{c, a, b}))
		assert.LessOrEqual(t, len(got), 3)
	})
}
