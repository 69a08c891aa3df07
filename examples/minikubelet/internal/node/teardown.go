package node

import (
	"context"
	"errors"
	"fmt"
	"time"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
)

// teardown undoes everything the pod's run made, in reverse: containers, the sandbox (also one
// whose RunPodSandbox failed half-way, found by the pod's UID label), subPath bind mounts, volumes,
// and the pod's data and log directories. It carries on past errors and returns them all. The
// pod directory is removed only when everything before succeeded, and then with
// subpath.CleanupPodDir, which walks it through descriptors without following symlinks and stops
// at anything still mounted, so a mount that could not be undone never exposes what it points at
// to the removal, even when the root directory is reached through a symlink.
func (r *podRun) teardown(ctx context.Context) error {
	var errs []error
	grace := int64(30)
	if r.pod.Spec.TerminationGracePeriodSeconds != nil {
		grace = *r.pod.Spec.TerminationGracePeriodSeconds
	}
	if r.n.cfg.StopTimeout > 0 && grace > int64(r.n.cfg.StopTimeout.Seconds()) {
		grace = int64(r.n.cfg.StopTimeout.Seconds())
	}
	r.mu.Lock()
	created := r.created
	followers := r.followers
	r.mu.Unlock()
	for i := len(created) - 1; i >= 0; i-- {
		id := created[i]
		if err := r.stopContainer(ctx, id, grace); err != nil {
			errs = append(errs, err)
		}
		if err := r.removeContainer(ctx, id); err != nil {
			errs = append(errs, err)
		}
	}
	for _, f := range followers {
		f.Stop()
	}
	errs = append(errs, r.removeSandboxes(ctx)...)

	if r.podDir != "" {
		for _, vol := range r.pod.Spec.Volumes {
			if err := r.n.sub.CleanSubPaths(r.podDir, vol.Name); err != nil {
				errs = append(errs, err)
			}
		}
	}
	errs = append(errs, r.tearDownVolumes()...)
	if r.podDir != "" {
		if len(errs) > 0 {
			// Something may still be mounted or running: kubelet leaves such a pod's directory for
			// a later cleanup, and so does this node.
			errs = append(errs, fmt.Errorf("pod directory %s kept", r.podDir))
		} else if err := r.n.sub.CleanupPodDir(r.podDir); err != nil {
			errs = append(errs, err)
		}
	}
	// The log directory's names were checked when the sandbox's config was generated.
	if r.sandbox != nil {
		if err := r.n.sub.RemoveAllOneFilesystem(r.sandbox.LogDirectory); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// stopContainer stops a container, retrying as kubelet's next sync would when the runtime fails
// (containerd 1.6 can lose its shim connection to a container that is exiting at that moment);
// a container the runtime reports exited counts as stopped.
func (r *podRun) stopContainer(ctx context.Context, id string, grace int64) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if _, err = r.n.cfg.Runtime.StopContainer(ctx, &runtimeapi.StopContainerRequest{ContainerId: id, Timeout: grace}); err == nil {
			return nil
		}
		st, serr := r.n.cfg.Runtime.ContainerStatus(ctx, &runtimeapi.ContainerStatusRequest{ContainerId: id})
		if serr == nil && st.GetStatus().GetState() == runtimeapi.ContainerState_CONTAINER_EXITED {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("StopContainer %s: %w", id, err)
		case <-time.After(time.Duration(attempt+1) * 200 * time.Millisecond):
		}
	}
	return fmt.Errorf("StopContainer %s: %w", id, err)
}

// removeContainer removes a stopped container, retrying as kubelet's container garbage
// collector would on its next pass: containerd 2.x can still hold a container as running for a
// moment after StopContainer returned, until it has handled the exit, and refuses to remove it
// meanwhile.
func (r *podRun) removeContainer(ctx context.Context, id string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if _, err = r.n.cfg.Runtime.RemoveContainer(ctx, &runtimeapi.RemoveContainerRequest{ContainerId: id}); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("RemoveContainer %s: %w", id, err)
		case <-time.After(time.Duration(attempt+1) * 200 * time.Millisecond):
		}
	}
	return fmt.Errorf("RemoveContainer %s: %w", id, err)
}

// removeSandboxes stops and removes the pod's sandbox and any other sandbox the runtime holds for
// the pod's UID, as kubelet cleans up after a RunPodSandbox that failed.
func (r *podRun) removeSandboxes(ctx context.Context) []error {
	var errs []error
	ids := map[string]bool{}
	if r.sandboxID != "" {
		ids[r.sandboxID] = true
	}
	list, err := r.n.cfg.Runtime.ListPodSandbox(ctx, &runtimeapi.ListPodSandboxRequest{
		Filter: &runtimeapi.PodSandboxFilter{LabelSelector: map[string]string{configgen.LabelPodUID: string(r.pod.UID)}},
	})
	if err != nil {
		errs = append(errs, fmt.Errorf("ListPodSandbox: %w", err))
	}
	for _, sb := range list.GetItems() {
		ids[sb.Id] = true
	}
	for id := range ids {
		if _, err := r.n.cfg.Runtime.StopPodSandbox(ctx, &runtimeapi.StopPodSandboxRequest{PodSandboxId: id}); err != nil {
			errs = append(errs, fmt.Errorf("StopPodSandbox %s: %w", id, err))
		}
		if _, err := r.n.cfg.Runtime.RemovePodSandbox(ctx, &runtimeapi.RemovePodSandboxRequest{PodSandboxId: id}); err != nil {
			errs = append(errs, fmt.Errorf("RemovePodSandbox %s: %w", id, err))
		}
	}
	return errs
}
