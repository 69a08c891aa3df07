package clientgo

import (
	"errors"
	"fmt"
	"unicode/utf8"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"

	"github.com/podconfig/podconfig/configgen"
)

// Bounds of what a Recorder records. A pod's spec decides how many warnings a call makes and how
// long their messages are (a warning lists the env keys it skipped, an error quotes the spec), so
// without them one pod could make a node agent send thousands of megabyte-long events.
const (
	// MaxMessageBytes is the longest event message recorded: the events API's limit on a note
	// (events.k8s.io/v1; core/v1 Events have none). A longer one is cut at a character boundary
	// and ends in "...".
	MaxMessageBytes = 1024
	// MaxReasonBytes is the longest reason recorded, the events API's limit on it.
	MaxReasonBytes = 128
	// MaxEventsPerCall is the most events one Warnings call records: the first
	// MaxEventsPerCall-1 warnings, then one event that counts the rest. It is the burst that
	// client-go's event correlator lets through for one object before it drops that object's
	// events (refilling one every five minutes), so a broadcaster would not send more anyway.
	MaxEventsPerCall = 25
)

// Recorder records configgen's warnings and errors as Kubernetes events of type Warning, on the
// pod and, for a container, with kubelet's field path (spec.containers{name},
// spec.initContainers{name} or spec.ephemeralContainers{name}). Messages and reasons are cut to
// MaxMessageBytes and MaxReasonBytes, and one Warnings call records at most MaxEventsPerCall
// events. Kubelet records what it is given; client-go's broadcaster then drops an object's
// events past a burst and aggregates similar ones, and the events.k8s.io API refuses longer
// notes. The zero value has no Events and records nothing.
type Recorder struct {
	// Events is where events go, e.g. a record.EventBroadcaster's recorder for the
	// provider's component.
	Events record.EventRecorder
}

// OnWarning records w; it fits configgen.Options.OnWarning, which a Generator calls once per
// warning: use Warnings with the warnings a call returns to bound their number per call.
func (r Recorder) OnWarning(pod *v1.Pod, container *v1.Container, w configgen.Warning) {
	name := w.Container
	if container != nil {
		name = container.Name
	}
	r.event(pod, name, w.Reason, w.Message)
}

// Warnings records ws, as MakePodEnvironmentVariables returns them: at most MaxEventsPerCall
// events, the last of them counting the warnings left out when there are more, under the reason
// and on the container of the first of those.
func (r Recorder) Warnings(pod *v1.Pod, ws []configgen.Warning) {
	if len(ws) > MaxEventsPerCall {
		first, left := ws[MaxEventsPerCall-1], len(ws)-(MaxEventsPerCall-1)
		ws = ws[:MaxEventsPerCall-1]
		defer r.event(pod, first.Container, first.Reason, fmt.Sprintf("%d more warnings were not recorded as events", left))
	}
	for _, w := range ws {
		r.OnWarning(pod, nil, w)
	}
}

// event records one Warning event, cut to the bounds.
func (r Recorder) event(pod *v1.Pod, container, reason, message string) {
	if r.Events == nil || pod == nil {
		return
	}
	r.Events.Event(objectReference(pod, container), v1.EventTypeWarning, cut(reason, MaxReasonBytes, ""), cut(message, MaxMessageBytes, "..."))
}

// cut returns s if it holds at most max bytes, else its longest start that, with mark appended,
// does, ending at a character boundary.
func cut(s string, max int, mark string) string {
	if len(s) <= max {
		return s
	}
	end := max - len(mark)
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + mark
}

// Error records err as kubelet records a failure to create a container or a sandbox:
// ReasonCreateContainerConfigError as reason "Failed" with "Error: " and the text,
// ReasonFailedCreatePodSandBox with "Failed to create pod sandbox: " and the text; an
// environment failure under its own reason (MandatoryConfigMapNotFound, ...). An error that is no
// *configgen.Error is recorded as "Failed".
func (r Recorder) Error(pod *v1.Pod, err error) {
	if err == nil {
		return
	}
	reason, msg, container := EventForError(err)
	r.event(pod, container, reason, msg)
}

// EventForError returns the reason and message kubelet would record for err, and the name of the
// container it is about (empty for the pod).
func EventForError(err error) (reason, message, container string) {
	var e *configgen.Error
	if !errors.As(err, &e) {
		return "Failed", "Error: " + err.Error(), ""
	}
	switch e.Reason {
	case configgen.ReasonCreateContainerConfigError:
		return "Failed", "Error: " + err.Error(), e.Container
	case configgen.ReasonFailedCreatePodSandBox:
		return e.Reason, "Failed to create pod sandbox: " + err.Error(), ""
	}
	return e.Reason, err.Error(), e.Container
}

// objectReference refers to the pod, or to one of its containers by kubelet's field path.
func objectReference(pod *v1.Pod, container string) *v1.ObjectReference {
	ref := &v1.ObjectReference{
		Kind: "Pod", APIVersion: "v1", Namespace: pod.Namespace, Name: pod.Name,
		UID: pod.UID, ResourceVersion: pod.ResourceVersion,
	}
	if container != "" {
		ref.FieldPath = containerFieldPath(pod, container)
	}
	return ref
}

func containerFieldPath(pod *v1.Pod, name string) string {
	for _, c := range pod.Spec.InitContainers {
		if c.Name == name {
			return fmt.Sprintf("spec.initContainers{%s}", name)
		}
	}
	for _, c := range pod.Spec.EphemeralContainers {
		if c.Name == name {
			return fmt.Sprintf("spec.ephemeralContainers{%s}", name)
		}
	}
	return fmt.Sprintf("spec.containers{%s}", name)
}
