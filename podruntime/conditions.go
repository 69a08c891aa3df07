package podruntime

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
)

// The reasons of the conditions kubelet sets, its texts.
const (
	ReasonUnknownContainerStatuses = "UnknownContainerStatuses"
	ReasonPodCompleted             = "PodCompleted"
	ReasonPodFailed                = "PodFailed"
	ReasonContainersNotReady       = "ContainersNotReady"
	ReasonContainersNotInitialized = "ContainersNotInitialized"
	ReasonReadinessGatesNotReady   = "ReadinessGatesNotReady"
	ReasonPodSandboxNotReady       = "PodSandboxNotReady"
)

// podConditionByKubelet reports whether kubelet owns a condition type (it rewrites it on every
// status; the others it keeps as the API server has them).
func podConditionByKubelet(t v1.PodConditionType) bool {
	switch t {
	case v1.PodScheduled, v1.PodReady, v1.PodInitialized, v1.ContainersReady, v1.PodResizeInProgress,
		v1.PodResizePending, v1.PodReadyToStartContainers, v1.AllContainersRestarting:
		return true
	}
	return false
}

// containersReadyCondition is kubelet's GenerateContainersReadyCondition: True when every
// regular container and sidecar is ready; False with PodCompleted or PodFailed in a terminal
// phase (once every container has a status, for Succeeded), or ContainersNotReady naming the
// containers with no status and those not ready.
func containersReadyCondition(pod *v1.Pod, statuses []v1.ContainerStatus, phase v1.PodPhase) v1.PodCondition {
	cond := v1.PodCondition{Type: v1.ContainersReady, ObservedGeneration: pod.Generation}
	if statuses == nil {
		cond.Status, cond.Reason = v1.ConditionFalse, ReasonUnknownContainerStatuses
		return cond
	}
	var unknown, unready []string
	check := func(c *v1.Container) {
		s, ok := findStatus(statuses, c.Name)
		switch {
		case !ok:
			unknown = append(unknown, c.Name)
		case !s.Ready:
			unready = append(unready, c.Name)
		}
	}
	for i := range pod.Spec.InitContainers {
		if IsRestartableInitContainer(&pod.Spec.InitContainers[i]) {
			check(&pod.Spec.InitContainers[i])
		}
	}
	for i := range pod.Spec.Containers {
		check(&pod.Spec.Containers[i])
	}
	if (phase == v1.PodSucceeded && len(unknown) == 0) || phase == v1.PodFailed {
		cond.Status, cond.Reason = v1.ConditionFalse, terminalReason(phase)
		return cond
	}
	var msgs []string
	if len(unknown) > 0 {
		msgs = append(msgs, fmt.Sprintf("containers with unknown status: %s", unknown))
	}
	if len(unready) > 0 {
		msgs = append(msgs, fmt.Sprintf("containers with unready status: %s", unready))
	}
	if len(msgs) > 0 {
		cond.Status, cond.Reason, cond.Message = v1.ConditionFalse, ReasonContainersNotReady, strings.Join(msgs, ", ")
		return cond
	}
	cond.Status = v1.ConditionTrue
	return cond
}

// terminalReason is the reason of the readiness conditions of a pod in a terminal phase.
func terminalReason(phase v1.PodPhase) string {
	if phase == v1.PodFailed {
		return ReasonPodFailed
	}
	return ReasonPodCompleted
}

// podReadyCondition is kubelet's GeneratePodReadyCondition: ContainersReady's status, reason
// and message while it is not True; then False with ReadinessGatesNotReady while a readiness
// gate's condition is missing or not True; True otherwise.
func podReadyCondition(pod *v1.Pod, conditions []v1.PodCondition, statuses []v1.ContainerStatus, phase v1.PodPhase) v1.PodCondition {
	ready := containersReadyCondition(pod, statuses, phase)
	cond := v1.PodCondition{Type: v1.PodReady, ObservedGeneration: pod.Generation}
	if ready.Status != v1.ConditionTrue {
		cond.Status, cond.Reason, cond.Message = ready.Status, ready.Reason, ready.Message
		return cond
	}
	var msgs []string
	for _, rg := range pod.Spec.ReadinessGates {
		c := findCondition(conditions, rg.ConditionType)
		switch {
		case c == nil:
			msgs = append(msgs, fmt.Sprintf("corresponding condition of pod readiness gate %q does not exist.", string(rg.ConditionType)))
		case c.Status != v1.ConditionTrue:
			msgs = append(msgs, fmt.Sprintf("the status of pod readiness gate %q is not \"True\", but %v", string(rg.ConditionType), c.Status))
		}
	}
	if len(msgs) > 0 {
		cond.Status, cond.Reason, cond.Message = v1.ConditionFalse, ReasonReadinessGatesNotReady, strings.Join(msgs, ", ")
		return cond
	}
	cond.Status = v1.ConditionTrue
	return cond
}

// podInitializedCondition is kubelet's GeneratePodInitializedCondition: True once every init
// container is done (a regular one ready, a sidecar started), with PodCompleted in phase
// Succeeded, or as soon as a regular container has run; True also when it was True before (a
// pod does not become uninitialised); else False with ContainersNotInitialized naming the init
// containers with no status and those not done.
func podInitializedCondition(pod *v1.Pod, old *v1.PodStatus, statuses []v1.ContainerStatus, phase v1.PodPhase) v1.PodCondition {
	cond := v1.PodCondition{Type: v1.PodInitialized, ObservedGeneration: pod.Generation}
	if statuses == nil && len(pod.Spec.InitContainers) > 0 {
		cond.Status, cond.Reason = v1.ConditionFalse, ReasonUnknownContainerStatuses
		return cond
	}
	var unknown, incomplete []string
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		s, ok := findStatus(statuses, c.Name)
		switch {
		case !ok:
			unknown = append(unknown, c.Name)
		case !initContainerDone(c, &s):
			incomplete = append(incomplete, c.Name)
		}
	}
	if phase == v1.PodSucceeded && len(unknown) == 0 {
		cond.Status, cond.Reason = v1.ConditionTrue, ReasonPodCompleted
		return cond
	}
	if hasAnyRegularContainerStarted(&pod.Spec, statuses) {
		cond.Status = v1.ConditionTrue
		return cond
	}
	var msgs []string
	if len(unknown) > 0 {
		msgs = append(msgs, fmt.Sprintf("containers with unknown status: %s", unknown))
	}
	if len(incomplete) > 0 {
		msgs = append(msgs, fmt.Sprintf("containers with incomplete status: %s", incomplete))
	}
	if len(msgs) > 0 {
		if c := findCondition(old.Conditions, v1.PodInitialized); c != nil && c.Status == v1.ConditionTrue {
			cond.Status = v1.ConditionTrue
			return cond
		}
		cond.Status, cond.Reason, cond.Message = v1.ConditionFalse, ReasonContainersNotInitialized, strings.Join(msgs, ", ")
		return cond
	}
	cond.Status = v1.ConditionTrue
	return cond
}

// initContainerDone is kubelet's isInitContainerInitialized: a sidecar once started, a regular
// init container once ready (exited 0).
func initContainerDone(c *v1.Container, s *v1.ContainerStatus) bool {
	if IsRestartableInitContainer(c) {
		return s.Started != nil && *s.Started
	}
	return s.Ready
}

// hasAnyRegularContainerStarted reports whether a regular container runs or ran (kubelet's
// HasAnyRegularContainerStarted over API statuses).
func hasAnyRegularContainerStarted(spec *v1.PodSpec, statuses []v1.ContainerStatus) bool {
	for i := range spec.Containers {
		if s, ok := findStatus(statuses, spec.Containers[i].Name); ok && (s.State.Running != nil || s.State.Terminated != nil) {
			return true
		}
	}
	return false
}

// podReadyToStartContainersCondition is kubelet's GeneratePodReadyToStartContainersCondition:
// True while the pod has a usable sandbox (its network set up), else False with
// PodSandboxNotReady and PodSandboxChanged's reason.
func podReadyToStartContainersCondition(pod *v1.Pod, podStatus *PodStatus) v1.PodCondition {
	cond := v1.PodCondition{Type: v1.PodReadyToStartContainers, ObservedGeneration: pod.Generation, Status: v1.ConditionTrue}
	if changed, _, _, reason := PodSandboxChanged(pod, podStatus); changed {
		cond.Status, cond.Reason, cond.Message = v1.ConditionFalse, ReasonPodSandboxNotReady, reason
	}
	return cond
}

// allContainersCouldRestart reports whether a container has a RestartAllContainers rule.
func allContainersCouldRestart(spec *v1.PodSpec) bool {
	for _, list := range [][]v1.Container{spec.InitContainers, spec.Containers} {
		for _, c := range list {
			for _, rule := range c.RestartPolicyRules {
				if rule.Action == v1.ContainerRestartRuleActionRestartAllContainers {
					return true
				}
			}
		}
	}
	return false
}

// allContainersRestartingCondition is the AllContainersRestarting condition of a pod with a
// RestartAllContainers rule. The package never restarts every container in place, so it is
// always False: with PodCompleted or PodFailed in a terminal phase, as kubelet's.
func allContainersRestartingCondition(pod *v1.Pod, phase v1.PodPhase) v1.PodCondition {
	cond := v1.PodCondition{Type: v1.AllContainersRestarting, Status: v1.ConditionFalse}
	if isTerminalPhase(phase) {
		cond.Reason = terminalReason(phase)
	}
	return cond
}

// findCondition returns a copy of the condition of type t, or nil.
func findCondition(list []v1.PodCondition, t v1.PodConditionType) *v1.PodCondition {
	for _, c := range list {
		if c.Type == t {
			return &c
		}
	}
	return nil
}

// findConditionPtr returns the condition of type t in list, to change it, or nil.
func findConditionPtr(list []v1.PodCondition, t v1.PodConditionType) *v1.PodCondition {
	for i := range list {
		if list[i].Type == t {
			return &list[i]
		}
	}
	return nil
}

// replaceOrAppendCondition puts c in place of the condition of its type, or at the end.
func replaceOrAppendCondition(list []v1.PodCondition, c v1.PodCondition) []v1.PodCondition {
	if p := findConditionPtr(list, c.Type); p != nil {
		*p = c
		return list
	}
	return append(list, c)
}
