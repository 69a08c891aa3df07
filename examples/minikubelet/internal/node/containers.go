package node

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/backoff"
	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/images"
	"github.com/podconfig/podconfig/logs"
)

// pollInterval is how often running containers' states are checked.
const pollInterval = 100 * time.Millisecond

// entry is a container of the pod under supervision: its current attempt and restart state.
type entry struct {
	c       *v1.Container
	status  *ContainerStatus
	init    bool // an init container that runs to completion
	sidecar bool // an init container with restartPolicy Always

	id         string // the current attempt's container; "" while a restart waits
	follower   *follower
	restarts   int
	finishedAt time.Time // when the last attempt exited
	nextStart  time.Time
	dead       []string // exited attempts' containers, oldest first, still in the runtime
	done       bool
}

// maxAttemptsKept bounds a container's Attempts in its status: a container that keeps exiting
// for days does not grow the node's memory.
const maxAttemptsKept = 64

// startAttempt pulls the image if the pull policy says so, generates the container's config with
// podconfig, and creates and starts the container. A restart first removes the exited attempts
// but the last, as kubelet's container garbage collector does with its default of one dead
// container per container.
func (r *podRun) startAttempt(ctx context.Context, e *entry) error {
	if err := r.removeDead(ctx, e, 1); err != nil {
		return err
	}
	imageRef, err := r.n.ensureImage(ctx, e.c, r.sandbox)
	if err != nil {
		return fmt.Errorf("pod %s: container %q: %w", r.name(), e.c.Name, err)
	}
	t := time.Now()
	cfg, err := r.n.gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{
		Pod: r.pod, Container: e.c, RestartCount: e.restarts, PodIPs: r.podIPs, ImageRef: imageRef, Volumes: r.volumes,
	})
	r.generated(time.Since(t))
	if err != nil {
		// Kubelet reports this as CreateContainerConfigError and never calls the runtime. Its
		// text is kubelet's; %+v adds the category and the cause beneath it (*configgen.Error).
		r.n.cfg.Logf("pod %s: container %s: %+v", r.name(), e.c.Name, err)
		return fmt.Errorf("CreateContainerConfigError: %w", err)
	}
	cctx, cancel := uncancelled(ctx)
	defer cancel()
	r.n.cfg.Logf("pod %s: creating container %s (restart %d)", r.name(), e.c.Name, e.restarts)
	resp, err := r.n.cfg.Runtime.CreateContainer(cctx, &runtimeapi.CreateContainerRequest{
		PodSandboxId: r.sandboxID, Config: cfg, SandboxConfig: r.sandbox,
	})
	if err != nil {
		return fmt.Errorf("pod %s: container %q: CreateContainer: %w", r.name(), e.c.Name, err)
	}
	r.mu.Lock()
	r.created = append(r.created, resp.ContainerId)
	r.mu.Unlock()

	logPath := filepath.Join(r.sandbox.LogDirectory, cfg.LogPath)
	e.id = resp.ContainerId
	if len(e.status.Attempts) == maxAttemptsKept {
		e.status.Attempts = append(e.status.Attempts[:0], e.status.Attempts[1:]...)
	}
	e.status.Attempts = append(e.status.Attempts, Attempt{ID: e.id, RestartCount: e.restarts, LogPath: logPath})
	old := e.follower
	e.follower = r.n.follow(logPath, r.name()+"/"+e.c.Name)
	r.mu.Lock()
	// The last attempt's follower was stopped when it exited: only the running one is kept.
	r.followers = slices.DeleteFunc(r.followers, func(f *follower) bool { return f == old })
	r.followers = append(r.followers, e.follower)
	r.mu.Unlock()
	if _, err := r.n.cfg.Runtime.StartContainer(cctx, &runtimeapi.StartContainerRequest{ContainerId: e.id}); err != nil {
		return fmt.Errorf("pod %s: container %q: StartContainer: %w", r.name(), e.c.Name, err)
	}
	r.n.cfg.Logf("pod %s: started container %s (restart %d)", r.name(), e.c.Name, e.restarts)
	return nil
}

// runtimeCallTimeout bounds a runtime call that changes state.
const runtimeCallTimeout = 2 * time.Minute

// uncancelled is ctx without its cancellation, with runtimeCallTimeout: a call that creates or
// starts something runs to its end even when the pod is being stopped, so that teardown finds a
// container or sandbox in a state the runtime can stop, not one cut off half-way.
func uncancelled(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), runtimeCallTimeout)
}

// supervise polls the entries' containers, records their exits and restarts them by restart
// policy, until until() holds or ctx is done.
func (r *podRun) supervise(ctx context.Context, entries []*entry, until func() bool) error {
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for {
		for _, e := range entries {
			if e.done {
				continue
			}
			if e.id == "" {
				if r.n.clock.Now().Before(e.nextStart) {
					continue
				}
				r.n.crashLoop.Next(backoff.GetBackoffKey(r.pod, e.c), e.finishedAt)
				if err := r.startAttempt(ctx, e); err != nil {
					return err
				}
				continue
			}
			exited, err := r.poll(ctx, e)
			if err != nil {
				return err
			}
			if !exited {
				continue
			}
			e.dead = append(e.dead, e.id)
			if !r.restarts(e) {
				e.done = true
				continue
			}
			e.restarts++
			e.id = ""
			r.scheduleRestart(e)
		}
		if until() {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// scheduleRestart sets when the exited container is started again, as kubelet's doBackOff
// decides: at once unless it is in its crash-loop back-off since it finished, else once the
// back-off has passed.
func (r *podRun) scheduleRestart(e *entry) {
	key := backoff.GetBackoffKey(r.pod, e.c)
	e.nextStart = r.n.clock.Now()
	if r.n.crashLoop.IsInBackOffSince(key, e.finishedAt) {
		e.nextStart = e.finishedAt.Add(r.n.crashLoop.Get(key))
	}
}

// removeDead removes the entry's exited containers from the runtime but its last keep ones.
func (r *podRun) removeDead(ctx context.Context, e *entry, keep int) error {
	for len(e.dead) > keep {
		id := e.dead[0]
		if _, err := r.n.cfg.Runtime.RemoveContainer(ctx, &runtimeapi.RemoveContainerRequest{ContainerId: id}); err != nil {
			return fmt.Errorf("pod %s: container %q: RemoveContainer %s: %w", r.name(), e.c.Name, id, err)
		}
		e.dead = e.dead[1:]
		r.mu.Lock()
		r.created = slices.DeleteFunc(r.created, func(c string) bool { return c == id })
		r.mu.Unlock()
	}
	return nil
}

// restarts says whether an exited container runs again: sidecars always, init containers when
// they failed and the pod may restart, regular containers by the pod's restart policy.
func (r *podRun) restarts(e *entry) bool {
	exit := e.status.Last().ExitCode
	switch {
	case e.sidecar:
		return true
	case e.init:
		return exit != 0 && r.pod.Spec.RestartPolicy != v1.RestartPolicyNever
	case r.pod.Spec.RestartPolicy == v1.RestartPolicyAlways:
		return true
	case r.pod.Spec.RestartPolicy == v1.RestartPolicyOnFailure:
		return exit != 0
	}
	return false
}

// poll checks the entry's current container and, once it has exited, completes its attempt: the
// rest of its log, its exit code and reason, and its message as kubelet reports it (the
// runtime's, then the termination message: logs.ContainerStatusMessage).
func (r *podRun) poll(ctx context.Context, e *entry) (bool, error) {
	resp, err := r.n.cfg.Runtime.ContainerStatus(ctx, &runtimeapi.ContainerStatusRequest{ContainerId: e.id})
	if err != nil {
		return false, fmt.Errorf("pod %s: container %q: ContainerStatus: %w", r.name(), e.c.Name, err)
	}
	st := resp.GetStatus()
	if st.GetState() != runtimeapi.ContainerState_CONTAINER_EXITED {
		return false, nil
	}
	e.finishedAt = r.n.clock.Now()
	if st.FinishedAt > 0 {
		e.finishedAt = time.Unix(0, st.FinishedAt)
	}
	a := e.status.Last()
	a.Log = e.follower.Stop()
	a.Exited = true
	a.ExitCode = st.ExitCode
	a.Reason = st.Reason
	a.Annotations = st.Annotations
	a.Message = logs.ContainerStatusMessage(st, e.c.TerminationMessagePolicy, e.c.TerminationMessagePath)
	r.n.cfg.Logf("pod %s: container %s exited with code %d (%s)", r.name(), e.c.Name, st.ExitCode, st.Reason)
	return true, nil
}

// ensureImage makes sure the container's image is present, pulling it when the pull policy says
// so, and returns the image reference the runtime resolved (kubelet's EnsureImageExists).
func (n *Node) ensureImage(ctx context.Context, c *v1.Container, sandbox *runtimeapi.PodSandboxConfig) (string, error) {
	return n.ensureImageRef(ctx, c.Image, c.ImagePullPolicy, sandbox)
}

// ensureImageRef is ensureImage for an image and pull policy: a container's or an image volume's.
func (n *Node) ensureImageRef(ctx context.Context, image string, policy v1.PullPolicy, sandbox *runtimeapi.PodSandboxConfig) (string, error) {
	spec := &runtimeapi.ImageSpec{Image: image}
	ref, err := images.GetImageRef(ctx, n.cfg.Images, spec)
	if err != nil {
		return "", fmt.Errorf("ImageStatus %q: %w", image, err)
	}
	if !images.ShouldPullImage(policy, ref != "") {
		if ref == "" {
			return "", errors.New("ErrImageNeverPull: " + images.ErrImageNeverPullMessage(image))
		}
		return ref, nil
	}
	n.cfg.Logf("pulling image %s", image)
	resp, err := n.cfg.Images.PullImage(ctx, &runtimeapi.PullImageRequest{Image: spec, SandboxConfig: sandbox})
	if err != nil {
		return "", fmt.Errorf("ErrImagePull: %w", err)
	}
	return resp.ImageRef, nil
}
