package configgen

import (
	"errors"
	"fmt"
	"io"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/internal/errkind"
)

// ErrDependencyFailed is the category of a failure outside the pod's spec: an API object the pod
// needs is missing or could not be read, the Services are not synced yet, the node is unknown,
// or a host operation or a runtime call failed. Retry with a backoff, as kubelet does.
//
// ErrInvalidPod is the category of a spec that cannot run as written (an unsafe name or subPath,
// runAsNonRoot against a root image, an unsupported field reference, ...): retrying the same spec
// gives the same error. ErrInvalidOptions is the category of a Generator (or EnvInput) that
// cannot serve the call: fix the configuration.
//
// Every exported Err* of podconfig's packages is defined with one of the three, so the category
// of any error they return is known where the error is made.
var ErrDependencyFailed = errkind.DependencyFailed

// Reasons of an Error that are kubelet's, besides the environment's ones above.
const (
	// ReasonCreateContainerConfigError: GenerateContainerConfig or GenerateRunContainerOptions
	// failed. Kubelet shows it as the container's waiting reason and records the error as an
	// event with reason "Failed" and the message "Error: " followed by the error's text.
	ReasonCreateContainerConfigError = "CreateContainerConfigError"
	// ReasonFailedCreatePodSandBox: GeneratePodSandboxConfig failed; kubelet records the event
	// "Failed to create pod sandbox: " followed by the error's text under this reason.
	ReasonFailedCreatePodSandBox = "FailedCreatePodSandBox"
	// ReasonFailed is kubelet's generic event reason "Failed", the Reason of an *Error from
	// MakePodDataDirs: kubelet records that failure under it (its constant is named
	// FailedToMakePodDataDirectories) with the message "error making pod data directories: "
	// and the error's text.
	ReasonFailed = "Failed"

	// Deprecated: use ReasonFailed, which is what the value always was.
	ReasonFailedToMakePodDataDirectories = ReasonFailed
)

// Error is the error the Generator's methods, MakeEnvironmentVariables and the whole-pod helpers
// return. Its text is kubelet's (Err's text); errors.As finds it in one call and gives the
// category, a reason to record and the cause; errors.Is matches Category and everything Err
// wraps. Format it with %+v to see all of them.
type Error struct {
	// Category is ErrInvalidPod (do not retry the same spec), ErrDependencyFailed (retry) or
	// ErrInvalidOptions (fix the Generator's configuration).
	Category error
	// Reason is a CamelCase reason for an event or a container's waiting state: one of the
	// environment's (ReasonMandatoryConfigMapNotFound, ReasonFailedToCreateEnvVars, ...) when the
	// environment failed, else ReasonCreateContainerConfigError for a container,
	// ReasonFailedCreatePodSandBox for a sandbox and ReasonFailed for the
	// pod's directories.
	Reason string
	// Pod is the pod's namespace/name; Container the container's name, empty for the sandbox.
	Pod, Container string
	// Cause is what failed beneath kubelet's text, when there is such a thing: a getter's or the
	// host's error, the check that refused a subPath (e.g. subpath.ErrOutsideBase). Nil when the
	// text says it all.
	Cause error
	// Err is the error as the failing step returned it; Error() is its text.
	Err error
}

// Error returns kubelet's text.
func (e *Error) Error() string {
	if e.Err == nil {
		return fmt.Sprint(e.Category)
	}
	return e.Err.Error()
}

// Unwrap returns Err, so errors.Is and errors.As reach every category and cause beneath it.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is e's Category.
func (e *Error) Is(target error) bool { return target != nil && target == e.Category }

// Format prints the text for %v and %s; %+v adds the category, reason, pod, container and cause,
// one per line.
func (e *Error) Format(s fmt.State, verb rune) {
	if s == nil {
		return
	}
	switch {
	case verb == 'v' && s.Flag('+'):
		_, _ = io.WriteString(s, e.Error())
		_, _ = fmt.Fprintf(s, "\ncategory: %v\nreason: %s\npod: %s", e.Category, e.Reason, e.Pod)
		if e.Container != "" {
			_, _ = fmt.Fprintf(s, "\ncontainer: %s", e.Container)
		}
		if e.Cause != nil {
			_, _ = fmt.Fprintf(s, "\ncause: %v", e.Cause)
		}
	case verb == 'v' || verb == 's':
		_, _ = io.WriteString(s, e.Error())
	case verb == 'q':
		_, _ = fmt.Fprintf(s, "%q", e.Error())
	default:
		_, _ = fmt.Fprintf(s, "%%!%c(*configgen.Error=%s)", verb, e.Error())
	}
}

// asError returns err as an *Error about pod and container, with reason unless err already holds
// one; nil stays nil. An *Error already in err keeps its category, reason and cause.
func asError(err error, reason string, pod *v1.Pod, container *v1.Container) error {
	if err == nil {
		return nil
	}
	out := &Error{Reason: reason, Err: err}
	var inner *Error
	if errors.As(err, &inner) {
		if inner == err {
			if inner.Pod == "" && pod != nil {
				inner.Pod = pod.Namespace + "/" + pod.Name
			}
			if inner.Container == "" && container != nil {
				inner.Container = container.Name
			}
			return inner
		}
		out.Category, out.Reason, out.Cause = inner.Category, inner.Reason, inner.Cause
		out.Pod, out.Container = inner.Pod, inner.Container
	} else {
		out.Category, out.Cause = category(err), cause(err)
	}
	if out.Pod == "" && pod != nil {
		out.Pod = pod.Namespace + "/" + pod.Name
	}
	if out.Container == "" && container != nil {
		out.Container = container.Name
	}
	return out
}

// category asks err for its category: every sentinel of the module carries one from where it is
// defined (see each package's Err* values); an error that carries none, such as a getter's or the
// host's, is ErrDependencyFailed. An *Error in err's chain has already been asked.
func category(err error) error {
	var e *Error
	if errors.As(err, &e) && e.Category != nil {
		return e.Category
	}
	return errkind.CategoryOf(err)
}

// cause returns the error beneath kubelet's text: the cause of the first errkind error in err's
// chain that has one, else the first error err wraps that is not a bare category.
func cause(err error) error {
	var k *errkind.Error
	if errors.As(err, &k) {
		return k.Cause
	}
	if next := errors.Unwrap(err); next != nil && !isCategory(next) {
		return next
	}
	return nil
}

func isCategory(err error) bool { return errkind.IsSentinel(err) }
