package podruntime

import (
	"fmt"
	"slices"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/configgen"
)

// PodActions is what one SyncPod pass does to a pod (kubelet's podActions), as ComputePodActions
// decides it from the pod's spec and what the runtime holds.
type PodActions struct {
	// KillPod stops every running container and the sandboxes, before a new sandbox or because
	// nothing of the pod is to run any more.
	KillPod bool
	// CreateSandbox makes a new sandbox; the pod's init containers start over.
	CreateSandbox bool
	// SandboxID is the sandbox containers start in (the existing one), or the one being replaced.
	SandboxID string
	// Attempt is the sandbox's attempt number: the existing one's, or the new one's.
	Attempt uint32
	// InitContainersToStart are indexes in spec.initContainers, in start order: the next init
	// container, and sidecars to start or restart.
	InitContainersToStart []int
	// ContainersToStart are indexes in spec.containers, in spec order.
	ContainersToStart []int
	// EphemeralContainersToStart are indexes in spec.ephemeralContainers never started yet.
	EphemeralContainersToStart []int
	// ContainersToKill are running containers to stop first: a spec that changed (its hash), a
	// state the runtime does not know.
	ContainersToKill []ContainerToKill
}

// ContainerToKill is a container SyncPod stops, and why (the Killing event's message).
type ContainerToKill struct {
	// ID is the running attempt to stop.
	ID ContainerID
	// Name is the container's name.
	Name string
	// Container is the container's spec.
	Container *v1.Container
	// Message is why, in kubelet's words.
	Message string
}

// String describes the actions as kubelet's log line does.
func (a PodActions) String() string {
	return fmt.Sprintf("KillPod: %t, CreateSandbox: %t, Attempt: %d, InitContainersToStart: %v, ContainersToStart: %v, EphemeralContainersToStart: %v, ContainersToKill: %d",
		a.KillPod, a.CreateSandbox, a.Attempt, a.InitContainersToStart, a.ContainersToStart, a.EphemeralContainersToStart, len(a.ContainersToKill))
}

// ComputePodActions decides what SyncPod does to the pod given what the runtime holds of it, as
// kubelet v1.37's computePodActions does with no probes and no in-place resize:
//
//   - no usable sandbox (PodSandboxChanged): kill the pod and make a new sandbox, starting with
//     the first init container, or the regular containers when there is none; except that a pod
//     whose restartPolicy is Never and whose containers have run gets no new sandbox, nor does a
//     pod whose regular containers were created once and all have run to completion;
//   - otherwise: start the ephemeral containers never started; work out the init containers
//     (computeInitContainerActions); once initialised, start each regular container that is not
//     running and ShouldContainerBeRestarted says to start, and stop one whose spec changed (to
//     start it again) or whose state is unknown;
//   - when no container is to keep running or to start, kill the pod and start no sidecar.
//
// A nil pod needs nothing.
func ComputePodActions(pod *v1.Pod, podStatus *PodStatus) PodActions {
	if pod == nil {
		return PodActions{}
	}
	if podStatus == nil {
		podStatus = &PodStatus{}
	}
	changed, attempt, sandboxID, _ := PodSandboxChanged(pod, podStatus)
	a := PodActions{KillPod: changed, CreateSandbox: changed, SandboxID: sandboxID, Attempt: attempt, ContainersToStart: []int{}}
	if changed {
		return sandboxActions(pod, podStatus, a)
	}
	for i := range pod.Spec.EphemeralContainers {
		if podStatus.FindContainerStatusByName(pod.Spec.EphemeralContainers[i].Name) == nil {
			a.EphemeralContainersToStart = append(a.EphemeralContainersToStart, i)
		}
	}
	initialised := computeInitContainerActions(pod, podStatus, &a)
	if a.KillPod || !initialised {
		return a
	}
	keep := 0
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		status := podStatus.FindContainerStatusByName(c.Name)
		if status == nil || status.State != ContainerStateRunning {
			if ShouldContainerBeRestarted(c, pod, podStatus) {
				a.ContainersToStart = append(a.ContainersToStart, i)
				if status != nil && status.State == ContainerStateUnknown {
					a.ContainersToKill = append(a.ContainersToKill, ContainerToKill{ID: status.ID, Name: c.Name, Container: c,
						Message: fmt.Sprintf("Container is in %q state, try killing it before restart", status.State)})
				}
			}
			continue
		}
		if status.Hash == configgen.HashContainer(c) {
			keep++
			continue
		}
		// The spec changed: restart whatever the restart policy says.
		a.ContainersToStart = append(a.ContainersToStart, i)
		a.ContainersToKill = append(a.ContainersToKill, ContainerToKill{ID: status.ID, Name: c.Name, Container: c,
			Message: fmt.Sprintf("Container %s definition changed, will be restarted", c.Name)})
	}
	if keep == 0 && len(a.ContainersToStart) == 0 {
		a.KillPod = true
		// Sidecars must not keep a pod whose regular containers are done alive.
		a.InitContainersToStart = nil
	}
	return a
}

// sandboxActions completes the actions of a pod that needs a new sandbox.
func sandboxActions(pod *v1.Pod, podStatus *PodStatus, a PodActions) PodActions {
	if pod.Spec.RestartPolicy == v1.RestartPolicyNever && a.Attempt != 0 && len(podStatus.ContainerStatuses) != 0 {
		// The pod ran and is not to run again: kill what is left, make nothing.
		a.CreateSandbox = false
		return a
	}
	var toStart []int
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		runOnce := pod.Spec.RestartPolicy == v1.RestartPolicyOnFailure
		if c.RestartPolicy != nil {
			runOnce = *c.RestartPolicy == v1.ContainerRestartPolicyOnFailure
		}
		if runOnce && containerSucceeded(c, podStatus) {
			continue
		}
		toStart = append(toStart, i)
	}
	if len(toStart) == 0 && hasAnyRegularContainerCreated(pod, podStatus) {
		a.CreateSandbox = false
		return a
	}
	if len(pod.Spec.InitContainers) != 0 {
		a.InitContainersToStart = []int{0}
		return a
	}
	a.ContainersToStart = toStart
	return a
}

// containerSucceeded reports whether the container's newest attempt exited with 0.
func containerSucceeded(c *v1.Container, podStatus *PodStatus) bool {
	s := podStatus.FindContainerStatusByName(c.Name)
	return s != nil && s.State == ContainerStateExited && s.ExitCode == 0
}

// computeInitContainerActions adds the init containers' actions and reports whether the pod is
// initialised, as kubelet's computeInitContainerActions does with no probes and no resize. It
// walks the init containers from the last, since completed ones may have been removed: the
// first it finds with an attempt in the active sandbox tells where initialisation is. A regular
// init container that exited 0 lets the next start; one that failed is restarted, or with no
// restart kills the pod; a sidecar that runs lets the next start, and one that exited, was
// created but never started, or whose spec changed is (stopped and) started again. Sidecars
// after the point of initialisation are started again when their attempts are gone.
func computeInitContainerActions(pod *v1.Pod, podStatus *PodStatus, a *PodActions) bool {
	inits := pod.Spec.InitContainers
	if len(inits) == 0 {
		return true
	}
	// A regular container in the active sandbox means every init container completed, even
	// those the runtime no longer holds.
	initialised := hasAnyActiveRegularContainerStarted(&pod.Spec, podStatus)
	previouslyInitialised := initialised
	for i := len(inits) - 1; i >= 0; i-- {
		c := &inits[i]
		sidecar := IsRestartableInitContainer(c)
		status := podStatus.FindActiveContainerStatusByName(c.Name)
		if status == nil {
			if previouslyInitialised && sidecar {
				a.InitContainersToStart = append(a.InitContainersToStart, i)
			}
			continue
		}
		if previouslyInitialised && !sidecar {
			continue
		}
		switch status.State {
		case ContainerStateCreated:
			// Create and start are one step: a container left created failed to start.
			a.InitContainersToStart = append(a.InitContainersToStart, i)
		case ContainerStateRunning:
			if !sidecar {
				break
			}
			if i == len(inits)-1 {
				initialised = true
			} else if !previouslyInitialised {
				a.InitContainersToStart = append(a.InitContainersToStart, i+1)
			}
			if status.Hash != configgen.HashContainer(c) {
				a.ContainersToKill = append(a.ContainersToKill, ContainerToKill{ID: status.ID, Name: c.Name, Container: c,
					Message: fmt.Sprintf("Init container %s definition changed", c.Name)})
				a.InitContainersToStart = append(a.InitContainersToStart, i)
			}
		case ContainerStateExited:
			if sidecar {
				a.InitContainersToStart = append(a.InitContainersToStart, i)
				break
			}
			if isInitContainerFailed(status) {
				if !ShouldContainerBeRestarted(c, pod, podStatus) {
					a.KillPod = true
					a.InitContainersToStart = nil
					return false
				}
				a.InitContainersToStart = append(a.InitContainersToStart, i)
				break
			}
			if i == len(inits)-1 {
				initialised = true
			} else {
				a.InitContainersToStart = append(a.InitContainersToStart, i+1)
			}
		default:
			if !sidecar {
				restart := pod.Spec.RestartPolicy != v1.RestartPolicyNever
				// With no exit code to match rules against, only the container's policy counts.
				if c.RestartPolicy != nil {
					restart = *c.RestartPolicy != v1.ContainerRestartPolicyNever
				}
				if !restart {
					a.KillPod = true
					a.InitContainersToStart = nil
					return false
				}
			}
			a.ContainersToKill = append(a.ContainersToKill, ContainerToKill{ID: status.ID, Name: c.Name, Container: c,
				Message: fmt.Sprintf("Init container is in %q state, try killing it before restart", status.State)})
			a.InitContainersToStart = append(a.InitContainersToStart, i)
		}
		previouslyInitialised = true
	}
	if !previouslyInitialised {
		a.InitContainersToStart = append(a.InitContainersToStart, 0)
	}
	// Found from the last; started in spec order.
	slices.Reverse(a.InitContainersToStart)
	return initialised
}
