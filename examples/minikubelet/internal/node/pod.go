package node

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/backoff"
	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/validation"
)

// teardownTimeout bounds the teardown that follows a pod's end or cancellation.
const teardownTimeout = 2 * time.Minute

// RunPod runs the pod until it ends or ctx is done, then tears it down: containers, sandbox,
// subPath mounts, volumes, and the pod's data and log directories. A pod ends when its regular
// containers have exited and its restart policy restarts none of them; with restartPolicy Always
// it runs until ctx is done, which is then no error. An init container that fails under
// restartPolicy Never, and a container whose config podconfig refuses (kubelet's
// CreateContainerConfigError), end the pod with an error. The status is returned also then.
func (n *Node) RunPod(ctx context.Context, pod *v1.Pod) (*PodStatus, error) {
	pod = pod.DeepCopy()
	applyDefaults(pod, n.cfg.NodeName)
	// A pod from a file never passed an API server: what one would refuse, the node refuses.
	if err := validation.ValidateObject(pod); err != nil {
		return &PodStatus{UID: pod.UID}, err
	}
	release, err := n.claim(pod)
	if err != nil {
		// Nothing was made, and nothing of the running pod's may be torn down.
		return &PodStatus{UID: pod.UID}, err
	}
	defer release()
	r := &podRun{n: n, pod: pod, status: &PodStatus{UID: pod.UID}, start: time.Now()}
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
	for _, c := range pod.Spec.InitContainers {
		r.status.InitContainers = append(r.status.InitContainers, ContainerStatus{Name: c.Name})
	}
	for _, c := range pod.Spec.Containers {
		r.status.Containers = append(r.status.Containers, ContainerStatus{Name: c.Name})
	}
	err = r.run(ctx)
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || status.Code(err) == codes.Canceled) {
		// The caller ended the pod, maybe while a runtime call was in flight.
		err = nil
	}
	tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), teardownTimeout)
	defer cancel()
	if terr := r.teardown(tctx); terr != nil {
		err = errors.Join(err, fmt.Errorf("teardown: %w", terr))
	} else {
		n.userns.Release(pod.UID)
	}
	for _, c := range append(slices.Clone(pod.Spec.InitContainers), pod.Spec.Containers...) {
		n.crashLoop.Reset(backoff.GetBackoffKey(pod, &c))
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

// podRun is one pod's run: what was made, so teardown can undo it.
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
	sandboxID   string
	sandbox     *runtimeapi.PodSandboxConfig
	podIPs      []string
	started     bool // every regular container has started once: Timing is complete

	mu        sync.Mutex
	created   []string // every container id, in creation order
	followers []*follower
}

func (r *podRun) name() string { return r.pod.Namespace + "/" + r.pod.Name }

func (r *podRun) generated(d time.Duration) {
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
	if err := r.runSandbox(ctx); err != nil {
		return err
	}

	var sidecars []*entry
	for i := range r.pod.Spec.InitContainers {
		c := &r.pod.Spec.InitContainers[i]
		e := &entry{c: c, status: &r.status.InitContainers[i]}
		if c.RestartPolicy != nil && *c.RestartPolicy == v1.ContainerRestartPolicyAlways {
			e.sidecar = true
			if err := r.startAttempt(ctx, e); err != nil {
				return err
			}
			sidecars = append(sidecars, e)
			continue
		}
		e.init = true
		if err := r.startAttempt(ctx, e); err != nil {
			return err
		}
		if err := r.supervise(ctx, append(sidecars, e), func() bool { return e.done }); err != nil {
			return err
		}
		if last := e.status.Last(); last.ExitCode != 0 {
			return fmt.Errorf("pod %s: init container %q failed with exit code %d (restartPolicy %s)", r.name(), c.Name, last.ExitCode, r.pod.Spec.RestartPolicy)
		}
	}

	regular := make([]*entry, len(r.pod.Spec.Containers))
	for i := range r.pod.Spec.Containers {
		regular[i] = &entry{c: &r.pod.Spec.Containers[i], status: &r.status.Containers[i]}
		if err := r.startAttempt(ctx, regular[i]); err != nil {
			return err
		}
	}
	r.started = true
	r.status.Timing.Start = time.Since(r.start)
	r.n.cfg.Logf("pod %s started in %v (podconfig %v)", r.name(), r.status.Timing.Start, r.status.Timing.Generate)
	return r.supervise(ctx, append(sidecars, regular...), func() bool {
		for _, e := range regular {
			if !e.done {
				return false
			}
		}
		return true
	})
}

// runSandbox generates the sandbox's config, makes the pod's log directory and runs the sandbox,
// as kubelet's createPodSandbox does. A sandbox whose RunPodSandbox failed may still
// exist in the runtime: it is found by the pod's UID label and removed.
func (r *podRun) runSandbox(ctx context.Context) error {
	if r.pod.Spec.RuntimeClassName != nil && *r.pod.Spec.RuntimeClassName != "" {
		return fmt.Errorf("pod %s: runtimeClassName is not supported: minikubelet has no RuntimeClass objects", r.name())
	}
	t := time.Now()
	cfg, err := r.n.gen.GeneratePodSandboxConfig(ctx, r.pod, 0)
	r.generated(time.Since(t))
	if err != nil {
		return err
	}
	r.sandbox = cfg
	if _, err := r.n.gen.MakePodLogsDirectory(r.pod); err != nil {
		return err
	}
	sctx, cancel := uncancelled(ctx)
	defer cancel()
	resp, err := r.n.cfg.Runtime.RunPodSandbox(sctx, &runtimeapi.RunPodSandboxRequest{Config: cfg})
	if err != nil {
		return fmt.Errorf("pod %s: RunPodSandbox: %w", r.name(), err)
	}
	r.sandboxID = resp.PodSandboxId
	r.status.SandboxID = resp.PodSandboxId
	st, err := r.n.cfg.Runtime.PodSandboxStatus(ctx, &runtimeapi.PodSandboxStatusRequest{PodSandboxId: r.sandboxID})
	if err != nil {
		return fmt.Errorf("pod %s: PodSandboxStatus: %w", r.name(), err)
	}
	ips, warnings := configgen.PodSandboxIPs(st.GetStatus())
	for _, w := range warnings {
		r.n.cfg.Logf("warning: pod %s: %s", r.name(), w)
	}
	r.podIPs = ips
	// The Generator gives a host-network pod the node's IPs itself; the status shows them too.
	r.status.PodIPs = configgen.HostNetworkPodIPs(r.pod, ips, r.n.cfg.NodeIPs)
	return nil
}
