package podruntime

import (
	"sort"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/mounts"
)

// The waiting reasons of a container with no attempt yet, and the reason kubelet gives a
// container removed while the pod restarts all its containers.
const (
	ReasonContainerCreating       = "ContainerCreating"
	ReasonPodInitializing         = "PodInitializing"
	reasonRestartingAllContainers = "RestartingAllContainers"
	// A container kubelet lost track of: its reason, messages and exit code.
	reasonContainerStatusUnknown       = "ContainerStatusUnknown"
	messageContainerNotLocatedDeleted  = "The container could not be located when the pod was deleted.  The container used to be Running"
	messageContainerNotLocatedStopping = "The container could not be located when the pod was terminated"
	exitCodeUnknown                    = 137
)

// statusConverter turns what the runtime holds of a pod into its containers' API statuses
// (kubelet's convertToAPIContainerStatuses).
type statusConverter struct {
	pod       *v1.Pod
	podStatus *PodStatus
	in        StatusInput
}

// containerStatuses converts the statuses of one list of containers (init, regular or
// ephemeral): every container starts waiting (ContainerCreating, or PodInitializing when the
// pod has init containers) or as its old status was; a container the runtime lost after it was
// seen running gets a last termination state of 137; the newest attempt gives the state and
// the one before it the last termination state; a container that is to start again and failed
// to start waits with the failure's reason.
func (sc *statusConverter) containerStatuses(previous []v1.ContainerStatus, containers []v1.Container, hasInit, isInit bool) []v1.ContainerStatus {
	olds := make(map[string]v1.ContainerStatus, len(previous))
	for _, s := range previous {
		olds[s.Name] = s
	}
	defaultReason := ReasonContainerCreating
	if hasInit {
		defaultReason = ReasonPodInitializing
	}
	statuses := make(map[string]*v1.ContainerStatus, len(containers))
	for i := range containers {
		c := &containers[i]
		s := &v1.ContainerStatus{Name: c.Name, Image: c.Image, State: v1.ContainerState{Waiting: &v1.ContainerStateWaiting{Reason: defaultReason}}}
		s.VolumeMounts = sc.volumeMountStatuses(c)
		if old, ok := olds[c.Name]; ok {
			if old.State.Terminated != nil {
				old := old
				s = &old
			} else {
				s.RestartCount = old.RestartCount
				s.LastTerminationState = old.LastTerminationState
			}
		}
		statuses[c.Name] = s
	}
	sc.inferLostContainers(containers, olds, statuses, defaultReason)
	sc.applyAttempts(olds, statuses)
	sc.applyStartFailures(containers, statuses, isInit)
	out := make([]v1.ContainerStatus, 0, len(statuses))
	if isInit {
		for _, c := range containers {
			if s, ok := statuses[c.Name]; ok {
				out = append(out, *s)
			}
		}
		return out
	}
	for _, s := range statuses {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// volumeMountStatuses are the container's volume mounts as the status shows them: a read-only
// mount says whether it is recursively read-only (an invalid request shows as Disabled).
func (sc *statusConverter) volumeMountStatuses(c *v1.Container) []v1.VolumeMountStatus {
	var out []v1.VolumeMountStatus
	for _, vm := range c.VolumeMounts {
		st := v1.VolumeMountStatus{Name: vm.Name, MountPath: vm.MountPath, ReadOnly: vm.ReadOnly}
		if vm.ReadOnly {
			mode := v1.RecursiveReadOnlyDisabled
			if rro, err := mounts.ResolveRecursiveReadOnly(vm, sc.in.SupportsRecursiveReadOnly); err == nil && rro {
				mode = v1.RecursiveReadOnlyEnabled
			}
			st.RecursiveReadOnly = &mode
		}
		out = append(out, st)
	}
	return out
}

// inferLostContainers marks a container the runtime no longer holds, but that was running in
// the old status, as terminated with 137 in its last termination state, one more restart
// unless the pod is being deleted, so the pod does not fall back to Pending.
func (sc *statusConverter) inferLostContainers(containers []v1.Container, olds map[string]v1.ContainerStatus, statuses map[string]*v1.ContainerStatus, defaultReason string) {
	for _, c := range containers {
		if sc.podStatus.FindContainerStatusByName(c.Name) != nil {
			continue
		}
		old, ok := olds[c.Name]
		if !ok || old.State.Terminated != nil || old.State.Running == nil {
			continue
		}
		s := statuses[c.Name]
		if s.State.Waiting == nil || s.State.Waiting.Reason != defaultReason || s.LastTerminationState.Terminated != nil {
			continue
		}
		s.LastTerminationState.Terminated = &v1.ContainerStateTerminated{
			Reason: reasonContainerStatusUnknown, Message: messageContainerNotLocatedDeleted, ExitCode: exitCodeUnknown,
		}
		if sc.pod.DeletionTimestamp == nil {
			s.RestartCount++
		}
	}
}

// applyAttempts sets each container's state from its newest attempt and its last termination
// state from the one before.
func (sc *statusConverter) applyAttempts(olds map[string]v1.ContainerStatus, statuses map[string]*v1.ContainerStatus) {
	attempts := make([]*ContainerStatus, len(sc.podStatus.ContainerStatuses))
	copy(attempts, sc.podStatus.ContainerStatuses)
	sortNewestFirst(attempts)
	seen := map[string]int{}
	for _, cs := range attempts {
		if _, ok := statuses[cs.Name]; !ok || seen[cs.Name] >= 2 {
			continue
		}
		var oldPtr *v1.ContainerStatus
		if old, ok := olds[cs.Name]; ok {
			oldPtr = &old
		}
		s := sc.convert(cs, oldPtr)
		if cs.State == ContainerStateRunning && oldPtr != nil && oldPtr.Started != nil {
			s.Started = oldPtr.Started
		}
		if c := containerSpec(sc.pod, cs.Name); c != nil {
			s.Resources = containerResources(c, s, cs, oldPtr)
			s.AllocatedResources = c.Resources.Requests
		}
		s.User = cs.User
		if sc.in.StopSignals {
			s.StopSignal = cs.StopSignal
		}
		if seen[cs.Name] == 0 {
			statuses[cs.Name] = s
		} else {
			statuses[cs.Name].LastTerminationState = s.State
		}
		seen[cs.Name]++
	}
}

// convert is one attempt's API status (kubelet's convertContainerStatus).
func (sc *statusConverter) convert(cs *ContainerStatus, old *v1.ContainerStatus) *v1.ContainerStatus {
	cid := cs.ID.String()
	s := &v1.ContainerStatus{Name: cs.Name, RestartCount: int32(cs.RestartCount), Image: cs.Image, ImageID: cs.ImageRef, ContainerID: cid}
	if old != nil {
		s.VolumeMounts = old.VolumeMounts
		s.RestartCount = max(s.RestartCount, old.RestartCount)
		if old.ContainerID != s.ContainerID && old.State.Terminated != nil {
			s.LastTerminationState.Terminated = old.State.Terminated
		} else if old.LastTerminationState.Terminated != nil {
			s.LastTerminationState.Terminated = old.LastTerminationState.Terminated
		}
	}
	switch {
	case cs.State == ContainerStateRunning:
		s.State.Running = &v1.ContainerStateRunning{StartedAt: metav1.NewTime(cs.StartedAt)}
		if old != nil && old.State.Terminated != nil && old.RestartCount >= int32(cs.RestartCount) {
			s.RestartCount = old.RestartCount + 1
		}
	case cs.State == ContainerStateCreated:
		s.State.Waiting = &v1.ContainerStateWaiting{}
	case cs.State == ContainerStateExited:
		s.State.Terminated = &v1.ContainerStateTerminated{
			ExitCode: int32(cs.ExitCode), Reason: cs.Reason, Message: cs.Message,
			StartedAt: metav1.NewTime(cs.StartedAt), FinishedAt: metav1.NewTime(cs.FinishedAt), ContainerID: cid,
		}
	case cs.State == ContainerStateUnknown && old != nil && old.State.Running != nil:
		// It ran and is gone: it terminated, not "never ran", so a run-once pod does not run it
		// twice.
		s.State.Terminated = &v1.ContainerStateTerminated{Reason: reasonContainerStatusUnknown, Message: messageContainerNotLocatedStopping, ExitCode: exitCodeUnknown}
		s.RestartCount = old.RestartCount + 1
	default:
		s.State.Waiting = &v1.ContainerStateWaiting{}
	}
	return s
}

// applyStartFailures shows a container that is to start again, and failed to start last time,
// as waiting with the failure's reason and message; its terminated state becomes its last. An
// init container that exited 0 is done; one the runtime no longer holds, after a regular
// container was created, completed.
func (sc *statusConverter) applyStartFailures(containers []v1.Container, statuses map[string]*v1.ContainerStatus, isInit bool) {
	for i := range containers {
		c := &containers[i]
		if isInit {
			s := sc.podStatus.FindContainerStatusByName(c.Name)
			if s != nil && s.State == ContainerStateExited && s.ExitCode == 0 {
				continue
			}
			if s == nil && hasAnyRegularContainerCreated(sc.pod, sc.podStatus) && !IsRestartableInitContainer(c) && statuses[c.Name].State.Waiting != nil {
				statuses[c.Name].State = v1.ContainerState{Terminated: &v1.ContainerStateTerminated{Reason: "Completed", ExitCode: 0,
					Message: "Unable to get init container status from container runtime and pod has been initialized, treat it as exited normally"}}
				continue
			}
		}
		if !ShouldContainerBeRestarted(c, sc.pod, sc.podStatus) {
			continue
		}
		reason, ok := sc.in.Reasons.Get(sc.pod.UID, c.Name)
		if !ok {
			continue
		}
		s := statuses[c.Name]
		if s.State.Terminated != nil {
			s.LastTerminationState = s.State
		}
		s.State = v1.ContainerState{Waiting: &v1.ContainerStateWaiting{Reason: reason.Err.Error(), Message: reason.Message}}
	}
}

// Kubelet's smallest effective CPU values: below them the allocated value stays in the status.
const (
	minMilliCPULimit = 10
	minMilliShares   = 2
)

// containerResources is the container's status.resources (kubelet's
// convertContainerStatusResources): the allocated resources (the spec's) for a container that
// does not run; for one that runs, the CPU and memory the runtime reports, else those of the old
// status for the same running container.
func containerResources(c *v1.Container, s *v1.ContainerStatus, cs *ContainerStatus, old *v1.ContainerStatus) *v1.ResourceRequirements {
	out := c.Resources.DeepCopy()
	if cs.State != ContainerStateRunning {
		return out
	}
	oldRes := &v1.ResourceRequirements{}
	if old != nil && old.Resources != nil {
		oldRes = old.Resources
	}
	preserve := func(name v1.ResourceName, from, to v1.ResourceList) {
		if old != nil && old.State.Running != nil && s.ContainerID == old.ContainerID && from != nil {
			if q, ok := from[name]; ok {
				to[name] = q.DeepCopy()
			}
		}
	}
	r := cs.Resources
	if out.Limits != nil {
		switch {
		case r != nil && r.CPULimit != nil:
			if r.CPULimit.MilliValue() > minMilliCPULimit || out.Limits.Cpu().MilliValue() > minMilliCPULimit {
				out.Limits[v1.ResourceCPU] = r.CPULimit.DeepCopy()
			}
		default:
			preserve(v1.ResourceCPU, oldRes.Limits, out.Limits)
		}
		if r != nil && r.MemoryLimit != nil {
			out.Limits[v1.ResourceMemory] = r.MemoryLimit.DeepCopy()
		} else {
			preserve(v1.ResourceMemory, oldRes.Limits, out.Limits)
		}
	}
	if out.Requests != nil {
		switch {
		case r != nil && r.CPURequest != nil:
			if r.CPURequest.MilliValue() > minMilliShares || out.Requests.Cpu().MilliValue() > minMilliShares {
				out.Requests[v1.ResourceCPU] = r.CPURequest.DeepCopy()
			}
		default:
			preserve(v1.ResourceCPU, oldRes.Requests, out.Requests)
		}
		// The runtime reports no memory request: the old status's stands for a running container.
		preserve(v1.ResourceMemory, oldRes.Requests, out.Requests)
	}
	return out
}
