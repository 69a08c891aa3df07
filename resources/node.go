package resources

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/podconfig/podconfig/internal/errkind"
)

// ErrUnsupported is returned by HostNode on operating systems other than Linux.
var ErrUnsupported = errkind.Sentinel(errkind.InvalidOptions, "not supported on this operating system")

// hostFiles is the read-only file access detectNode needs. hostfs.OS and *hostfs.Memory satisfy
// it, so a test can describe a node as an in-memory tree.
type hostFiles interface {
	ReadFile(path string) ([]byte, error)
	ReadDir(path string) ([]fs.DirEntry, error)
	Stat(path string) (fs.FileInfo, error)
}

// Host paths detectNode reads.
const (
	cgroupRoot        = "/sys/fs/cgroup"
	hugepagesDir      = "/sys/kernel/mm/hugepages"
	meminfoPath       = "/proc/meminfo"
	selfCgroupPath    = "/proc/self/cgroup"
	cgroupV1SwapLimit = "/sys/fs/cgroup/memory/memory.memsw.limit_in_bytes"
)

// detectNode reads the node facts kubelet takes from the host through files:
//   - CgroupV2: /sys/fs/cgroup/cgroup.controllers exists (the root of a unified hierarchy);
//   - MemoryCapacity and SwapCapacity: MemTotal and SwapTotal of /proc/meminfo, as cadvisor;
//   - HugePageSizes: the hugepages-<n>kB entries of /sys/kernel/mm/hugepages, in the kernel's
//     listing order (see hugePageSizeKeysFromDirNames); none when the directory is missing;
//   - SwapControllerAvailable: on v1 memory.memsw.limit_in_bytes exists in the memory
//     hierarchy, on v2 memory.swap.max exists in the cgroup /proc/self/cgroup names.
//
// AllocatableMemory (kubelet computes it from its reservations) and PageSize (HostNode fills it)
// stay zero.
func detectNode(h hostFiles) (Node, error) {
	if h == nil {
		return Node{}, fmt.Errorf("%w: detectNode needs hostFiles", ErrInvalidConfig)
	}
	var n Node
	_, err := h.Stat(path.Join(cgroupRoot, "cgroup.controllers"))
	n.CgroupV2 = err == nil

	meminfo, err := h.ReadFile(meminfoPath)
	if err != nil {
		return Node{}, fmt.Errorf("reading node memory: %w", err)
	}
	if n.MemoryCapacity, err = meminfoBytes(meminfo, "MemTotal"); err != nil {
		return Node{}, err
	}
	// A kernel without swap support has no SwapTotal line: no swap.
	n.SwapCapacity, _ = meminfoBytes(meminfo, "SwapTotal")

	entries, err := h.ReadDir(hugepagesDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Node{}, fmt.Errorf("reading hugepage sizes: %w", err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	n.HugePageSizes = hugePageSizeKeysFromDirNames(names)

	n.SwapControllerAvailable = swapControllerAvailable(h, n.CgroupV2)
	return n, nil
}

// swapControllerAvailable is kubelet's probe; any failure means "not available", as there.
func swapControllerAvailable(h hostFiles, cgroupV2 bool) bool {
	p := cgroupV1SwapLimit
	if cgroupV2 {
		data, err := h.ReadFile(selfCgroupPath)
		if err != nil {
			return false
		}
		self, ok := unifiedCgroupPath(data)
		if !ok {
			return false
		}
		// path.Join cleans "..", so a hostile cgroup name cannot leave the cgroup tree.
		p = path.Join(cgroupRoot, path.Join("/", self), "memory.swap.max")
	}
	_, err := h.Stat(p)
	return err == nil
}

// unifiedCgroupPath returns the path of the "0::<path>" line of /proc/<pid>/cgroup.
func unifiedCgroupPath(data []byte) (string, bool) {
	for line := range strings.Lines(string(data)) {
		if p, ok := strings.CutPrefix(strings.TrimRight(line, "\n"), "0::"); ok {
			return p, true
		}
	}
	return "", false
}

// meminfoBytes returns the value of key in /proc/meminfo, given there in kB.
func meminfoBytes(meminfo []byte, key string) (int64, error) {
	s := bufio.NewScanner(bytes.NewReader(meminfo))
	for s.Scan() {
		k, rest, ok := strings.Cut(s.Text(), ":")
		if !ok || k != key {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			break
		}
		v, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil || v < 0 || v > (1<<62)/1024 {
			break
		}
		if len(fields) > 1 && fields[1] != "kB" {
			break
		}
		return v * 1024, nil
	}
	return 0, fmt.Errorf("%s: no valid %s line", meminfoPath, key)
}
