package resources_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podconfig/podconfig/resources"
)

func TestSandboxResources(t *testing.T) {
	withInit := func(p *v1.Pod, inits ...v1.Container) *v1.Pod {
		p.Spec.InitContainers = inits
		return p
	}
	podLevel := podOf(ctr("a", rl("cpu", "100m", "memory", "100Mi"), rl("cpu", "200m", "memory", "200Mi")))
	podLevel.Spec.Resources = &v1.ResourceRequirements{Requests: rl("cpu", "1", "memory", "1Gi"), Limits: rl("cpu", "2", "memory", "2Gi")}
	podLevelLimitOnly := podOf(ctr("a", rl("cpu", "100m"), rl("cpu", "200m")))
	podLevelLimitOnly.Spec.Resources = &v1.ResourceRequirements{Limits: rl("memory", "2Gi")}
	withOverhead := podOf(ctr("a", rl("cpu", "100m"), rl("cpu", "200m", "memory", "100Mi")))
	withOverhead.Spec.Overhead = rl("cpu", "250m", "memory", "120Mi")
	exclusive := podOf(ctr("a", rl("cpu", "2", "memory", "1Gi"), rl("cpu", "2", "memory", "1Gi")))
	exclusive.Name = "pinned"

	oomGroup := map[string]string{"memory.oom.group": "1"}
	tests := []struct {
		name         string
		pod          *v1.Pod
		mutate       func(*resources.Config)
		want         *lcr
		wantOverhead *lcr
	}{
		{
			name: "requests and limits of regular containers are summed",
			pod: podOf(
				ctr("a", rl("cpu", "100m", "memory", "100Mi"), rl("cpu", "200m", "memory", "200Mi")),
				ctr("b", rl("cpu", "200m", "memory", "100Mi"), rl("cpu", "300m", "memory", "300Mi")),
			),
			want: &lcr{CpuShares: 307, CpuQuota: 50000, CpuPeriod: 100000, MemoryLimitInBytes: 500 * mi, Unified: oomGroup},
		},
		{
			name: "without any cpu request the shares come from the pod cpu limit",
			pod:  podOf(ctr("a", nil, rl("cpu", "1")), ctr("b", rl("memory", "1Gi"), nil)),
			want: &lcr{CpuShares: 1024, CpuQuota: 100000, CpuPeriod: 100000, Unified: oomGroup},
		},
		{
			name: "an explicit zero cpu request counts as a request",
			pod:  podOf(ctr("a", rl("cpu", "0"), rl("cpu", "1"))),
			want: &lcr{CpuShares: 2, CpuQuota: 100000, CpuPeriod: 100000, Unified: oomGroup},
		},
		{
			name: "limits are summed over the containers that set one",
			pod:  podOf(ctr("a", nil, rl("memory", "100Mi")), ctr("b", nil, nil)),
			want: &lcr{CpuShares: 2, CpuPeriod: 100000, MemoryLimitInBytes: 100 * mi, Unified: oomGroup},
		},
		{
			name: "an init container bigger than the regular containers sets the need",
			pod:  withInit(podOf(ctr("a", rl("cpu", "250m"), rl("cpu", "250m"))), ctr("init", rl("cpu", "1"), rl("cpu", "2"))),
			want: &lcr{CpuShares: 1024, CpuQuota: 200000, CpuPeriod: 100000, Unified: oomGroup},
		},
		{
			name: "a smaller init container does not change the sum",
			pod:  withInit(podOf(ctr("a", rl("cpu", "500m"), nil), ctr("b", rl("cpu", "500m"), nil)), ctr("init", rl("cpu", "600m"), nil)),
			want: &lcr{CpuShares: 1024, CpuPeriod: 100000, Unified: oomGroup},
		},
		{
			name: "a sidecar adds to the total and to the init containers after it",
			pod: withInit(podOf(ctr("a", rl("cpu", "250m"), nil)),
				sidecar("side", rl("cpu", "500m"), nil),
				ctr("init", rl("cpu", "600m"), nil)),
			want: &lcr{CpuShares: 1126, CpuPeriod: 100000, Unified: oomGroup},
		},
		{
			name: "init containers before a sidecar do not add it",
			pod: withInit(podOf(ctr("a", rl("cpu", "250m"), nil)),
				ctr("init", rl("cpu", "600m"), nil),
				sidecar("side", rl("cpu", "500m"), nil)),
			want: &lcr{CpuShares: 768, CpuPeriod: 100000, Unified: oomGroup},
		},
		{
			name: "pod-level requests and limits replace the aggregate",
			pod:  podLevel,
			want: &lcr{CpuShares: 1024, CpuQuota: 200000, CpuPeriod: 100000, MemoryLimitInBytes: 2 * gi, Unified: oomGroup},
		},
		{
			name:   "pod-level resources are ignored without the PodLevelResources gate",
			pod:    podLevel,
			mutate: func(cfg *resources.Config) { cfg.Gates.PodLevelResources = false },
			want:   &lcr{CpuShares: 102, CpuQuota: 20000, CpuPeriod: 100000, MemoryLimitInBytes: 200 * mi, Unified: oomGroup},
		},
		{
			name: "a pod-level limit replaces only the resources it names",
			pod:  podLevelLimitOnly,
			want: &lcr{CpuShares: 102, CpuQuota: 20000, CpuPeriod: 100000, MemoryLimitInBytes: 2 * gi, Unified: oomGroup},
		},
		{
			name:   "a pod with exclusive CPUs gets quota -1",
			pod:    exclusive,
			mutate: func(cfg *resources.Config) { cfg.CPUs = fakeCPUs{pods: map[string]bool{"pinned": true}} },
			want:   &lcr{CpuShares: 2048, CpuQuota: -1, CpuPeriod: 100000, MemoryLimitInBytes: gi, Unified: oomGroup},
		},
		{
			name:         "overhead is left out of the resources and treated as Guaranteed",
			pod:          withOverhead,
			want:         &lcr{CpuShares: 102, CpuQuota: 20000, CpuPeriod: 100000, MemoryLimitInBytes: 100 * mi, Unified: oomGroup},
			wantOverhead: &lcr{CpuShares: 256, CpuQuota: 25000, CpuPeriod: 100000, MemoryLimitInBytes: 120 * mi, Unified: oomGroup},
		},
		{
			name:         "cgroup v1 and cpuCFSQuota off: shares and memory only",
			pod:          withOverhead,
			mutate:       func(cfg *resources.Config) { cfg.Node.CgroupV2 = false; cfg.Kubelet.CPUCFSQuota = false },
			want:         &lcr{CpuShares: 102, MemoryLimitInBytes: 100 * mi},
			wantOverhead: &lcr{CpuShares: 256, MemoryLimitInBytes: 120 * mi},
		},
		{
			name: "kubelet's overhead example: 2/4 CPUs and 128Mi/256Mi with 1 CPU and 128Mi overhead",
			pod: func() *v1.Pod {
				p := podOf(ctr("a", rl("cpu", "2", "memory", "128Mi"), rl("cpu", "4", "memory", "256Mi")))
				p.Spec.Overhead = rl("cpu", "1", "memory", "128Mi")
				return p
			}(),
			want:         &lcr{CpuShares: 2048, CpuQuota: 400000, CpuPeriod: 100000, MemoryLimitInBytes: 256 * mi, Unified: oomGroup},
			wantOverhead: &lcr{CpuShares: 1024, CpuQuota: 100000, CpuPeriod: 100000, MemoryLimitInBytes: 128 * mi, Unified: oomGroup},
		},
		{
			name: "kubelet's memory-only example: no cpu anywhere gives 2 shares and quota 0",
			pod:  podOf(ctr("a", rl("memory", "128Mi"), rl("memory", "256Mi"))),
			want: &lcr{CpuShares: 2, CpuPeriod: 100000, MemoryLimitInBytes: 256 * mi, Unified: oomGroup},
		},
		{
			name: "a pod without containers gets minimal shares",
			pod:  &v1.Pod{},
			want: &lcr{CpuShares: 2, CpuPeriod: 100000, Unified: oomGroup},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCalc(t, tt.mutate)
			got, overhead, err := c.SandboxResources(tt.pod)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			wantOverhead := tt.wantOverhead
			if wantOverhead == nil {
				wantOverhead = &lcr{}
			}
			assert.Equal(t, wantOverhead, overhead, "overhead")
		})
	}
}

func TestPodRequestsAndLimits(t *testing.T) {
	pod := podOf(ctr("a", rl("cpu", "100m", "memory", "100Mi"), rl("memory", "200Mi")))
	pod.Spec.InitContainers = []v1.Container{ctr("init", rl("memory", "1Gi"), nil)}
	pod.Spec.Overhead = rl("cpu", "1", "memory", "1Gi")

	requireQuantities(t, map[v1.ResourceName]string{"cpu": "100m", "memory": "1Gi"}, resources.PodRequests(pod, true))
	requireQuantities(t, map[v1.ResourceName]string{"memory": "200Mi"}, resources.PodLimits(pod, true))

	pod.Spec.Resources = &v1.ResourceRequirements{Requests: rl("memory", "3Gi"), Limits: rl("cpu", "4")}
	requireQuantities(t, map[v1.ResourceName]string{"cpu": "100m", "memory": "3Gi"}, resources.PodRequests(pod, true))
	requireQuantities(t, map[v1.ResourceName]string{"cpu": "4", "memory": "200Mi"}, resources.PodLimits(pod, true))
	requireQuantities(t, map[v1.ResourceName]string{"cpu": "100m", "memory": "1Gi"}, resources.PodRequests(pod, false))
}

// requireQuantities compares by value: the same amount may be stored in different formats.
func requireQuantities(t *testing.T, want map[v1.ResourceName]string, got v1.ResourceList) {
	t.Helper()
	require.Len(t, got, len(want))
	for name, w := range want {
		q, ok := got[name]
		require.True(t, ok, "missing %s", name)
		wq := resource.MustParse(w)
		assert.Zero(t, wq.Cmp(q), "%s: want %s, got %s", name, w, q.String())
	}
}
