package podruntime

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
)

// The reasons of the events a Manager records, kubelet's.
const (
	EventCreated                = "Created"
	EventStarted                = "Started"
	EventFailed                 = "Failed"
	EventKilling                = "Killing"
	EventBackOff                = "BackOff"
	EventPulling                = "Pulling"
	EventPulled                 = "Pulled"
	EventInspectFailed          = "InspectFailed"
	EventErrImageNeverPull      = "ErrImageNeverPull"
	EventSandboxChanged         = "SandboxChanged"
	EventFailedCreatePodSandBox = "FailedCreatePodSandBox"
	EventFailedPodSandBoxStatus = "FailedPodSandBoxStatus"
)

// Event is an event kubelet records about a pod or one of its containers. A client-go
// EventRecorder records it with the reference kubelet uses: the pod, with FieldPath.
type Event struct {
	// Pod is the pod the event is about, or whose container it is about.
	Pod *v1.Pod
	// Container is the container's name and FieldPath its place in the spec
	// ("spec.containers{web}", "spec.initContainers{setup}"); both empty for an event about the
	// pod.
	Container string
	// FieldPath is kubelet's reference to the container within the pod.
	FieldPath string
	// Type is v1.EventTypeNormal or v1.EventTypeWarning.
	Type string
	// Reason is kubelet's reason (EventCreated, EventBackOff, ...).
	Reason string
	// Message is kubelet's message, the runtime's words about a container ID naming the
	// container instead.
	Message string
}

// event records an event about the pod.
func (m *Manager) event(pod *v1.Pod, typ, reason, message string) {
	if m.opts.Events != nil {
		m.opts.Events(Event{Pod: pod, Type: typ, Reason: reason, Message: message})
	}
}

// containerEvent records an event about a container, as kubelet's recordContainerEvent does: a
// runtime's message that names the container's ID names the container instead, so events
// about one container stay alike.
func (m *Manager) containerEvent(pod *v1.Pod, c *v1.Container, containerID, typ, reason, format string, args ...any) {
	if m.opts.Events == nil {
		return
	}
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	if containerID != "" {
		msg = strings.ReplaceAll(msg, containerID, c.Name)
	}
	m.opts.Events(Event{Pod: pod, Container: c.Name, FieldPath: fieldPath(pod, c), Type: typ, Reason: reason, Message: msg})
}

// fieldPath locates a container in its pod as kubelet's container references do.
func fieldPath(pod *v1.Pod, c *v1.Container) string {
	find := func(field string, names []string) string {
		for i, n := range names {
			if n != c.Name {
				continue
			}
			if n == "" {
				return fmt.Sprintf("spec.%s[%d]", field, i)
			}
			return fmt.Sprintf("spec.%s{%s}", field, n)
		}
		return ""
	}
	if p := find("containers", containerNames(pod.Spec.Containers)); p != "" {
		return p
	}
	if p := find("initContainers", containerNames(pod.Spec.InitContainers)); p != "" {
		return p
	}
	var eph []string
	for i := range pod.Spec.EphemeralContainers {
		eph = append(eph, pod.Spec.EphemeralContainers[i].Name)
	}
	return find("ephemeralContainers", eph)
}

func containerNames(list []v1.Container) []string {
	out := make([]string, len(list))
	for i := range list {
		out[i] = list[i].Name
	}
	return out
}
