package security

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	v1 "k8s.io/api/core/v1"
)

// defaultMaskedPaths and defaultReadonlyPaths are kubelet's lists for the Default procMount. They are
// read-only: every CRI message gets its own copy.
var (
	defaultMaskedPaths = [...]string{
		"/proc/asound",
		"/proc/acpi",
		"/proc/interrupts",
		"/proc/kcore",
		"/proc/keys",
		"/proc/latency_stats",
		"/proc/timer_list",
		"/proc/timer_stats",
		"/proc/sched_debug",
		"/proc/scsi",
		"/sys/firmware",
		"/sys/devices/virtual/powercap",
	}
	defaultReadonlyPaths = [...]string{
		"/proc/bus",
		"/proc/fs",
		"/proc/irq",
		"/proc/sys",
		"/proc/sysrq-trigger",
	}
)

// ThermalThrottlePaths supplies the host-dependent tail of the default masked paths: the
// /sys/devices/system/cpu/cpu<N>/thermal_throttle directories that exist on the node. HostCPUs reads
// them from the host; offline.ThermalPaths is a fixed list, as the offline node uses.
type ThermalThrottlePaths interface {
	ThermalThrottlePaths() []string
}

// HostCPUs is the Linux ThermalThrottlePaths, as kubelet computes it: every possible CPU listed in
// <SysRoot>/devices/system/cpu/possible (or, when that cannot be read, 0..runtime.NumCPU()-1) whose
// thermal_throttle directory exists. The paths it returns always start with /sys, whatever SysRoot.
// It reads the host on every call; a Resolver calls it once and keeps the answer.
type HostCPUs struct {
	// SysRoot is where sysfs is mounted. Empty means /sys.
	SysRoot string
}

var _ ThermalThrottlePaths = HostCPUs{}

// ThermalThrottlePaths implements ThermalThrottlePaths.
func (h HostCPUs) ThermalThrottlePaths() []string {
	root := h.SysRoot
	if root == "" {
		root = "/sys"
	}
	cpus, ok := parseCPUList(root)
	if !ok {
		cpus = make([]int, runtime.NumCPU())
		for i := range cpus {
			cpus[i] = i
		}
	}
	var out []string
	for _, cpu := range cpus {
		rel := "devices/system/cpu/cpu" + strconv.Itoa(cpu) + "/thermal_throttle"
		if _, err := os.Stat(filepath.Join(root, rel)); err == nil {
			out = append(out, "/sys/"+rel)
		}
	}
	return out
}

// parseCPUList reads the kernel's possible-CPU list ("0-3,8,10-11"). Any malformed element makes
// the whole list unusable, as in kubelet. A reversed range ("5-1") adds no CPU but leaves the rest
// of the list in use, as kubelet's loop does; a list that yields no CPU at all is unusable.
func parseCPUList(sysRoot string) ([]int, bool) {
	data, err := os.ReadFile(filepath.Join(sysRoot, "devices/system/cpu/possible"))
	if err != nil {
		return nil, false
	}
	var cpus []int
	for _, r := range strings.Split(strings.TrimSpace(string(data)), ",") {
		lo, hi, isRange := strings.Cut(r, "-")
		start, err := strconv.Atoi(lo)
		if err != nil {
			return nil, false
		}
		end := start
		if isRange {
			if end, err = strconv.Atoi(hi); err != nil {
				return nil, false
			}
		}
		// A hostile or corrupt sysfs must not make us loop for ever or allocate without bound.
		if start < 0 || end-start > 1<<16 {
			return nil, false
		}
		for i := start; i <= end; i++ {
			cpus = append(cpus, i)
		}
	}
	return cpus, len(cpus) > 0
}

// readonlyPaths returns the paths a container's /proc is mounted read-only at, as kubelet's
// securitycontext.ConvertToRuntimeReadonlyPaths: none (a non-nil empty slice) for the Unmasked
// procMount, else the default list. The slice is the caller's own.
func readonlyPaths(procMount *v1.ProcMountType) []string {
	if isUnmasked(procMount) {
		return []string{}
	}
	out := make([]string, len(defaultReadonlyPaths))
	copy(out, defaultReadonlyPaths[:])
	return out
}

// maskedPaths builds the full default masked list with the thermal tail; a Resolver keeps it.
func maskedPaths(thermal []string) []string {
	out := make([]string, 0, len(defaultMaskedPaths)+len(thermal))
	out = append(out, defaultMaskedPaths[:]...)
	return append(out, thermal...)
}

func isUnmasked(procMount *v1.ProcMountType) bool {
	return procMount != nil && *procMount == v1.UnmaskedProcMount
}

// MaskedPaths returns the paths masked in a container's /proc and /sys, as kubelet's
// securitycontext.ConvertToRuntimeMaskedPaths: none (a non-nil empty slice) for the Unmasked
// procMount, else the default list followed by the node's thermal_throttle directories. The slice
// is the caller's own.
func (r *Resolver) MaskedPaths(procMount *v1.ProcMountType) []string {
	if isUnmasked(procMount) {
		return []string{}
	}
	shared := r.maskedList()
	out := make([]string, len(shared))
	copy(out, shared)
	return out
}
