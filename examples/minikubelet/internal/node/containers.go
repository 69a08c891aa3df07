package node

import (
	"context"
	"slices"
	"time"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/podruntime"
)

// maxAttemptsKept bounds a container's Attempts in its status: a container that keeps exiting
// for days does not grow the node's memory.
const maxAttemptsKept = 64

// observe takes in what the runtime holds of the pod: each container attempt not seen before
// gets an Attempt and a follower streaming its log; an attempt seen exited for the first time
// gets the rest of its log, its exit code, reason and message (the runtime's, then the
// termination message, as kubelet reports it). It returns the pod's status as kubelet generates
// it from the same view, and keeps it for the next one; terminal says the pod was stopped for
// good.
func (r *podRun) observe(st *podruntime.PodStatus, terminal bool) v1.PodStatus {
	attempts := slices.Clone(st.ContainerStatuses)
	slices.Reverse(attempts) // the oldest first, so Attempts are in order
	for _, cs := range attempts {
		c := r.status.container(cs.Name)
		if c == nil {
			continue
		}
		a := c.attempt(cs.ID.ID)
		if a == nil {
			if len(c.Attempts) == maxAttemptsKept {
				c.Attempts = append(c.Attempts[:0], c.Attempts[1:]...)
			}
			c.Attempts = append(c.Attempts, Attempt{ID: cs.ID.ID, RestartCount: cs.RestartCount, LogPath: cs.LogPath})
			a = &c.Attempts[len(c.Attempts)-1]
			r.mu.Lock()
			r.followers[cs.ID.ID] = r.n.follow(cs.LogPath, r.name()+"/"+cs.Name)
			r.mu.Unlock()
		}
		a.Annotations = cs.Annotations
		if cs.State != podruntime.ContainerStateExited || a.Exited {
			continue
		}
		r.mu.Lock()
		f := r.followers[cs.ID.ID]
		delete(r.followers, cs.ID.ID)
		r.mu.Unlock()
		if f != nil {
			a.Log = f.Stop()
		}
		a.Exited, a.ExitCode, a.Reason, a.Message = true, int32(cs.ExitCode), cs.Reason, cs.Message
		r.n.cfg.Logf("pod %s: container %s exited with code %d (%s)", r.name(), cs.Name, cs.ExitCode, cs.Reason)
	}
	api := r.n.rt.GenerateAPIPodStatus(r.pod, st, r.apiStatus, terminal)
	r.apiStatus = &api
	r.status.Pod = &api
	r.status.PodIPs = nil
	for _, ip := range api.PodIPs {
		r.status.PodIPs = append(r.status.PodIPs, ip.IP)
	}
	if len(st.SandboxStatuses) > 0 {
		r.status.SandboxID = st.SandboxStatuses[0].GetId()
	}
	r.noteStarted(st)
	return api
}

// noteStarted completes Timing once every regular container has started.
func (r *podRun) noteStarted(st *podruntime.PodStatus) {
	r.genMu.Lock()
	defer r.genMu.Unlock()
	if r.started || len(r.pod.Spec.Containers) == 0 {
		return
	}
	for _, c := range r.pod.Spec.Containers {
		if s := st.FindContainerStatusByName(c.Name); s == nil || s.State == podruntime.ContainerStateCreated {
			return
		}
	}
	r.started = true
	r.status.Timing.Start = time.Since(r.start)
	r.n.cfg.Logf("pod %s started in %v (podconfig %v)", r.name(), r.status.Timing.Start, r.status.Timing.Generate)
}

// stopFollowers stops the followers of the containers that did not exit.
func (r *podRun) stopFollowers() {
	r.mu.Lock()
	followers := r.followers
	r.followers = map[string]*follower{}
	r.mu.Unlock()
	for _, f := range followers {
		f.Stop()
	}
}

// timedGenerator is the node's Generator as podruntime calls it: the time it spends on a pod
// before the pod has started counts in the pod's Timing.
type timedGenerator struct {
	*configgen.Generator
	n *Node
}

func (g timedGenerator) GeneratePodSandboxConfig(ctx context.Context, pod *v1.Pod, attempt uint32) (*runtimeapi.PodSandboxConfig, error) {
	defer g.timed(pod, time.Now())
	return g.Generator.GeneratePodSandboxConfig(ctx, pod, attempt)
}

func (g timedGenerator) GenerateContainerConfig(ctx context.Context, req configgen.ContainerRequest) (*runtimeapi.ContainerConfig, error) {
	defer g.timed(req.Pod, time.Now())
	return g.Generator.GenerateContainerConfig(ctx, req)
}

func (g timedGenerator) timed(pod *v1.Pod, start time.Time) {
	if pod == nil {
		return
	}
	g.n.runningMu.Lock()
	r := g.n.runs[pod.UID]
	g.n.runningMu.Unlock()
	if r != nil {
		r.generated(time.Since(start))
	}
}

// logEvent logs an event podruntime records, as kubelet's recorder would send it.
func (n *Node) logEvent(e podruntime.Event) {
	where := ""
	if e.Container != "" {
		where = "container " + e.Container + ": "
	}
	n.cfg.Logf("pod %s/%s: %s%s: %s", e.Pod.Namespace, e.Pod.Name, where, e.Reason, e.Message)
}
