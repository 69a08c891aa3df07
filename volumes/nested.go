package volumes

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
)

// nestedMountpoints lists, relative to the volume, the mount points other volumes of the pod have
// directly below where a container mounts this one (kubelet: getNestedMountpoints), so the
// volume can hold their directories before it is mounted read-only.
func nestedMountpoints(name string, pod *v1.Pod) ([]string, error) {
	var out []string
	check := func(c *v1.Container) error {
		var all, mine []string
		for _, vm := range c.VolumeMounts {
			cleaned := filepath.Clean(vm.MountPath)
			all = append(all, cleaned)
			if vm.Name == name {
				mine = append(mine, cleaned)
			}
		}
		slices.Sort(all)
		for _, mp := range mine {
			if strings.HasPrefix(mp, "../") {
				return fmt.Errorf("invalid container mount point %v", mp)
			}
			prefix := mp + "/"
			var prev []string
			for _, other := range all {
				if !strings.HasPrefix(other, prefix) {
					continue
				}
				if slices.ContainsFunc(prev, func(p string) bool { return strings.HasPrefix(other, p) }) {
					continue
				}
				prev = append(prev, other+"/")
				out = append(out, other[len(prefix):])
			}
		}
		return nil
	}
	for i := range pod.Spec.InitContainers {
		if err := check(&pod.Spec.InitContainers[i]); err != nil {
			return nil, err
		}
	}
	for i := range pod.Spec.Containers {
		if err := check(&pod.Spec.Containers[i]); err != nil {
			return nil, err
		}
	}
	for i := range pod.Spec.EphemeralContainers {
		c := v1.Container(pod.Spec.EphemeralContainers[i].EphemeralContainerCommon)
		if err := check(&c); err != nil {
			return nil, err
		}
	}
	return out, nil
}
