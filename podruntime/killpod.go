package podruntime

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/internal/errkind"
)

// minimumGracePeriodInSeconds is the least time kubelet gives a container to stop, whatever the
// pod or the caller asks: no container is killed without a chance to exit.
const minimumGracePeriodInSeconds = 2

// KillPod stops every running container of the pod and then its sandboxes, as kubelet's
// KillPod does: containers stop in parallel, each after its grace period (killContainer), and
// sidecars only once the regular containers and the sidecars after them have stopped, or their
// grace period ran out. podStatus says what runs (GetPodStatus). gracePeriodOverride, when set,
// replaces each container's grace period, as kubelet's eviction and node shutdown do. pod may be
// nil for a pod the caller no longer knows: each container's grace period is then read back from
// its annotations. Sandboxes are stopped, not removed (GarbageCollectPod removes them). A status
// read after KillPod shows no pod IPs, the sandbox being stopped: give it the IPs of podStatus
// before GenerateAPIPodStatus, as kubelet's SyncTerminatingPod does, so the final status keeps
// them.
func (m *Manager) KillPod(ctx context.Context, pod *v1.Pod, podStatus *PodStatus, gracePeriodOverride *int64) error {
	if err := m.built(); err != nil {
		return err
	}
	if podStatus == nil {
		return fmt.Errorf("%w: KillPod: podStatus must not be nil", errkind.InvalidOptions)
	}
	result := m.killPodWithSyncResult(ctx, pod, podStatus, gracePeriodOverride)
	return result.Error()
}

// killPodWithSyncResult is KillPod with the result of each action.
func (m *Manager) killPodWithSyncResult(ctx context.Context, pod *v1.Pod, podStatus *PodStatus, gracePeriodOverride *int64) PodSyncResult {
	var result PodSyncResult
	var running []*ContainerStatus
	for _, s := range podStatus.ContainerStatuses {
		if s != nil && s.State == ContainerStateRunning {
			running = append(running, s)
		}
	}
	var ordering *terminationOrdering
	if pod != nil && hasRestartableInitContainer(pod) {
		names := make([]string, len(running))
		for i, s := range running {
			names[i] = s.Name
		}
		ordering = newTerminationOrdering(pod, names)
	}
	results := make([]*SyncResult, len(running))
	var wg sync.WaitGroup
	for i, s := range running {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &SyncResult{Action: KillContainer, Target: s.Name}
			if err := m.killContainer(ctx, pod, s.ID, s.Name, "", gracePeriodOverride, ordering); err != nil {
				r.Fail(ErrKillContainer, err.Error(), err)
			}
			results[i] = r
		}()
	}
	wg.Wait()
	result.SyncResults = append(result.SyncResults, results...)
	r := result.add(KillPodSandbox, string(podStatus.ID))
	for _, sb := range podStatus.SandboxStatuses {
		if _, err := m.opts.Runtime.StopPodSandbox(ctx, &runtimeapi.StopPodSandboxRequest{PodSandboxId: sb.GetId()}); err != nil && status.Code(err) != codes.NotFound {
			r.Fail(ErrKillPodSandbox, err.Error(), err)
		}
	}
	return result
}

// killContainer stops one container as kubelet's killContainer does: the grace period is the
// pod's deletionGracePeriodSeconds, else its terminationGracePeriodSeconds, else 2s, replaced
// by gracePeriodOverride when set; a sidecar first waits its turn (ordering) within it; at
// least 2s always remain for StopContainer, after which the runtime kills the container (with
// the stop signal its config names, or the image's). A Killing event names why (message, or
// "Stopping container <name>"). A container the runtime no longer has counts as stopped.
// preStop hooks are not run.
func (m *Manager) killContainer(ctx context.Context, pod *v1.Pod, id ContainerID, name, message string, gracePeriodOverride *int64, ordering *terminationOrdering) error {
	var spec *v1.Container
	if pod != nil {
		if spec = containerSpec(pod, name); spec == nil {
			return fmt.Errorf("failed to get containerSpec %q (id=%q) in pod %q when killing container for reason %q", name, id.String(), podDesc(pod), message)
		}
	} else {
		var err error
		if pod, spec, err = m.restoreSpecs(ctx, id); err != nil {
			return err
		}
	}
	grace := terminationGracePeriod(pod)
	if message == "" {
		message = "Stopping container " + spec.Name
	}
	m.containerEvent(pod, spec, id.ID, v1.EventTypeNormal, EventKilling, "%v", message)
	if gracePeriodOverride != nil {
		grace = *gracePeriodOverride
	}
	if ordering != nil && grace > 0 {
		grace -= int64(ordering.waitForTurn(name, grace))
	}
	grace = max(grace, minimumGracePeriodInSeconds)
	_, err := m.opts.Runtime.StopContainer(ctx, &runtimeapi.StopContainerRequest{ContainerId: id.ID, Timeout: grace})
	if err != nil && status.Code(err) != codes.NotFound {
		return err
	}
	if ordering != nil {
		ordering.containerTerminated(name)
	}
	return nil
}

// terminationGracePeriod is kubelet's setTerminationGracePeriod without probes.
func terminationGracePeriod(pod *v1.Pod) int64 {
	switch {
	case pod.DeletionGracePeriodSeconds != nil:
		return *pod.DeletionGracePeriodSeconds
	case pod.Spec.TerminationGracePeriodSeconds != nil:
		return *pod.Spec.TerminationGracePeriodSeconds
	}
	return minimumGracePeriodInSeconds
}

// restoreSpecs rebuilds what killing a container needs from what kubelet wrote on it: the
// pod's identity from its labels, the grace periods and the termination-message path from its
// annotations (kubelet's restoreSpecsFromContainerLabels).
func (m *Manager) restoreSpecs(ctx context.Context, id ContainerID) (*v1.Pod, *v1.Container, error) {
	resp, err := m.opts.Runtime.ContainerStatus(ctx, &runtimeapi.ContainerStatusRequest{ContainerId: id.ID})
	if err != nil {
		return nil, nil, err
	}
	s := resp.GetStatus()
	if s == nil {
		return nil, nil, fmt.Errorf("container status is nil")
	}
	l, a := s.GetLabels(), s.GetAnnotations()
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{UID: types.UID(l[configgen.LabelPodUID]), Name: l[configgen.LabelPodName], Namespace: l[configgen.LabelPodNamespace],
			DeletionGracePeriodSeconds: int64Annotation(a[configgen.AnnotationPodDeletionGracePeriod])},
		Spec: v1.PodSpec{TerminationGracePeriodSeconds: int64Annotation(a[configgen.AnnotationPodTerminationGracePeriod])},
	}
	c := &v1.Container{Name: l[configgen.LabelContainerName], TerminationMessagePath: a[configgen.AnnotationContainerTerminationMessagePath]}
	if ports := a[configgen.AnnotationContainerPorts]; ports != "" {
		// Only for the record: a port list that does not parse is left out.
		_ = json.Unmarshal([]byte(ports), &c.Ports)
	}
	pod.Spec.Containers = []v1.Container{*c}
	return pod, &pod.Spec.Containers[0], nil
}

// int64Annotation reads a grace-period annotation; absent or unreadable is nil.
func int64Annotation(s string) *int64 {
	if s == "" {
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil
	}
	return &n
}

// hasRestartableInitContainer reports whether the pod has a sidecar.
func hasRestartableInitContainer(pod *v1.Pod) bool {
	for i := range pod.Spec.InitContainers {
		if IsRestartableInitContainer(&pod.Spec.InitContainers[i]) {
			return true
		}
	}
	return false
}

// terminationOrdering makes sidecars stop last (kubelet's terminationOrdering): every sidecar
// waits for the regular containers, and each sidecar for the sidecars declared after it, so
// they stop in the reverse of their start order.
type terminationOrdering struct {
	mu         sync.Mutex
	terminated map[string]chan struct{}
	prereqs    map[string][]chan struct{}
}

// newTerminationOrdering builds the ordering for the pod's running containers; a container
// that does not run counts as stopped already.
func newTerminationOrdering(pod *v1.Pod, running []string) *terminationOrdering {
	o := &terminationOrdering{terminated: map[string]chan struct{}{}, prereqs: map[string][]chan struct{}{}}
	isRunning := map[string]bool{}
	for _, n := range running {
		isRunning[n] = true
	}
	channel := func(name string) chan struct{} {
		ch := make(chan struct{})
		if !isRunning[name] {
			close(ch)
		}
		o.terminated[name] = ch
		return ch
	}
	var regular []chan struct{}
	for _, c := range pod.Spec.Containers {
		regular = append(regular, channel(c.Name))
	}
	later := "" // the sidecar declared after the current one
	for i := len(pod.Spec.InitContainers) - 1; i >= 0; i-- {
		c := &pod.Spec.InitContainers[i]
		channel(c.Name)
		if !IsRestartableInitContainer(c) {
			continue
		}
		o.prereqs[c.Name] = append(o.prereqs[c.Name], regular...)
		if later != "" {
			o.prereqs[c.Name] = append(o.prereqs[c.Name], o.terminated[later])
		}
		later = c.Name
	}
	return o
}

// waitForTurn waits until the containers the named one must outlive have stopped, at most
// grace seconds, and returns the seconds it waited.
func (o *terminationOrdering) waitForTurn(name string, grace int64) float64 {
	if grace <= 0 {
		return 0
	}
	start := time.Now()
	timer := time.NewTimer(time.Duration(grace) * time.Second)
	defer timer.Stop()
	for _, ch := range o.prereqs[name] {
		select {
		case <-ch:
		case <-timer.C:
			return time.Since(start).Seconds()
		}
	}
	return time.Since(start).Seconds()
}

// containerTerminated records that the named container stopped.
func (o *terminationOrdering) containerTerminated(name string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if ch, ok := o.terminated[name]; ok {
		close(ch)
		delete(o.terminated, name)
	}
}
