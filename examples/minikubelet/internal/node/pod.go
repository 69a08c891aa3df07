package node

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/podruntime"
	"github.com/podconfig/podconfig/validation"
)

// teardownTimeout bounds the teardown that follows a pod's end or cancellation.
const teardownTimeout = 2 * time.Minute

// pollInterval is how often the node reads what the runtime holds of a running pod (kubelet's
// PLEG relists every second).
const pollInterval = 100 * time.Millisecond

// resyncInterval is how long a pod in which nothing changed waits for its next sync (kubelet
// resyncs every minute, and when a back-off ends).
const resyncInterval = 10 * time.Second

// RunPod runs the pod until it ends or ctx is done, then tears it down: containers, sandbox,
// subPath mounts, volumes, and the pod's data and log directories. Each pass reads what the
// runtime holds of the pod (podruntime's GetPodStatus), generates its status as kubelet does,
// and, when the pod's phase is not terminal, drives it one step with podruntime's SyncPod. A
// pod ends when its phase is Succeeded or Failed; with restartPolicy Always it runs until ctx is
// done, which is then no error. A failure SyncPod reports that kubelet would retry ends the pod
// with an error here, since a manifest on a node without an API server never changes: a config
// podconfig refuses (CreateContainerConfigError), an image that cannot be had (ErrImagePull,
// ErrImageNeverPull), a sandbox that cannot be made (CreatePodSandboxError). Only the
// back-offs (CrashLoopBackOff) are waited out. An init container that fails and is not restarted
// ends the pod with an error too. The status is returned also then.
func (n *Node) RunPod(ctx context.Context, pod *v1.Pod) (*PodStatus, error) {
	pod = pod.DeepCopy()
	applyDefaults(pod, n.cfg.NodeName)
	// A pod from a file never passed an API server: what one would refuse, the node refuses.
	if err := validation.ValidateObject(pod); err != nil {
		return &PodStatus{UID: pod.UID}, err
	}
	if pod.Spec.RuntimeClassName != nil && *pod.Spec.RuntimeClassName != "" {
		return &PodStatus{UID: pod.UID}, fmt.Errorf("pod %s/%s: runtimeClassName is not supported: minikubelet has no RuntimeClass objects", pod.Namespace, pod.Name)
	}
	release, err := n.claim(pod)
	if err != nil {
		// Nothing was made, and nothing of the running pod's may be torn down.
		return &PodStatus{UID: pod.UID}, err
	}
	defer release()
	r := newPodRun(n, pod)
	n.runningMu.Lock()
	if n.runs == nil {
		n.runs = map[types.UID]*podRun{}
	}
	n.runs[pod.UID] = r
	n.runningMu.Unlock()
	defer func() {
		n.runningMu.Lock()
		delete(n.runs, pod.UID)
		n.runningMu.Unlock()
	}()
	err = r.run(ctx)
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || status.Code(err) == codes.Canceled) {
		// The caller ended the pod, maybe while a runtime call was in flight.
		err = nil
	}
	tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), teardownTimeout)
	defer cancel()
	if terr := r.teardown(tctx); terr != nil {
		err = errors.Join(err, fmt.Errorf("teardown: %w", terr))
	} else if n.userns != nil {
		n.userns.Release(pod.UID)
	}
	return r.status, err
}

// claim marks the pod as running on the node, by UID and by namespace/name, or fails naming the
// pod already running with either. release gives both up once the pod is torn down.
func (n *Node) claim(pod *v1.Pod) (release func(), err error) {
	uid, name := "uid:"+string(pod.UID), "name:"+pod.Namespace+"/"+pod.Name
	n.runningMu.Lock()
	defer n.runningMu.Unlock()
	if n.running[uid] {
		return nil, fmt.Errorf("pod %s/%s: a pod with UID %s is already running on this node", pod.Namespace, pod.Name, pod.UID)
	}
	if n.running[name] {
		return nil, fmt.Errorf("pod %s/%s is already running on this node", pod.Namespace, pod.Name)
	}
	if n.running == nil {
		n.running = map[string]bool{}
	}
	n.running[uid], n.running[name] = true, true
	return func() {
		n.runningMu.Lock()
		defer n.runningMu.Unlock()
		delete(n.running, uid)
		delete(n.running, name)
	}, nil
}

// podRun is one pod's run: what was made, so teardown can undo it, and what was seen of it.
type podRun struct {
	n      *Node
	pod    *v1.Pod
	status *PodStatus
	start  time.Time

	podDir  string
	volumes mounts.VolumeMap
	// volMu serialises the volumes' set-up, resyncs and teardown (volumes.Manager's calls for
	// one pod must not overlap); setUp lists the volumes volumes.Manager set up, volumesDown
	// says they were torn down.
	volMu       sync.Mutex
	setUp       []*v1.Volume
	volumesDown bool

	// apiStatus is the pod's status as kubelet last generated it.
	apiStatus *v1.PodStatus
	// started says every regular container has started once: Timing is complete. genMu guards
	// it and Timing.Generate, which the Generator's wrapper adds to.
	genMu   sync.Mutex
	started bool

	// followers stream the containers' logs, by container ID, until they exit.
	mu        sync.Mutex
	followers map[string]*follower
}

func newPodRun(n *Node, pod *v1.Pod) *podRun {
	r := &podRun{n: n, pod: pod, status: &PodStatus{UID: pod.UID}, start: time.Now(), followers: map[string]*follower{}}
	for _, c := range pod.Spec.InitContainers {
		r.status.InitContainers = append(r.status.InitContainers, ContainerStatus{Name: c.Name})
	}
	for _, c := range pod.Spec.Containers {
		r.status.Containers = append(r.status.Containers, ContainerStatus{Name: c.Name})
	}
	return r
}

func (r *podRun) name() string { return r.pod.Namespace + "/" + r.pod.Name }

// generated adds time the Generator spent on the pod before it had started.
func (r *podRun) generated(d time.Duration) {
	r.genMu.Lock()
	defer r.genMu.Unlock()
	if !r.started {
		r.status.Timing.Generate += d
	}
}

func (r *podRun) run(ctx context.Context) error {
	var err error
	if r.podDir, err = r.n.gen.PodDir(r.pod); err != nil {
		return err
	}
	if err := r.n.gen.MakePodDataDirs(r.pod); err != nil {
		return err
	}
	if r.volumes, err = r.setUpVolumes(ctx); err != nil {
		return err
	}
	var (
		lastSeen string
		nextSync time.Time
	)
	for {
		st, err := r.n.rt.GetPodStatus(ctx, r.pod.UID, r.pod.Name, r.pod.Namespace)
		if err != nil {
			return err
		}
		api := r.observe(st, false)
		if api.Phase == v1.PodSucceeded || api.Phase == v1.PodFailed {
			r.n.cfg.Logf("pod %s: %s", r.name(), api.Phase)
			return initFailure(r.pod, api)
		}
		// As kubelet's pod worker: sync when the runtime's view of the pod changed (PLEG),
		// when a back-off ends, and on the periodic resync.
		if seen := signature(st); seen != lastSeen || !time.Now().Before(nextSync) {
			lastSeen = seen
			result := r.sync(ctx, st)
			if err := r.fatal(result); err != nil {
				return err
			}
			nextSync = time.Now().Add(resyncInterval)
			if t, ok := result.MinBackoffExpiration(); ok && t.Before(nextSync) {
				nextSync = t
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pollInterval):
		}
	}
}

// sync runs one SyncPod pass. Its calls run to their end even when the pod is being stopped,
// as kubelet's do, so that teardown finds containers and sandboxes in a state the runtime can
// stop, not ones cut off half-way; runtimeCallTimeout bounds them.
func (r *podRun) sync(ctx context.Context, st *podruntime.PodStatus) podruntime.PodSyncResult {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), runtimeCallTimeout)
	defer cancel()
	return r.n.rt.SyncPod(sctx, r.pod, st, r.volumes)
}

// runtimeCallTimeout bounds a SyncPod pass.
const runtimeCallTimeout = 2 * time.Minute

// fatal returns the failure of a pass that ends the pod: any but the back-offs, which the next
// passes wait out. What podconfig refused is logged with its category and cause (%+v of a
// *configgen.Error).
func (r *podRun) fatal(result podruntime.PodSyncResult) error {
	if result.SyncError != nil {
		return fmt.Errorf("pod %s: %w", r.name(), result.SyncError)
	}
	for _, res := range result.SyncResults {
		if res.Error == nil || errors.Is(res.Error, podruntime.ErrCrashLoopBackOff) {
			continue
		}
		if res.Cause != nil {
			r.n.cfg.Logf("pod %s: %s %s: %+v", r.name(), res.Action, res.Target, res.Cause)
		}
		return fmt.Errorf("pod %s: %s %q: %w: %s", r.name(), res.Action, res.Target, res.Error, res.Message)
	}
	return nil
}

// initFailure is the error of a pod that failed because an init container failed for good.
func initFailure(pod *v1.Pod, api v1.PodStatus) error {
	if api.Phase != v1.PodFailed {
		return nil
	}
	for _, s := range api.InitContainerStatuses {
		t := s.State.Terminated
		if t == nil {
			t = s.LastTerminationState.Terminated
		}
		if t != nil && t.ExitCode != 0 && s.State.Running == nil {
			return fmt.Errorf("pod %s/%s: init container %q failed with exit code %d (restartPolicy %s)",
				pod.Namespace, pod.Name, s.Name, t.ExitCode, pod.Spec.RestartPolicy)
		}
	}
	return nil
}

// signature sums up the runtime's view of a pod: its sandboxes' and containers' IDs and states.
func signature(st *podruntime.PodStatus) string {
	s := ""
	for _, sb := range st.SandboxStatuses {
		s += sb.GetId() + "=" + sb.GetState().String() + ";"
	}
	for _, c := range st.ContainerStatuses {
		s += c.ID.ID + "=" + string(c.State) + ";"
	}
	return s
}
