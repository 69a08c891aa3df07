package resources

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// hugePageSizeUnits are the unit suffixes of hugepage size keys, in powers of 1024.
var hugePageSizeUnits = [...]string{"B", "KB", "MB", "GB", "TB", "PB"}

// hugePageUnitSizeFromByteSize formats a hugepage size the way cgroup hugetlb files and CRI name
// it ("2MB", "1GB", "64KB"), as kubelet's v1helper.HugePageUnitSizeFromByteSize does. A size that
// is not a whole number of its largest unit is an error.
func hugePageUnitSizeFromByteSize(size int64) (string, error) {
	idx := 0
	last := len(hugePageSizeUnits) - 1
	for size%1024 == 0 && idx < last {
		size /= 1024
		idx++
	}
	if size > 1024 && idx < last {
		return "", fmt.Errorf("size: %d%s must be guaranteed to divisible into the largest units", size, hugePageSizeUnits[idx])
	}
	return strconv.FormatInt(size, 10) + hugePageSizeUnits[idx], nil
}

// hugePageKey turns a hugepages-<size> resource name into its page-size key.
func hugePageKey(name v1.ResourceName) (string, error) {
	size, err := resource.ParseQuantity(strings.TrimPrefix(string(name), v1.ResourceHugePagesPrefix))
	if err != nil {
		return "", err
	}
	return hugePageUnitSizeFromByteSize(size.Value())
}

// hugepageLimits is kubelet's GetHugepageLimitsFromResources: one entry per node page size with
// limit 0, then the pod-level hugepage limits (podLimits, may be nil) and then the container's
// limits set the byte limit of their page size, so the container wins. Limits whose page size
// the node lacks, and names that do not parse, are skipped; the latter come back as warnings.
// When two names give the same page size ("hugepages-2Mi", "hugepages-2048Ki"), the one that
// sorts last wins, where kubelet's map order picks one at random.
func hugepageLimits(pageSizes []string, podLimits, ctrLimits v1.ResourceList, ctrName string, warnings []Warning) ([]*runtimeapi.HugepageLimit, []Warning) {
	if len(pageSizes) == 0 {
		return nil, warnings
	}
	out := make([]*runtimeapi.HugepageLimit, len(pageSizes))
	for i, size := range pageSizes {
		out[i] = &runtimeapi.HugepageLimit{PageSize: size}
	}
	for _, list := range [2]v1.ResourceList{podLimits, ctrLimits} {
		var names []v1.ResourceName
		for name := range list {
			if strings.HasPrefix(string(name), v1.ResourceHugePagesPrefix) {
				names = append(names, name)
			}
		}
		slices.Sort(names)
		for _, name := range names {
			key, err := hugePageKey(name)
			if err != nil {
				warnings = append(warnings, Warning{Kind: WarningHugePageLimitIgnored,
					Message: fmt.Sprintf("container %q: ignoring hugepage limit %q: %v", ctrName, name, err)})
				continue
			}
			q := list[name]
			for _, l := range out {
				if l.PageSize == key {
					l.Limit = uint64(q.Value())
				}
			}
		}
	}
	return out, warnings
}

// hugePageSizeKeysFromDirNames turns the entries of /sys/kernel/mm/hugepages ("hugepages-2048kB")
// into page-size keys, named and ordered as kubelet lists them (opencontainers/cgroups
// HugePageSizes): whole GB from 1GiB up, else whole MB from 1MiB up, else the KB count as
// written; in the order a 64-bit kernel lists that sysfs directory. Kubelet takes the directory
// order as it comes, and every container's HugepageLimits follow it, so sorting by size would
// reorder them on arm64 (2MB, 32MB, 64KB, 1GB) and ppc64 (16GB, 16MB). The order is computed
// from the names, not read, so the result does not depend on the order of names. Other names
// are skipped; two names for one size give one key.
func hugePageSizeKeysFromDirNames(names []string) []string {
	type entry struct {
		hash uint32
		name string
		key  string
	}
	var entries []entry
	for _, n := range names {
		digits, ok := strings.CutPrefix(n, "hugepages-")
		if !ok {
			continue
		}
		digits, ok = strings.CutSuffix(digits, "kB")
		if !ok {
			continue
		}
		kb, err := strconv.Atoi(digits)
		if err != nil {
			continue
		}
		key := digits + "KB"
		switch {
		case kb >= 1<<20:
			key = strconv.Itoa(kb>>20) + "GB"
		case kb >= 1<<10:
			key = strconv.Itoa(kb>>10) + "MB"
		}
		entries = append(entries, entry{kernfsNameHash(n), n, key})
	}
	slices.SortFunc(entries, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.hash, b.hash), strings.Compare(a.name, b.name))
	})
	keys := make([]string, 0, len(entries))
	for _, e := range entries {
		if !slices.Contains(keys, e.key) {
			keys = append(keys, e.key)
		}
	}
	return keys
}

// kernfsNameHash is the hash by which the kernel's sysfs (kernfs) keeps and lists the entries of
// a directory: ascending hash, then name. This is kernfs_name_hash of 64-bit kernels since 4.8
// (which finish the hash with hash_long) for entries without a namespace tag, as sysfs hugepage
// directories are.
func kernfsNameHash(name string) uint32 {
	const goldenRatio64 = 0x61C8864680B583EB
	var h uint64
	for i := 0; i < len(name); i++ {
		c := uint64(name[i])
		h = (h + c<<4 + c>>4) * 11
	}
	v := uint32((h*goldenRatio64)>>32) & 0x7fffffff
	// The kernel reserves 0, 1 and 0x7fffffff for "." and ".." and the end of a listing.
	switch {
	case v < 2:
		v += 2
	case v >= 0x7fffffff:
		v = 0x7fffffff - 1
	}
	return v
}
