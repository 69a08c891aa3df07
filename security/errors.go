package security

import (
	"github.com/podconfig/podconfig/internal/errkind"
)

// Error categories. Every error this package returns for one of these reasons wraps the matching
// sentinel, so callers can branch with errors.Is while the message keeps kubelet's exact text.
var (
	// ErrRunAsNonRoot marks a container that asks for runAsNonRoot but would, or might, run as
	// root. The concrete error is a *RunAsNonRootError.
	ErrRunAsNonRoot = errkind.Sentinel(errkind.InvalidPod, "runAsNonRoot policy violated")
	// ErrInvalidSeccompProfile marks a seccomp profile that cannot be turned into a CRI profile.
	ErrInvalidSeccompProfile = errkind.Sentinel(errkind.InvalidPod, "invalid seccomp profile")
	// ErrInvalidAppArmorProfile marks an AppArmor profile that cannot be turned into a CRI profile.
	ErrInvalidAppArmorProfile = errkind.Sentinel(errkind.InvalidPod, "invalid apparmor profile")
	// ErrUnsupportedSupplementalGroupsPolicy marks a supplementalGroupsPolicy CRI does not know.
	ErrUnsupportedSupplementalGroupsPolicy = errkind.Sentinel(errkind.InvalidPod, "unsupported supplementalGroupsPolicy")
	// ErrUserNamespacesUnsupported marks a pod with hostUsers: false that the runtime (or the
	// runtime handler) cannot give a user namespace.
	ErrUserNamespacesUnsupported = errkind.Sentinel(errkind.InvalidPod, "user namespaces unsupported")
	// ErrInvalidInput marks a call with a missing pod or container.
	ErrInvalidInput = errkind.Sentinel(errkind.InvalidPod, "invalid input")
)

// kindError is the shared error type: kubelet's text, a category and a cause.
type kindError = errkind.Error
