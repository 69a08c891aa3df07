package security

import (
	"fmt"
	"math"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// RunAsNonRootError is the error VerifyRunAsNonRoot returns. Its message is kubelet's, and it
// matches ErrRunAsNonRoot under errors.Is.
type RunAsNonRootError struct {
	// Pod is the pod as kubelet's format.Pod prints it: <name>_<namespace>(<uid>).
	Pod string
	// Container is the container's name.
	Container string
	msg       string
}

// Error returns kubelet's text for the violation.
func (e *RunAsNonRootError) Error() string { return e.msg }

// Unwrap lets errors.Is match ErrRunAsNonRoot.
func (e *RunAsNonRootError) Unwrap() error { return ErrRunAsNonRoot }

// VerifyRunAsNonRoot reproduces kubelet's verifyRunAsNonRoot (kuberuntime, Linux). uid and username
// are what the image runs as, as ImageUserResolver reports them. When the effective security context
// asks for runAsNonRoot:
//   - an explicit runAsUser decides alone: 0 fails, a valid non-zero uid passes (the image is not
//     consulted);
//   - otherwise an image with a non-numeric user fails, since it cannot be checked;
//   - an image uid of 0 fails, and so does a uid outside 0..2147483647.
//
// Unlike kubelet, a runAsUser outside 0..2147483647 fails too (wrapping ErrRunAsNonRoot): kubelet
// relies on API validation to reject it, but runtimes narrow the uid to 32 bits, where 4294967296
// becomes 0 and -1 means "keep the current user", so such a value would run the container as root.
// And an image that reports neither a uid nor a user name (uid nil, username "") fails
// as running as root instead of passing: kubelet's getImageUser never produces that pair (it reports
// uid 0), so only a resolver that forgot the image user could, and that must not bypass the check.
func VerifyRunAsNonRoot(pod *v1.Pod, container *v1.Container, uid *int64, username string) error {
	if pod == nil || container == nil {
		return fmt.Errorf("verify runAsNonRoot: pod and container are required: %w", ErrInvalidInput)
	}
	eff := effectiveOf(pod, container)
	if eff.runAsNonRoot == nil || !*eff.runAsNonRoot {
		return nil
	}
	// The messages end in the same pod and container names; building them only on failure keeps
	// the common, passing case free of allocations.
	fail := func(format string, args ...any) error {
		podName := FormatPod(pod)
		args = append(args, podName, container.Name)
		return &RunAsNonRootError{Pod: podName, Container: container.Name, msg: fmt.Sprintf(format+" (pod: %q, container: %s)", args...)}
	}
	if eff.runAsUser != nil {
		if *eff.runAsUser == 0 {
			return fail("container's runAsUser breaks non-root policy")
		}
		if msgs := validation.IsValidUserID(*eff.runAsUser); len(msgs) > 0 {
			return fail("container has runAsNonRoot and an invalid runAsUser (%d): %s", *eff.runAsUser, strings.Join(msgs, "; "))
		}
		return nil
	}
	if uid == nil && len(username) > 0 {
		return fail("container has runAsNonRoot and image has non-numeric user (%s), cannot verify user is non-root", username)
	}
	var imageUID int64 // an image that reports no user runs as root
	if uid != nil {
		imageUID = *uid
	}
	if imageUID == 0 {
		return fail("container has runAsNonRoot and image will run as root")
	}
	if msgs := validation.IsValidUserID(imageUID); len(msgs) > 0 {
		return fail("container has runAsNonRoot and image has an invalid user id (%d). (Must be 1-(%d)): %s",
			imageUID, math.MaxInt32, strings.Join(msgs, "; "))
	}
	return nil
}

// FormatPod names a pod the way kubelet's format.Pod does in messages: <name>_<namespace>(<uid>).
func FormatPod(pod *v1.Pod) string {
	if pod == nil {
		return "<nil>"
	}
	return pod.Name + "_" + pod.Namespace + "(" + string(pod.UID) + ")"
}
