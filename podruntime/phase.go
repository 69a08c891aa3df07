package podruntime

import (
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/resources"
)

// PodPhase returns the pod's phase from its containers' API statuses, as kubelet v1.37's
// getPhase does (ContainerRestartRules and RestartAllContainersOnContainerExits on):
//
//   - Failed when a regular init container failed and will not be restarted;
//   - Pending while a regular init container has not completed, while a sidecar has not
//     started before the pod was initialised (initialized: a regular container ran in the
//     current sandbox), or while a regular container waits without having run;
//   - Running when every regular container has a status and one runs (sidecars count);
//   - once none runs: with terminal (the pod was stopped for good), Succeeded when all exited 0
//     and Failed otherwise; else Running while one of them will be restarted, Succeeded when
//     all exited 0 and Failed otherwise;
//   - Pending in any other case (a container with no status).
//
// Terminated sidecars do not count.
func PodPhase(pod *v1.Pod, statuses []v1.ContainerStatus, terminal, initialized bool) v1.PodPhase {
	if pod == nil {
		return v1.PodPending
	}
	spec := &pod.Spec
	pendingInit, pendingSidecars, failedInitNotRestartable := 0, 0, 0
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		if IsRestartableInitContainer(c) {
			continue
		}
		s, ok := findStatus(statuses, c.Name)
		if !ok {
			pendingInit++
			continue
		}
		switch {
		case s.State.Running != nil:
			pendingInit++
		case s.State.Terminated != nil:
			if t := s.State.Terminated; t.ExitCode != 0 && !ContainerShouldRestart(c, spec, t.ExitCode) && t.Reason != reasonRestartingAllContainers {
				failedInitNotRestartable++
			}
		case s.State.Waiting != nil:
			t := s.LastTerminationState.Terminated
			if t == nil {
				pendingInit++
			} else if t.ExitCode != 0 && !ContainerShouldRestart(c, spec, t.ExitCode) && t.Reason != reasonRestartingAllContainers {
				failedInitNotRestartable++
			}
		default:
			pendingInit++
		}
	}
	var unknown, running, waiting, stopped, stoppedNotRestartable, succeeded int
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		if !IsRestartableInitContainer(c) {
			continue
		}
		s, ok := findStatus(statuses, c.Name)
		if !ok {
			unknown++
			continue
		}
		switch {
		case s.State.Running != nil:
			if s.Started == nil || !*s.Started {
				pendingSidecars++
			}
			running++
		case s.State.Terminated != nil:
		case s.State.Waiting != nil:
			if s.LastTerminationState.Terminated == nil {
				pendingSidecars++
				waiting++
			}
		default:
			pendingSidecars++
			unknown++
		}
	}
	for i := range spec.Containers {
		c := &spec.Containers[i]
		s, ok := findStatus(statuses, c.Name)
		if !ok {
			unknown++
			continue
		}
		var t *v1.ContainerStateTerminated
		switch {
		case s.State.Running != nil:
			running++
			continue
		case s.State.Terminated != nil:
			t = s.State.Terminated
			if t.ExitCode == 0 {
				succeeded++
			}
		case s.State.Waiting != nil:
			if t = s.LastTerminationState.Terminated; t == nil {
				waiting++
				continue
			}
		default:
			unknown++
			continue
		}
		stopped++
		if !ContainerShouldRestart(c, spec, t.ExitCode) && t.Reason != reasonRestartingAllContainers {
			stoppedNotRestartable++
		}
	}
	switch {
	case failedInitNotRestartable > 0:
		return v1.PodFailed
	case pendingInit > 0 || (pendingSidecars > 0 && !initialized) || waiting > 0:
		return v1.PodPending
	case running > 0 && unknown == 0:
		return v1.PodRunning
	case running == 0 && stopped > 0 && unknown == 0:
		// Kubelet keeps a static pod's phase out of the terminal ones.
		if terminal && !resources.IsStaticPod(pod) {
			if stopped == succeeded {
				return v1.PodSucceeded
			}
			return v1.PodFailed
		}
		if stopped != stoppedNotRestartable {
			return v1.PodRunning
		}
		if stopped == succeeded {
			return v1.PodSucceeded
		}
		return v1.PodFailed
	}
	return v1.PodPending
}

// findStatus finds a container's status by name.
func findStatus(statuses []v1.ContainerStatus, name string) (v1.ContainerStatus, bool) {
	for _, s := range statuses {
		if s.Name == name {
			return s, true
		}
	}
	return v1.ContainerStatus{}, false
}
