package resources_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/resources"
)

type lcr = runtimeapi.LinuxContainerResources

// v2Unified is what the v1.37 defaults write on cgroup v2 besides swap: memory.oom.group from
// singleProcessOOMKill=false and MemoryQoS with the None reservation policy.
func v2Unified(extra ...string) map[string]string {
	m := map[string]string{"memory.oom.group": "1", "memory.min": "0", "memory.low": "0"}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i]] = extra[i+1]
	}
	return m
}

func TestContainerResourcesSpecSample(t *testing.T) {
	c := newCalc(t, func(cfg *resources.Config) {
		cfg.Kubelet.SingleProcessOOMKill = ptr.To(false)
	})
	pod := samplePod()
	got, warnings, err := c.ContainerResources(pod, &pod.Spec.Containers[0])
	require.NoError(t, err)
	assert.Empty(t, warnings)
	assert.Equal(t, &lcr{
		CpuPeriod:          100000,
		CpuQuota:           100000,
		CpuShares:          256,
		MemoryLimitInBytes: 536870912,
		OomScoreAdj:        993,
		HugepageLimits:     hugepages("2MB", 0, "1GB", 0),
		Unified:            map[string]string{"memory.low": "0", "memory.min": "0", "memory.oom.group": "1"},
	}, got)
}

func TestContainerResourcesCPUAndMemory(t *testing.T) {
	oneCPU := podOf(ctr("app", nil, rl("cpu", "1")))
	podLevel := podOf(ctr("app", nil, nil))
	podLevel.Spec.Resources = &v1.ResourceRequirements{Limits: rl("cpu", "2", "memory", "1Gi")}
	both := podOf(ctr("app", nil, rl("cpu", "500m", "memory", "256Mi")))
	both.Spec.Resources = &v1.ResourceRequirements{Limits: rl("cpu", "2", "memory", "1Gi")}
	podLevelRequestOnly := podOf(ctr("app", nil, nil))
	podLevelRequestOnly.Spec.Resources = &v1.ResourceRequirements{Requests: rl("cpu", "1")}

	tests := []struct {
		name   string
		pod    *v1.Pod
		mutate func(*resources.Config)
		want   *lcr
	}{
		{
			name: "no cpu request: shares come from the cpu limit",
			pod:  oneCPU,
			want: &lcr{CpuShares: 1024, CpuQuota: 100000, CpuPeriod: 100000, OomScoreAdj: 999},
		},
		{
			name: "explicit zero cpu request gives 2 shares despite a limit",
			pod:  podOf(ctr("app", rl("cpu", "0"), rl("cpu", "1"))),
			want: &lcr{CpuShares: 2, CpuQuota: 100000, CpuPeriod: 100000, OomScoreAdj: 999},
		},
		{
			name: "no cpu request or limit: 2 shares, quota 0 and the period still set",
			pod:  podOf(ctr("app", nil, nil)),
			want: &lcr{CpuShares: 2, CpuQuota: 0, CpuPeriod: 100000, OomScoreAdj: 1000},
		},
		{
			name: "huge cpu request is clamped to 262144 shares",
			pod:  podOf(ctr("app", rl("cpu", "300"), nil)),
			want: &lcr{CpuShares: 262144, CpuPeriod: 100000, OomScoreAdj: 999},
		},
		{
			name:   "cpuCFSQuota off sets neither quota nor period",
			pod:    oneCPU,
			mutate: func(cfg *resources.Config) { cfg.Kubelet.CPUCFSQuota = false },
			want:   &lcr{CpuShares: 1024, OomScoreAdj: 999},
		},
		{
			name:   "custom cpuCFSQuotaPeriod scales quota and period",
			pod:    podOf(ctr("app", nil, rl("cpu", "500m"))),
			mutate: func(cfg *resources.Config) { cfg.Kubelet.CPUCFSQuotaPeriod = 50 * time.Millisecond },
			want:   &lcr{CpuShares: 512, CpuQuota: 25000, CpuPeriod: 50000, OomScoreAdj: 999},
		},
		{
			name: "custom cpuCFSQuotaPeriod is ignored without the CustomCPUCFSQuotaPeriod gate",
			pod:  podOf(ctr("app", nil, rl("cpu", "500m"))),
			mutate: func(cfg *resources.Config) {
				cfg.Kubelet.CPUCFSQuotaPeriod = 50 * time.Millisecond
				cfg.Gates.CustomCPUCFSQuotaPeriod = false
			},
			want: &lcr{CpuShares: 512, CpuQuota: 50000, CpuPeriod: 100000, OomScoreAdj: 999},
		},
		{
			name: "a tiny cpu limit gets the 1ms minimum quota",
			pod:  podOf(ctr("app", nil, rl("cpu", "1m"))),
			want: &lcr{CpuShares: 2, CpuQuota: 1000, CpuPeriod: 100000, OomScoreAdj: 999},
		},
		{
			name:   "a container with exclusive CPUs gets quota -1",
			pod:    podOf(ctr("app", rl("cpu", "2", "memory", "1Gi"), rl("cpu", "2", "memory", "1Gi"))),
			mutate: func(cfg *resources.Config) { cfg.CPUs = fakeCPUs{containers: map[string]bool{"app": true}} },
			want:   &lcr{CpuShares: 2048, CpuQuota: -1, CpuPeriod: 100000, MemoryLimitInBytes: gi, OomScoreAdj: -997},
		},
		{
			name: "a zero memory limit is left unset and keeps the pod BestEffort",
			pod:  podOf(ctr("app", nil, rl("memory", "0"))),
			want: &lcr{CpuShares: 2, CpuPeriod: 100000, OomScoreAdj: 1000},
		},
		{
			name: "pod-level limits stand in for missing container limits",
			pod:  podLevel,
			want: &lcr{CpuShares: 2048, CpuQuota: 200000, CpuPeriod: 100000, MemoryLimitInBytes: gi, OomScoreAdj: 999},
		},
		{
			name:   "pod-level limits are ignored without the PodLevelResources gate",
			pod:    podLevel,
			mutate: func(cfg *resources.Config) { cfg.Gates.PodLevelResources = false },
			want:   &lcr{CpuShares: 2, CpuPeriod: 100000, OomScoreAdj: 1000},
		},
		{
			name: "container limits win over pod-level limits",
			pod:  both,
			want: &lcr{CpuShares: 512, CpuQuota: 50000, CpuPeriod: 100000, MemoryLimitInBytes: 256 * mi, OomScoreAdj: 999},
		},
		{
			name: "pod-level requests alone leave the container unlimited",
			pod:  podLevelRequestOnly,
			want: &lcr{CpuShares: 2, CpuPeriod: 100000, OomScoreAdj: 999},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCalc(t, func(cfg *resources.Config) {
				// Keep these cases about cpu and memory: no hugepages, cgroup v1.
				cfg.Node.HugePageSizes = nil
				cfg.Node.CgroupV2 = false
				if tt.mutate != nil {
					tt.mutate(cfg)
				}
			})
			got, warnings, err := c.ContainerResources(tt.pod, &tt.pod.Spec.Containers[0])
			require.NoError(t, err)
			assert.Empty(t, warnings)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestContainerResourcesCgroupV2Unified(t *testing.T) {
	pod := samplePod()
	base := func(unified map[string]string) *lcr {
		return &lcr{CpuPeriod: 100000, CpuQuota: 100000, CpuShares: 256, MemoryLimitInBytes: 512 * mi,
			OomScoreAdj: 993, HugepageLimits: hugepages("2MB", 0, "1GB", 0), Unified: unified}
	}
	tests := []struct {
		name   string
		mutate func(*resources.Config)
		want   *lcr
	}{
		{
			name: "singleProcessOOMKill unset on cgroup v2 means memory.oom.group=1",
			want: base(v2Unified()),
		},
		{
			name:   "singleProcessOOMKill true on cgroup v2 drops memory.oom.group",
			mutate: func(cfg *resources.Config) { cfg.Kubelet.SingleProcessOOMKill = ptr.To(true) },
			want:   base(map[string]string{"memory.min": "0", "memory.low": "0"}),
		},
		{
			name:   "MemoryQoS off on cgroup v2 writes memory.high=max",
			mutate: func(cfg *resources.Config) { cfg.Gates.MemoryQoS = false },
			want:   base(map[string]string{"memory.oom.group": "1", "memory.high": "max"}),
		},
		{
			name:   "cgroup v1 writes no unified files at all",
			mutate: func(cfg *resources.Config) { cfg.Node.CgroupV2 = false },
			want:   base(nil),
		},
		{
			name: "cgroup v1 ignores singleProcessOOMKill=false",
			mutate: func(cfg *resources.Config) {
				cfg.Node.CgroupV2 = false
				cfg.Kubelet.SingleProcessOOMKill = ptr.To(false)
			},
			want: base(nil),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCalc(t, tt.mutate)
			got, _, err := c.ContainerResources(pod, &pod.Spec.Containers[0])
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestContainerResourcesHugepages(t *testing.T) {
	withPodLevel := func(p *v1.Pod, lim v1.ResourceList) *v1.Pod {
		p.Spec.Resources = &v1.ResourceRequirements{Limits: lim}
		return p
	}
	tests := []struct {
		name         string
		pod          *v1.Pod
		pageSizes    []string
		podLevelOff  bool
		want         []*runtimeapi.HugepageLimit
		wantWarnings []resources.Warning
	}{
		{
			name: "every node page size gets limit 0 by default",
			pod:  podOf(ctr("app", nil, nil)),
			want: hugepages("2MB", 0, "1GB", 0),
		},
		{
			name: "a container hugepage limit sets its page size",
			pod:  podOf(ctr("app", nil, rl("hugepages-2Mi", "100Mi"))),
			want: hugepages("2MB", 100*mi, "1GB", 0),
		},
		{
			name: "the size of the resource name is parsed, not matched as text",
			pod:  podOf(ctr("app", nil, rl("hugepages-1048576Ki", "2Gi"))),
			want: hugepages("2MB", 0, "1GB", 2*gi),
		},
		{
			name: "a pod-level hugepage limit applies when the container sets none",
			pod:  withPodLevel(podOf(ctr("app", nil, nil)), rl("hugepages-1Gi", "1Gi")),
			want: hugepages("2MB", 0, "1GB", gi),
		},
		{
			name: "the container hugepage limit wins over the pod-level one",
			pod:  withPodLevel(podOf(ctr("app", nil, rl("hugepages-2Mi", "4Mi"))), rl("hugepages-2Mi", "8Mi")),
			want: hugepages("2MB", 4*mi, "1GB", 0),
		},
		{
			name:        "pod-level hugepage limits are ignored without the PodLevelResources gate",
			pod:         withPodLevel(podOf(ctr("app", nil, nil)), rl("hugepages-2Mi", "8Mi")),
			podLevelOff: true,
			want:        hugepages("2MB", 0, "1GB", 0),
		},
		{
			name: "a page size the node lacks is ignored",
			pod:  podOf(ctr("app", nil, rl("hugepages-64Ki", "1Mi"))),
			want: hugepages("2MB", 0, "1GB", 0),
		},
		{
			name: "non-hugepage limits are ignored",
			pod:  podOf(ctr("app", nil, rl("example.com/gpu", "1", "ephemeral-storage", "1Gi"))),
			want: hugepages("2MB", 0, "1GB", 0),
		},
		{
			name: "an unparsable hugepage size is ignored with a warning",
			pod:  podOf(ctr("app", nil, rl("hugepages-two", "1Mi"))),
			want: hugepages("2MB", 0, "1GB", 0),
			wantWarnings: []resources.Warning{{Kind: resources.WarningHugePageLimitIgnored,
				Message: `container "app": ignoring hugepage limit "hugepages-two": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`}},
		},
		{
			name: "a page size that is not a whole unit is ignored with a warning",
			pod:  podOf(ctr("app", nil, rl("hugepages-1025Ki", "1Mi"))),
			want: hugepages("2MB", 0, "1GB", 0),
			wantWarnings: []resources.Warning{{Kind: resources.WarningHugePageLimitIgnored,
				Message: `container "app": ignoring hugepage limit "hugepages-1025Ki": size: 1025KB must be guaranteed to divisible into the largest units`}},
		},
		{
			name:      "entries follow the node's page-size order",
			pod:       podOf(ctr("app", nil, rl("hugepages-64Ki", "1Mi"))),
			pageSizes: []string{"1GB", "64KB", "2MB"},
			want:      hugepages("1GB", 0, "64KB", mi, "2MB", 0),
		},
		{
			name:      "a node without hugepages gives no entries",
			pod:       podOf(ctr("app", nil, rl("hugepages-2Mi", "4Mi"))),
			pageSizes: []string{},
			want:      nil,
		},
		{
			name: "two names for one page size: the one sorting last wins",
			pod:  podOf(ctr("app", nil, rl("hugepages-2Mi", "4Mi", "hugepages-2048Ki", "6Mi"))),
			want: hugepages("2MB", 4*mi, "1GB", 0),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCalc(t, func(cfg *resources.Config) {
				if tt.pageSizes != nil {
					cfg.Node.HugePageSizes = tt.pageSizes
				}
				cfg.Gates.PodLevelResources = !tt.podLevelOff
			})
			got, warnings, err := c.ContainerResources(tt.pod, &tt.pod.Spec.Containers[0])
			require.NoError(t, err)
			assert.Equal(t, tt.want, got.HugepageLimits)
			assert.Equal(t, tt.wantWarnings, warnings)
		})
	}
}

func TestContainerResourcesNilArguments(t *testing.T) {
	c := newCalc(t, nil)
	pod := samplePod()
	_, _, err := c.ContainerResources(nil, &pod.Spec.Containers[0])
	require.ErrorIs(t, err, resources.ErrNilArgument)
	_, _, err = c.ContainerResources(pod, nil)
	require.ErrorIs(t, err, resources.ErrNilArgument)
	_, _, err = c.SandboxResources(nil)
	require.ErrorIs(t, err, resources.ErrNilArgument)
}

func TestContainerResourcesDoesNotModifyThePod(t *testing.T) {
	c := newCalc(t, func(cfg *resources.Config) {
		cfg.Kubelet.MemoryThrottlingFactor = ptr.To(0.9)
		cfg.Kubelet.MemoryReservationPolicy = resources.TieredReservation
	})
	pod := samplePod()
	pod.Spec.InitContainers = []v1.Container{sidecar("side", rl("cpu", "100m", "memory", "1Gi"), nil)}
	pod.Spec.Resources = &v1.ResourceRequirements{Requests: rl("memory", "2Gi")}
	before := pod.DeepCopy()
	_, _, err := c.ContainerResources(pod, &pod.Spec.InitContainers[0])
	require.NoError(t, err)
	_, _, err = c.SandboxResources(pod)
	require.NoError(t, err)
	assert.Equal(t, before, pod)
}

func TestContainerResourcesWarnsAboutDRAAllocations(t *testing.T) {
	pod := samplePod()
	pod.Status.NodeAllocatableResourceClaimStatuses = []v1.NodeAllocatableResourceClaimStatus{{Containers: []string{"app"}}}
	tests := []struct {
		name         string
		gate         bool
		wantWarnings []resources.Warning
	}{
		{name: "DRA claims are ignored silently with the gate off"},
		{name: "DRA claims naming the container are reported with the gate on", gate: true,
			wantWarnings: []resources.Warning{{Kind: resources.WarningDRANotApplied,
				Message: `container "app": DRA node-allocatable resources are not applied`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCalc(t, func(cfg *resources.Config) { cfg.Gates.DRANodeAllocatableResources = tt.gate })
			_, warnings, err := c.ContainerResources(pod, &pod.Spec.Containers[0])
			require.NoError(t, err)
			assert.Equal(t, tt.wantWarnings, warnings)
		})
	}
}

// The hugepage limits share the resources' allocation: appending to the list writes into no other
// message, and two results share nothing.
func TestContainerResourcesHugepageLimitsAreTheCallersOwn(t *testing.T) {
	c := newCalc(t, nil)
	pod := samplePod()
	got, _, err := c.ContainerResources(pod, &pod.Spec.Containers[0])
	require.NoError(t, err)
	other, _, err := c.ContainerResources(pod, &pod.Spec.Containers[0])
	require.NoError(t, err)
	require.Len(t, got.HugepageLimits, 2)
	got.HugepageLimits = append(got.HugepageLimits, &runtimeapi.HugepageLimit{PageSize: "64KB"})
	got.HugepageLimits[0].Limit = 7
	got.HugepageLimits[1].PageSize = "changed"
	assert.Equal(t, []*runtimeapi.HugepageLimit{{PageSize: "2MB"}, {PageSize: "1GB"}}, other.HugepageLimits)
	assert.Equal(t, "2MB", got.HugepageLimits[0].PageSize)

	res, overhead, err := c.SandboxResources(pod)
	require.NoError(t, err)
	overhead.CpuShares = 99
	assert.NotEqual(t, int64(99), res.CpuShares)
}
