package volumes

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/resources"
)

// emptyDirMode is the mode of an emptyDir's directory and of the atomic-writer volumes' root.
const emptyDirMode = 0o777

// setUpEmptyDir is the emptyDir plugin's SetUp (kubelet: emptyDir.SetUpAt).
func (m *Manager) setUpEmptyDir(ctx context.Context, pod *v1.Pod, name string, src *v1.EmptyDirVolumeSource) (mounts.Volume, error) {
	var size int64
	if src.Medium == v1.StorageMediumMemory {
		var err error
		if size, err = m.memorySize(ctx, pod, src.SizeLimit); err != nil {
			return mounts.Volume{}, err
		}
	}
	dir, _, err := m.setUpEmptyDirAt(pod, emptyDirPlugin, name, name, src.Medium, size)
	if err != nil {
		return mounts.Volume{}, err
	}
	return mounts.Volume{HostPath: dir, SELinuxRelabel: true, MounterType: "*emptydir.emptyDir"}, nil
}

// setUpEmptyDirAt makes <podDir>/volumes/<plugin>/<name> an emptyDir of medium: a directory of
// mode 0777, a tmpfs of size bytes (0: the kernel's default) or a hugetlbfs, then the fsGroup
// pass with the read-write mask and the ready marker <podDir>/plugins/kubernetes.io~empty-dir/
// <metaName>/ready. A volume already ready is left as it is (kubelet: no ownership pass then
// either). created says the directory did not exist before. On error what this call made is
// removed.
func (m *Manager) setUpEmptyDirAt(pod *v1.Pod, plugin, name, metaName string, medium v1.StorageMedium, size int64) (dir string, created bool, err error) {
	h := m.host()
	podDir := m.PodDir(pod)
	rel := filepath.Join("volumes", plugin, name)
	dir = filepath.Join(podDir, rel)
	metaRel := filepath.Join("plugins", emptyDirPlugin, metaName)
	_, statErr := h.Stat(dir)
	created = statErr != nil
	mounted := false
	if !created {
		if mounted, err = h.IsMountPoint(dir); err != nil {
			return "", false, err
		}
	}
	if _, rerr := h.Stat(filepath.Join(podDir, metaRel, "ready")); rerr == nil {
		switch {
		case medium == v1.StorageMediumMemory && mounted:
			return dir, false, nil
		case medium == v1.StorageMediumDefault && !created:
			return dir, false, nil
		}
	}
	undo := func(err error) (string, bool, error) {
		if created {
			if mounted, _ := h.IsMountPoint(dir); mounted {
				_ = h.Unmount(dir)
			}
			_ = h.RemoveAll(dir)
		}
		return "", false, err
	}

	var pageSize string
	switch {
	case medium == v1.StorageMediumDefault, medium == v1.StorageMediumMemory:
	case isHugePageMedium(medium):
		if pageSize, err = hugePageSizeOption(medium, pod, !m.DisablePodLevelResources); err != nil {
			return "", false, err
		}
	default:
		return "", false, fmt.Errorf("unknown storage medium %q", medium)
	}
	if err := h.MakeDir(podDir, filepath.Join("volumes", plugin), 0o755); err != nil {
		return "", false, err
	}
	if err := h.MakeDir(podDir, rel, emptyDirMode); err != nil {
		return "", false, err
	}
	fsys, err := h.OpenVolume(dir)
	if err != nil {
		return undo(err)
	}
	fi, err := fsys.Lstat(".")
	if err == nil && fi.Mode().Perm() != emptyDirMode {
		err = fsys.Chmod(".", fi.Mode()&^0o777|emptyDirMode)
	}
	closeFS(fsys)
	if err != nil {
		return undo(err)
	}
	switch {
	case medium == v1.StorageMediumMemory && !mounted:
		var opts []string
		if size > 0 {
			opts = append(opts, fmt.Sprintf("size=%d", size))
		}
		// noswap keeps a secret out of swap where the kernel has it (6.4+); an older kernel
		// refuses the option and gets the mount without it, as kubelet's probe decides.
		if err := h.Mount("tmpfs", dir, "tmpfs", append(opts, "noswap")); err != nil {
			if err := h.Mount("tmpfs", dir, "tmpfs", opts); err != nil {
				return undo(err)
			}
		}
	case isHugePageMedium(medium) && !mounted:
		if err := h.Mount("nodev", dir, "hugetlbfs", []string{pageSize}); err != nil {
			return undo(err)
		}
	}
	if fsGroup := fsGroupOf(pod); fsGroup != nil {
		if fsys, err := h.OpenVolume(dir); err == nil {
			_ = ChangeOwnership(fsys, fsGroup, false)
			closeFS(fsys)
		}
	}
	if err := h.MakeDir(podDir, metaRel, 0o750); err != nil {
		return undo(err)
	}
	if err := h.CreateFile(filepath.Join(podDir, metaRel, "ready"), 0o644); err != nil {
		return undo(err)
	}
	return dir, created, nil
}

// tearDownAt removes the ready marker, unmounts the volume directory if it is a mount point, and
// removes it without crossing a mount or following a symlink (kubelet: emptyDir.TearDownAt).
func (m *Manager) tearDownAt(pod *v1.Pod, plugin, name, metaName string) error {
	h := m.host()
	podDir := m.PodDir(pod)
	metaDir := filepath.Join(podDir, "plugins", emptyDirPlugin, metaName)
	if err := h.RemoveAll(metaDir); err != nil {
		return fmt.Errorf("failed to remove ready dir [%s]: %v", metaDir, err)
	}
	dir := filepath.Join(podDir, "volumes", plugin, name)
	if _, err := h.Stat(dir); err != nil {
		if isNotExist(err) {
			return nil
		}
		return err
	}
	mounted, err := h.IsMountPoint(dir)
	if err != nil {
		return err
	}
	if mounted {
		if err := h.Unmount(dir); err != nil {
			return err
		}
	}
	return h.RemoveAll(dir)
}

// memorySize is the size of a memory-backed volume (kubelet: calculateEmptyDirMemorySize): the
// node's allocatable memory, or the pod's memory limit when the pod has one below it, or the
// volume's sizeLimit when set and lower still.
func (m *Manager) memorySize(ctx context.Context, pod *v1.Pod, sizeLimit *resource.Quantity) (int64, error) {
	alloc, err := nodeAllocatable(ctx, m.Sources.Node)
	if err != nil {
		return 0, err
	}
	size := alloc.Memory().Value()
	if limit, ok := podMemoryLimit(pod, !m.DisablePodLevelResources); ok && limit > 0 && limit <= size {
		size = limit
	}
	if sizeLimit != nil && sizeLimit.Value() > 0 && sizeLimit.Value() <= size {
		size = sizeLimit.Value()
	}
	return size, nil
}

// podMemoryLimit is the memory limit of the pod's cgroup (kubelet: ResourceConfigForPod's
// Memory): set for Guaranteed pods, and for Burstable ones when every init and regular container
// has a memory limit or the pod has a pod-level one; the pod's limits plus the memory overhead.
func podMemoryLimit(pod *v1.Pod, podLevel bool) (int64, bool) {
	declared := true
	for _, cs := range [][]v1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range cs {
			if cs[i].Resources.Limits.Memory().IsZero() {
				declared = false
			}
		}
	}
	if podLevel && resources.IsPodLevelResourcesSet(pod) && !pod.Spec.Resources.Limits.Memory().IsZero() {
		declared = true
	}
	switch resources.GetPodQOS(pod, podLevel) {
	case v1.PodQOSGuaranteed:
	case v1.PodQOSBurstable:
		if !declared {
			return 0, false
		}
	default:
		return 0, false
	}
	q, ok := resources.PodLimits(pod, podLevel)[v1.ResourceMemory]
	if !ok {
		return 0, true
	}
	if o, ok := pod.Spec.Overhead[v1.ResourceMemory]; ok {
		q.Add(o)
	}
	return q.Value(), true
}

func isHugePageMedium(m v1.StorageMedium) bool {
	return m == v1.StorageMediumHugePages || strings.HasPrefix(string(m), string(v1.StorageMediumHugePagesPrefix))
}

// hugePageSizeOption is the hugetlbfs pagesize option for the medium (kubelet:
// getPageSizeMountOption).
func hugePageSizeOption(medium v1.StorageMedium, pod *v1.Pod, podLevel bool) (string, error) {
	var want resource.Quantity
	if medium != v1.StorageMediumHugePages {
		// A size that is no quantity fails with the parser's own error, as in kubelet.
		q, err := resource.ParseQuantity(strings.TrimPrefix(string(medium), string(v1.StorageMediumHugePagesPrefix)))
		if err != nil {
			return "", err
		}
		want = q
	}
	var lists []v1.ResourceList
	if podLevel && resources.IsPodLevelResourcesSet(pod) {
		lists = append(lists, pod.Spec.Resources.Requests)
	}
	for _, cs := range [][]v1.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for i := range cs {
			lists = append(lists, cs[i].Resources.Requests)
		}
	}
	found := false
	var size resource.Quantity
	for _, l := range lists {
		for name := range l {
			if !strings.HasPrefix(string(name), v1.ResourceHugePagesPrefix) {
				continue
			}
			cur, err := resource.ParseQuantity(strings.TrimPrefix(string(name), v1.ResourceHugePagesPrefix))
			if err != nil {
				return "", err
			}
			if medium == v1.StorageMediumHugePages {
				if found && size.Cmp(cur) != 0 {
					return "", fmt.Errorf("medium: %s can't be used if container requests multiple huge page sizes", medium)
				}
				found, size = true, cur
			} else if cur.Cmp(want) == 0 {
				found, size = true, cur
			}
		}
	}
	if !found {
		return "", fmt.Errorf("medium %s: hugePages storage requested, but there is no resource request for huge pages", medium)
	}
	return "pagesize=" + size.String(), nil
}
