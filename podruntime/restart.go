package podruntime

import (
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// The reasons PodSandboxChanged gives, kubelet's texts (the PodReadyToStartContainers
// condition's message while it is False).
const (
	msgNoPodSandbox                = "no pod sandbox exists"
	msgMultipleSandboxes           = "multiple pod sandboxes are ready and need to be reconciled"
	msgSandboxNotReady             = "pod sandbox is not ready"
	msgNetworkNamespaceModeChanged = "network namespace mode changed and sandbox needs to be recreated"
	msgSandboxNoIPAddress          = "pod sandbox has no IP address"
)

// reasonOOMKilled is the reason a runtime gives a container the kernel killed for memory.
const reasonOOMKilled = "OOMKilled"

// IsRestartableInitContainer reports whether an init container is a sidecar: restartPolicy
// Always, so it keeps running beside the regular containers.
func IsRestartableInitContainer(c *v1.Container) bool {
	return c != nil && c.RestartPolicy != nil && *c.RestartPolicy == v1.ContainerRestartPolicyAlways
}

// ContainerShouldRestart reports whether a container that exited with exitCode is started
// again, as kubelet v1.37 decides with ContainerRestartRules on: the first of the container's
// restartPolicyRules whose exit codes match decides (Restart and RestartAllContainers restart
// it), then the container's restartPolicy, then the pod's (Always, OnFailure on a non-zero code,
// Never; an unset one is Always).
func ContainerShouldRestart(c *v1.Container, spec *v1.PodSpec, exitCode int32) bool {
	if c == nil || spec == nil {
		return false
	}
	if c.RestartPolicy != nil {
		if rule, ok := matchingRestartRule(c, exitCode); ok {
			switch rule.Action {
			case v1.ContainerRestartRuleActionRestart, v1.ContainerRestartRuleActionRestartAllContainers:
				return true
			}
		}
		switch *c.RestartPolicy {
		case v1.ContainerRestartPolicyAlways:
			return true
		case v1.ContainerRestartPolicyOnFailure:
			return exitCode != 0
		case v1.ContainerRestartPolicyNever:
			return false
		}
	}
	switch spec.RestartPolicy {
	case v1.RestartPolicyOnFailure:
		return exitCode != 0
	case v1.RestartPolicyNever:
		return false
	}
	return true
}

// matchingRestartRule returns the first restart rule whose exit-code condition holds for
// exitCode (kubelet's FindMatchingContainerRestartRule).
func matchingRestartRule(c *v1.Container, exitCode int32) (v1.ContainerRestartRule, bool) {
	for _, rule := range c.RestartPolicyRules {
		if rule.ExitCodes == nil {
			continue
		}
		in := false
		for _, code := range rule.ExitCodes.Values {
			if code == exitCode {
				in = true
			}
		}
		switch rule.ExitCodes.Operator {
		case v1.ContainerRestartRuleOnExitCodesOpIn:
			if in {
				return rule, true
			}
		case v1.ContainerRestartRuleOnExitCodesOpNotIn:
			if !in {
				return rule, true
			}
		}
	}
	return v1.ContainerRestartRule{}, false
}

// ShouldContainerBeRestarted reports whether SyncPod starts the container (again), as kubelet's
// ShouldContainerBeRestarted does: never once the pod is being deleted; always when it has no
// attempt yet (or all were removed) or its newest is created or in an unknown state; never
// while it runs; after an exit, by ContainerShouldRestart.
func ShouldContainerBeRestarted(c *v1.Container, pod *v1.Pod, podStatus *PodStatus) bool {
	if c == nil || pod == nil || pod.DeletionTimestamp != nil {
		return false
	}
	status := podStatus.FindContainerStatusByName(c.Name)
	switch {
	case status == nil:
		return true
	case status.State == ContainerStateRunning:
		return false
	case status.State == ContainerStateUnknown || status.State == ContainerStateCreated:
		return true
	}
	return ContainerShouldRestart(c, &pod.Spec, int32(status.ExitCode))
}

// isInitContainerFailed is kubelet's: an init container failed when it was OOM-killed, exited
// non-zero, or is in an unknown state.
func isInitContainerFailed(s *ContainerStatus) bool {
	return s.Reason == reasonOOMKilled ||
		(s.State == ContainerStateExited && s.ExitCode != 0) ||
		s.State == ContainerStateUnknown
}

// hasAnyRegularContainerCreated reports whether any regular container has an attempt that was
// created, runs or exited, which means initialisation was done (kubelet's
// HasAnyRegularContainerCreated).
func hasAnyRegularContainerCreated(pod *v1.Pod, podStatus *PodStatus) bool {
	for i := range pod.Spec.Containers {
		s := podStatus.FindContainerStatusByName(pod.Spec.Containers[i].Name)
		if s == nil {
			continue
		}
		switch s.State {
		case ContainerStateCreated, ContainerStateRunning, ContainerStateExited:
			return true
		}
	}
	return false
}

// hasAnyActiveRegularContainerStarted reports whether a regular container has an attempt in the
// active sandbox (kubelet's HasAnyActiveRegularContainerStarted).
func hasAnyActiveRegularContainerStarted(spec *v1.PodSpec, podStatus *PodStatus) bool {
	if podStatus == nil {
		return false
	}
	for i := range spec.Containers {
		if podStatus.FindActiveContainerStatusByName(spec.Containers[i].Name) != nil {
			return true
		}
	}
	return false
}

// PodSandboxChanged reports whether SyncPod must (re)create the pod's sandbox, the attempt
// number of the sandbox to create or keep, the ID of the sandbox to replace or keep, and the
// reason, in kubelet's words (runtimeutil.PodSandboxChanged): no sandbox; more than one ready;
// the newest not ready; its network namespace mode no longer the pod's (hostNetwork changed);
// a pod-network sandbox without an IP. A new sandbox's attempt is the newest's plus one.
func PodSandboxChanged(pod *v1.Pod, podStatus *PodStatus) (changed bool, attempt uint32, sandboxID, reason string) {
	if pod == nil || podStatus == nil || len(podStatus.SandboxStatuses) == 0 || podStatus.SandboxStatuses[0] == nil {
		return true, 0, "", msgNoPodSandbox
	}
	ready := 0
	for _, s := range podStatus.SandboxStatuses {
		if s.GetState() == runtimeapi.PodSandboxState_SANDBOX_READY {
			ready++
		}
	}
	newest := podStatus.SandboxStatuses[0]
	next := newest.GetMetadata().GetAttempt() + 1
	switch {
	case ready > 1:
		return true, next, newest.GetId(), msgMultipleSandboxes
	case newest.GetState() != runtimeapi.PodSandboxState_SANDBOX_READY:
		return true, next, newest.GetId(), msgSandboxNotReady
	case newest.GetLinux().GetNamespaces().GetOptions().GetNetwork() != networkNamespaceMode(pod):
		return true, next, "", msgNetworkNamespaceModeChanged
	case !pod.Spec.HostNetwork && newest.GetNetwork() != nil && newest.GetNetwork().GetIp() == "":
		return true, next, newest.GetId(), msgSandboxNoIPAddress
	}
	return false, newest.GetMetadata().GetAttempt(), newest.GetId(), ""
}

// networkNamespaceMode is the network namespace a pod's sandbox has: the node's for a
// host-network pod, its own otherwise.
func networkNamespaceMode(pod *v1.Pod) runtimeapi.NamespaceMode {
	if pod.Spec.HostNetwork {
		return runtimeapi.NamespaceMode_NODE
	}
	return runtimeapi.NamespaceMode_POD
}
