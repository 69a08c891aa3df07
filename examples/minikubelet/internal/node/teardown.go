package node

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/podconfig/podconfig/logs"
	"github.com/podconfig/podconfig/podruntime"
)

// The teardown's retries of what the runtime refuses for a moment: containerd 1.6 can lose its
// shim connection to a container that is exiting while it is stopped, and containerd 2.x still
// holds a container as running for a moment after StopContainer returned, refusing to remove
// it. Kubelet retries on its next sync and its next garbage collection.
const (
	killAttempts   = 3
	removeAttempts = 5
	retryStep      = 200 * time.Millisecond
)

// teardown undoes everything the pod's run made, in reverse: it stops the pod (podruntime's
// KillPod, each container after its grace period capped by Config.StopTimeout, sidecars last),
// reads its final status, removes its containers and sandboxes (GarbageCollectPod for a removed
// pod, which also removes a sandbox whose RunPodSandbox failed half-way, found by the pod's UID
// label), then subPath bind mounts, volumes, and the pod's data and log directories. It carries
// on past errors and returns them all. The pod directory is removed only when everything before
// succeeded, and then with subpath.CleanupPodDir, which walks it through descriptors without
// following symlinks and stops at anything still mounted, so a mount that could not be undone
// never exposes what it points at to the removal, even when the root directory is reached
// through a symlink.
func (r *podRun) teardown(ctx context.Context) error {
	errs := r.removeFromRuntime(ctx)
	r.stopFollowers()
	r.n.rt.ForgetPod(r.pod)

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
	if dir := r.podLogsDir(); dir != "" {
		if err := r.n.sub.RemoveAllOneFilesystem(dir); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// podLogsDir is the pod's log directory, which podruntime's SyncPod made before the sandbox, or
// "" when the node has no absolute logs directory or the pod's names cannot make one.
func (r *podRun) podLogsDir() string {
	root := r.n.cfg.PodLogsDir
	if !filepath.IsAbs(root) {
		return ""
	}
	dir := logs.BuildPodLogsDirectory(root, r.pod.Namespace, r.pod.Name, r.pod.UID)
	// One element below the root, never the root itself or anything beside it.
	if filepath.Dir(dir) != filepath.Clean(root) || dir != filepath.Clean(dir) {
		return ""
	}
	return dir
}

// removeFromRuntime stops the pod and removes what the runtime holds of it, retrying as kubelet
// would, and fails when anything of the pod is left in the runtime.
func (r *podRun) removeFromRuntime(ctx context.Context) []error {
	rt := r.n.rt
	grace := r.gracePeriodOverride()
	var running *podruntime.PodStatus
	err := retry(ctx, killAttempts, func() error {
		st, err := rt.GetPodStatus(ctx, r.pod.UID, r.pod.Name, r.pod.Namespace)
		if err != nil {
			return err
		}
		if running == nil {
			running = st
		}
		return rt.KillPod(ctx, r.pod, st, grace)
	})
	var errs []error
	if err != nil {
		errs = append(errs, fmt.Errorf("KillPod: %w", err))
	}
	if st, err := rt.GetPodStatus(ctx, r.pod.UID, r.pod.Name, r.pod.Namespace); err == nil {
		// A stopped sandbox shows no IPs: the final status keeps those the pod had, as kubelet's
		// SyncTerminatingPod does.
		if running != nil {
			st.IPs = running.IPs
		}
		r.observe(st, true)
	}
	if err := retry(ctx, removeAttempts, func() error { return rt.GarbageCollectPod(ctx, r.pod.UID, true) }); err != nil {
		errs = append(errs, err)
	}
	st, err := rt.GetPodStatus(ctx, r.pod.UID, r.pod.Name, r.pod.Namespace)
	switch {
	case err != nil:
		errs = append(errs, err)
	case len(st.ContainerStatuses)+len(st.SandboxStatuses) > 0:
		errs = append(errs, fmt.Errorf("%d containers and %d sandboxes of the pod left in the runtime", len(st.ContainerStatuses), len(st.SandboxStatuses)))
	}
	return errs
}

// gracePeriodOverride caps the containers' grace period at Config.StopTimeout; nil when it does
// not lower the pod's own.
func (r *podRun) gracePeriodOverride() *int64 {
	limit := int64(r.n.cfg.StopTimeout.Seconds())
	if limit <= 0 {
		return nil
	}
	grace := int64(30)
	if r.pod.DeletionGracePeriodSeconds != nil {
		grace = *r.pod.DeletionGracePeriodSeconds
	} else if r.pod.Spec.TerminationGracePeriodSeconds != nil {
		grace = *r.pod.Spec.TerminationGracePeriodSeconds
	}
	if grace <= limit {
		return nil
	}
	return &limit
}

// retry calls fn up to attempts times, waiting longer after each failure, and returns its last
// error.
func retry(ctx context.Context, attempts int, fn func() error) error {
	var err error
	for i := range attempts {
		if err = fn(); err == nil {
			return nil
		}
		if i == attempts-1 {
			break
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(i+1) * retryStep):
		}
	}
	return err
}
