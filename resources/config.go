package resources

import (
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/features"
	"github.com/podconfig/podconfig/internal/errkind"
)

// ErrInvalidConfig is wrapped by every error New returns.
var ErrInvalidConfig = errkind.Sentinel(errkind.InvalidOptions, "invalid resources config")

// SwapBehavior is the kubelet's memorySwap.swapBehavior setting (kubelet: types.SwapBehavior).
type SwapBehavior string

const (
	// NoSwap forbids swap for every container. It is kubelet's default.
	NoSwap SwapBehavior = "NoSwap"
	// LimitedSwap lets Burstable containers swap in proportion to their memory request.
	LimitedSwap SwapBehavior = "LimitedSwap"
)

// MemoryReservationPolicy is the kubelet's memoryReservationPolicy setting, used with MemoryQoS.
type MemoryReservationPolicy string

const (
	// NoMemoryReservation writes memory.min=0 and memory.low=0. It is kubelet's default.
	NoMemoryReservation MemoryReservationPolicy = "None"
	// TieredReservation protects the memory request: memory.min for Guaranteed pods, memory.low
	// for the others.
	TieredReservation MemoryReservationPolicy = "TieredReservation"
)

// DefaultCPUCFSQuotaPeriod is kubelet's default cpuCFSQuotaPeriod.
const DefaultCPUCFSQuotaPeriod = 100 * time.Millisecond

// Node holds the facts about the node that change a container's resources. Kubelet reads them from
// the host (cadvisor, cgroupfs, sysfs); HostNode does the same on Linux, offline use fills them in.
type Node struct {
	// CgroupV2 says the node runs the cgroup v2 unified hierarchy
	// (kubelet: libcontainercgroups.IsCgroup2UnifiedMode).
	CgroupV2 bool
	// MemoryCapacity is the node's total memory in bytes (cadvisor MachineInfo.MemoryCapacity).
	// It must be positive: the Burstable OOM score and LimitedSwap divide by it.
	MemoryCapacity int64
	// AllocatableMemory is the node's allocatable memory in bytes; memory.high of a container
	// without a memory limit is derived from it. Zero means unknown (no memory.high then).
	AllocatableMemory int64
	// SwapCapacity is the node's swap size in bytes (cadvisor MachineInfo.SwapCapacity).
	SwapCapacity int64
	// SwapControllerAvailable says the memory cgroup can limit swap (kubelet:
	// swapControllerAvailable). Without it kubelet writes no swap setting at all.
	SwapControllerAvailable bool
	// HugePageSizes are the page sizes the node supports, as kubelet lists them ("2MB", "1GB", see
	// hugePageSizeKeysFromDirNames for names and order); every container gets one HugepageLimit
	// per entry, in this order. A container's hugepages-<size> limit applies to the entry named
	// hugePageUnitSizeFromByteSize(size).
	HugePageSizes []string
	// PageSize is the memory page size in bytes memory.high is rounded down to; zero means 4096.
	PageSize int64
}

// KubeletSettings are the kubelet configuration fields that change a container's resources.
// DefaultKubeletSettings returns kubelet's defaults.
type KubeletSettings struct {
	// CPUCFSQuota enables CFS quota for containers that set a CPU limit (--cpu-cfs-quota).
	CPUCFSQuota bool
	// CPUCFSQuotaPeriod is the CFS period (--cpu-cfs-quota-period); used with the
	// CustomCPUCFSQuotaPeriod gate, between 1ms and 1s. Zero means the 100ms default.
	CPUCFSQuotaPeriod time.Duration
	// MemoryThrottlingFactor, when set, enables memory.high under MemoryQoS; in (0, 1].
	MemoryThrottlingFactor *float64
	// MemoryReservationPolicy selects memory.min/memory.low under MemoryQoS.
	MemoryReservationPolicy MemoryReservationPolicy
	// SingleProcessOOMKill, when false on cgroup v2, makes the kernel kill the whole container on
	// OOM (memory.oom.group=1). Nil means kubelet's default: true on cgroup v1, false on v2.
	SingleProcessOOMKill *bool
	// SwapBehavior is memorySwap.swapBehavior; empty means NoSwap.
	SwapBehavior SwapBehavior
}

// DefaultKubeletSettings returns the kubelet v1.37 defaults of the settings in KubeletSettings.
func DefaultKubeletSettings() KubeletSettings {
	return KubeletSettings{
		CPUCFSQuota:             true,
		CPUCFSQuotaPeriod:       DefaultCPUCFSQuotaPeriod,
		MemoryReservationPolicy: NoMemoryReservation,
		SwapBehavior:            NoSwap,
	}
}

// Gates is the old name of features.Gates, of which resources reads PodLevelResources, MemoryQoS,
// CustomCPUCFSQuotaPeriod and DRANodeAllocatableResources.
//
// Deprecated: use features.Gates.
type Gates = features.Gates

// DefaultGates returns kubelet v1.37's default gates.
//
// Deprecated: use features.Default.
func DefaultGates() Gates { return features.Default() }

// ExclusiveCPUs answers the CPU manager's questions (kubelet: ContainerManager). With the static
// policy, containers pinned to exclusive CPUs get no CFS quota. A nil ExclusiveCPUs means the
// kubelet's default "none" policy: nothing is exclusive.
type ExclusiveCPUs interface {
	// ContainerHasExclusiveCPUs reports whether container of pod runs on exclusive CPUs.
	ContainerHasExclusiveCPUs(pod *v1.Pod, container *v1.Container) bool
	// PodHasExclusiveCPUs reports whether any container of pod runs on exclusive CPUs.
	PodHasExclusiveCPUs(pod *v1.Pod) bool
}

// ExclusiveCPUsFuncs adapts two functions to ExclusiveCPUs, for callers that keep CPU
// assignments in their own store. A nil function answers false.
type ExclusiveCPUsFuncs struct {
	Container func(pod *v1.Pod, container *v1.Container) bool
	Pod       func(pod *v1.Pod) bool
}

var _ ExclusiveCPUs = ExclusiveCPUsFuncs{}

// ContainerHasExclusiveCPUs calls f.Container.
func (f ExclusiveCPUsFuncs) ContainerHasExclusiveCPUs(pod *v1.Pod, container *v1.Container) bool {
	return f.Container != nil && f.Container(pod, container)
}

// PodHasExclusiveCPUs calls f.Pod.
func (f ExclusiveCPUsFuncs) PodHasExclusiveCPUs(pod *v1.Pod) bool {
	return f.Pod != nil && f.Pod(pod)
}

// Config is everything a Calculator needs besides the pod.
type Config struct {
	Node    Node
	Kubelet KubeletSettings
	Gates   features.Gates
	// CPUs may be nil: no container has exclusive CPUs.
	CPUs ExclusiveCPUs
}

// DefaultConfig returns kubelet's default settings and gates for node. It does not read the host.
func DefaultConfig(node Node) Config {
	return Config{Node: node, Kubelet: DefaultKubeletSettings(), Gates: features.Default()}
}

// Calculator computes container and sandbox resources for one node configuration. It holds no
// mutable state and is safe for concurrent use.
type Calculator struct {
	cfg Config
	// period is the CFS period in microseconds, resolved once from the settings and gates.
	period int64
	// oomGroup says linuxResources writes memory.oom.group=1.
	oomGroup bool
	// pageSize is Node.PageSize with its default applied.
	pageSize int64
}

// New checks cfg the way kubelet validates its configuration and returns a Calculator. Errors wrap
// ErrInvalidConfig.
func New(cfg Config) (*Calculator, error) {
	n, k := cfg.Node, cfg.Kubelet
	if n.MemoryCapacity <= 0 {
		return nil, fmt.Errorf("%w: node memory capacity %d must be positive", ErrInvalidConfig, n.MemoryCapacity)
	}
	if n.AllocatableMemory < 0 || n.SwapCapacity < 0 || n.PageSize < 0 {
		return nil, fmt.Errorf("%w: node allocatable memory, swap capacity and page size must not be negative", ErrInvalidConfig)
	}
	if k.CPUCFSQuotaPeriod == 0 {
		k.CPUCFSQuotaPeriod = DefaultCPUCFSQuotaPeriod
		cfg.Kubelet.CPUCFSQuotaPeriod = DefaultCPUCFSQuotaPeriod
	}
	if k.CPUCFSQuotaPeriod < time.Millisecond || k.CPUCFSQuotaPeriod > time.Second {
		return nil, fmt.Errorf("%w: cpuCFSQuotaPeriod %v must be between 1ms and 1s, inclusive", ErrInvalidConfig, k.CPUCFSQuotaPeriod)
	}
	if f := k.MemoryThrottlingFactor; f != nil && (!(*f > 0) || *f > 1) {
		return nil, fmt.Errorf("%w: memoryThrottlingFactor %v must be greater than 0 and at most 1.0", ErrInvalidConfig, *f)
	}
	switch k.MemoryReservationPolicy {
	case NoMemoryReservation, TieredReservation:
	case "":
		cfg.Kubelet.MemoryReservationPolicy = NoMemoryReservation
	default:
		return nil, fmt.Errorf("%w: unknown memoryReservationPolicy %q (want %q or %q)", ErrInvalidConfig, k.MemoryReservationPolicy, NoMemoryReservation, TieredReservation)
	}
	switch k.SwapBehavior {
	case NoSwap, LimitedSwap:
	case "":
		cfg.Kubelet.SwapBehavior = NoSwap
	default:
		return nil, fmt.Errorf("%w: unknown swapBehavior %q (want %q or %q)", ErrInvalidConfig, k.SwapBehavior, NoSwap, LimitedSwap)
	}
	// Copies keep the Calculator immune to later changes the caller makes through shared pointers.
	cfg.Node.HugePageSizes = append([]string(nil), n.HugePageSizes...)
	if f := k.MemoryThrottlingFactor; f != nil {
		cfg.Kubelet.MemoryThrottlingFactor = ptr.To(*f)
	}
	if s := k.SingleProcessOOMKill; s != nil {
		cfg.Kubelet.SingleProcessOOMKill = ptr.To(*s)
	}
	c := &Calculator{cfg: cfg, period: quotaPeriod, pageSize: n.PageSize}
	if cfg.Gates.CustomCPUCFSQuotaPeriod {
		c.period = int64(k.CPUCFSQuotaPeriod / time.Microsecond)
	}
	if c.pageSize == 0 {
		c.pageSize = 4096
	}
	singleProcess := !n.CgroupV2
	if k.SingleProcessOOMKill != nil {
		singleProcess = *k.SingleProcessOOMKill
	}
	c.oomGroup = n.CgroupV2 && !singleProcess
	return c, nil
}

// Config returns the configuration the Calculator was built from, with defaults filled in.
func (c *Calculator) Config() Config {
	cfg := c.cfg
	cfg.Node.HugePageSizes = append([]string(nil), c.cfg.Node.HugePageSizes...)
	if f := cfg.Kubelet.MemoryThrottlingFactor; f != nil {
		cfg.Kubelet.MemoryThrottlingFactor = ptr.To(*f)
	}
	if s := cfg.Kubelet.SingleProcessOOMKill; s != nil {
		cfg.Kubelet.SingleProcessOOMKill = ptr.To(*s)
	}
	return cfg
}
