package podruntime

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
)

// MaxPerPodContainer is how many exited attempts of each container GarbageCollectPod keeps, as
// kubelet's default container GC policy (--maximum-dead-containers-per-container 1): the newest
// one, whose exit code, message and log the status and `kubectl logs --previous` show.
const MaxPerPodContainer = 1

// removeContainer removes a container from the runtime. Kubelet also removes the container's
// rotated logs and legacy log symlink, which this package does not make.
func (m *Manager) removeContainer(ctx context.Context, id string) error {
	_, err := m.opts.Runtime.RemoveContainer(ctx, &runtimeapi.RemoveContainerRequest{ContainerId: id})
	return err
}

// pruneInitContainersBeforeStart removes the exited (or unknown) attempts of each init
// container but the newest, before SyncPod starts anything, as kubelet does to spare its
// garbage collector. A failure is reported and skipped.
func (m *Manager) pruneInitContainersBeforeStart(ctx context.Context, pod *v1.Pod, podStatus *PodStatus) {
	for _, name := range initContainerNames(pod) {
		count := 0
		for _, s := range podStatus.ContainerStatuses {
			if s.Name != name || (s.State != ContainerStateExited && s.State != ContainerStateUnknown) {
				continue
			}
			count++
			if count == 1 {
				continue
			}
			if err := m.removeContainer(ctx, s.ID.ID); err != nil {
				m.warn(pod, "failed to remove pod init container %q: %v; Skipping pod %q", s.Name, err, podDesc(pod))
			}
		}
	}
}

// purgeInitContainers removes every attempt of every init container, before a new sandbox
// starts initialisation over (kubelet's purgeInitContainers). A failure is reported and skipped.
func (m *Manager) purgeInitContainers(ctx context.Context, pod *v1.Pod, podStatus *PodStatus) {
	for _, name := range initContainerNames(pod) {
		for _, s := range podStatus.ContainerStatuses {
			if s.Name != name {
				continue
			}
			if err := m.removeContainer(ctx, s.ID.ID); err != nil {
				m.warn(pod, "failed to remove pod init container %q: %v; Skipping pod %q", s.Name, err, podDesc(pod))
			}
		}
	}
}

func initContainerNames(pod *v1.Pod) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range pod.Spec.InitContainers {
		if !seen[c.Name] {
			seen[c.Name] = true
			out = append(out, c.Name)
		}
	}
	return out
}

// GarbageCollectPod removes what the runtime holds of a pod and no longer needs, as kubelet's
// container garbage collector does for one pod with its default policy. Containers that do not
// run are removed but the newest MaxPerPodContainer of each name, or all of them once the pod
// is removed (podRemoved: deleted and stopped); a container in an unknown state is stopped
// first. Then sandboxes that are not ready and hold no container are removed but the newest,
// or all of them once the pod is removed. Every failure is returned, joined; the next call
// retries them, as kubelet's next collection does.
func (m *Manager) GarbageCollectPod(ctx context.Context, uid types.UID, podRemoved bool) error {
	if err := m.built(); err != nil {
		return err
	}
	filter := map[string]string{configgen.LabelPodUID: string(uid)}
	containers, err := m.opts.Runtime.ListContainers(ctx, &runtimeapi.ListContainersRequest{Filter: &runtimeapi.ContainerFilter{LabelSelector: filter}})
	if err != nil {
		return fmt.Errorf("ListContainers: %w", err)
	}
	var errs []error
	byName := map[string][]*runtimeapi.Container{}
	for _, c := range containers.GetContainers() {
		if c.GetState() == runtimeapi.ContainerState_CONTAINER_RUNNING {
			continue
		}
		name := c.GetMetadata().GetName()
		byName[name] = append(byName[name], c)
	}
	// By name, so that the order of the runtime's calls is the same on every run (kubelet's is a
	// map's).
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		list := byName[name]
		keep := MaxPerPodContainer
		if podRemoved {
			keep = 0
		}
		errs = append(errs, m.removeOldestContainers(ctx, list, len(list)-keep)...)
	}
	errs = append(errs, m.removeInactiveSandboxes(ctx, filter, podRemoved)...)
	return errors.Join(errs...)
}

// removeOldestContainers removes the n oldest of list.
func (m *Manager) removeOldestContainers(ctx context.Context, list []*runtimeapi.Container, n int) []error {
	if n <= 0 {
		return nil
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].GetCreatedAt() > list[j].GetCreatedAt() })
	var errs []error
	for _, c := range list[len(list)-n:] {
		if c.GetState() == runtimeapi.ContainerState_CONTAINER_UNKNOWN {
			// It may still run: stop it before removing it.
			_, err := m.opts.Runtime.StopContainer(ctx, &runtimeapi.StopContainerRequest{ContainerId: c.GetId(), Timeout: minimumGracePeriodInSeconds})
			if err != nil && status.Code(err) != codes.NotFound {
				errs = append(errs, fmt.Errorf("StopContainer %s: %w", c.GetId(), err))
				continue
			}
		}
		if err := m.removeContainer(ctx, c.GetId()); err != nil && status.Code(err) != codes.NotFound {
			errs = append(errs, fmt.Errorf("RemoveContainer %s: %w", c.GetId(), err))
		}
	}
	return errs
}

// removeInactiveSandboxes removes the pod's sandboxes that neither are ready nor hold a
// container, but the newest unless the pod is removed.
func (m *Manager) removeInactiveSandboxes(ctx context.Context, filter map[string]string, podRemoved bool) []error {
	containers, err := m.opts.Runtime.ListContainers(ctx, &runtimeapi.ListContainersRequest{Filter: &runtimeapi.ContainerFilter{LabelSelector: filter}})
	if err != nil {
		return []error{fmt.Errorf("ListContainers: %w", err)}
	}
	sandboxes, err := m.opts.Runtime.ListPodSandbox(ctx, &runtimeapi.ListPodSandboxRequest{Filter: &runtimeapi.PodSandboxFilter{LabelSelector: filter}})
	if err != nil {
		return []error{fmt.Errorf("ListPodSandbox: %w", err)}
	}
	used := map[string]bool{}
	for _, c := range containers.GetContainers() {
		used[c.GetPodSandboxId()] = true
	}
	list := sandboxes.GetItems()
	sort.SliceStable(list, func(i, j int) bool { return list[i].GetCreatedAt() > list[j].GetCreatedAt() })
	if !podRemoved && len(list) > 0 {
		list = list[1:]
	}
	var errs []error
	for _, sb := range list {
		if sb.GetState() == runtimeapi.PodSandboxState_SANDBOX_READY || used[sb.GetId()] {
			continue
		}
		// The sandbox is stopped before it is removed, as kubelet's collector does.
		if _, err := m.opts.Runtime.StopPodSandbox(ctx, &runtimeapi.StopPodSandboxRequest{PodSandboxId: sb.GetId()}); err != nil && status.Code(err) != codes.NotFound {
			errs = append(errs, fmt.Errorf("StopPodSandbox %s: %w", sb.GetId(), err))
			continue
		}
		if _, err := m.opts.Runtime.RemovePodSandbox(ctx, &runtimeapi.RemovePodSandboxRequest{PodSandboxId: sb.GetId()}); err != nil && status.Code(err) != codes.NotFound {
			errs = append(errs, fmt.Errorf("RemovePodSandbox %s: %w", sb.GetId(), err))
		}
	}
	return errs
}
