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

// HugePageUnitSizeFromByteSize formats a hugepage size the way cgroup hugetlb files and CRI name
// it ("2MB", "1GB", "64KB"), as kubelet's v1helper.HugePageUnitSizeFromByteSize does. A size that
// is not a whole number of its largest unit is an error.
func HugePageUnitSizeFromByteSize(size int64) (string, error) {
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
	return HugePageUnitSizeFromByteSize(size.Value())
}

// hugepageLimits is kubelet's GetHugepageLimitsFromResources: one entry per node page size with
// limit 0, then the pod-level hugepage limits (podLimits, may be nil) and then the container's
// limits set the byte limit of their page size, so the container wins. Limits whose page size
// the node lacks, and names that do not parse, are skipped; the latter come back as warnings.
// When two names give the same page size ("hugepages-2Mi", "hugepages-2048Ki"), the one that
// sorts last wins, where kubelet's map order picks one at random.
func hugepageLimits(pageSizes []string, podLimits, ctrLimits v1.ResourceList, ctrName string, warnings []string) ([]*runtimeapi.HugepageLimit, []string) {
	if len(pageSizes) == 0 {
		return nil, warnings
	}
	vals := make([]runtimeapi.HugepageLimit, len(pageSizes))
	out := make([]*runtimeapi.HugepageLimit, len(pageSizes))
	for i := range vals {
		vals[i].PageSize = pageSizes[i]
		out[i] = &vals[i]
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
				warnings = append(warnings, fmt.Sprintf("container %q: ignoring hugepage limit %q: %v", ctrName, name, err))
				continue
			}
			q := list[name]
			for i := range vals {
				if vals[i].PageSize == key {
					vals[i].Limit = uint64(q.Value())
				}
			}
		}
	}
	return out, warnings
}

// HugePageSizeKeysFromDirNames turns the entries of /sys/kernel/mm/hugepages ("hugepages-2048kB")
// into page-size keys sorted by size, smallest first; other names are skipped.
func HugePageSizeKeysFromDirNames(names []string) []string {
	type size struct {
		bytes int64
		key   string
	}
	var sizes []size
	for _, n := range names {
		kb, ok := strings.CutPrefix(n, "hugepages-")
		if !ok {
			continue
		}
		kb, ok = strings.CutSuffix(kb, "kB")
		if !ok {
			continue
		}
		v, err := strconv.ParseInt(kb, 10, 64)
		if err != nil || v <= 0 || v > 1<<53 {
			continue
		}
		key, err := HugePageUnitSizeFromByteSize(v * 1024)
		if err != nil {
			continue
		}
		sizes = append(sizes, size{v, key})
	}
	slices.SortFunc(sizes, func(a, b size) int { return cmp.Compare(a.bytes, b.bytes) })
	keys := make([]string, 0, len(sizes))
	for _, s := range sizes {
		if !slices.Contains(keys, s.key) {
			keys = append(keys, s.key)
		}
	}
	return keys
}
