package clientgo

import (
	"errors"
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"

	"github.com/podconfig/podconfig/configgen"
)

// Recorder records configgen's warnings and errors as Kubernetes events of type Warning, on the
// pod and, for a container, with kubelet's field path (spec.containers{name},
// spec.initContainers{name} or spec.ephemeralContainers{name}).
type Recorder struct {
	// Events is where events go, e.g. a record.EventBroadcaster's recorder for the
	// provider's component.
	Events record.EventRecorder
}

// OnWarning records w; it fits configgen.Options.OnWarning.
func (r Recorder) OnWarning(pod *v1.Pod, container *v1.Container, w configgen.Warning) {
	name := w.Container
	if container != nil {
		name = container.Name
	}
	r.Events.Event(objectReference(pod, name), v1.EventTypeWarning, w.Reason, w.Message)
}

// Warnings records each of ws, as MakePodEnvironmentVariables returns them.
func (r Recorder) Warnings(pod *v1.Pod, ws []configgen.Warning) {
	for _, w := range ws {
		r.OnWarning(pod, nil, w)
	}
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
	r.Events.Event(objectReference(pod, container), v1.EventTypeWarning, reason, msg)
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
