package configgen

import (
	"github.com/podconfig/podconfig/internal/errkind"
)

// Categories of the errors MakeEnvironmentVariables and the expansion helpers return; test them
// with errors.Is. The error texts themselves are kubelet's.
var (
	// ErrServiceLinksUnset: pod.spec.enableServiceLinks is nil (the API server defaults it).
	ErrServiceLinksUnset = errkind.Sentinel(errkind.InvalidPod, "enableServiceLinks is not set")
	// ErrServicesNotSynced: the ServiceLister reported, through ServiceSyncChecker, that it has
	// not synced yet.
	ErrServicesNotSynced = errkind.Sentinel(errkind.DependencyFailed, "services not synced")
	// ErrServiceList: the ServiceLister failed; the lister's error is wrapped too.
	ErrServiceList = errkind.Sentinel(errkind.DependencyFailed, "service list failed")
	// ErrKeyNotFound: a non-optional key is missing from a ConfigMap, Secret or env file.
	ErrKeyNotFound = errkind.Sentinel(errkind.DependencyFailed, "key not found")
	// ErrEnvFile: a fileKeyRef could not be resolved: unknown volume, no host path, or a file
	// that could not be read or parsed (the parse detail is wrapped, and returned as a warning).
	ErrEnvFile = errkind.Sentinel(errkind.DependencyFailed, "env file")
	// ErrFieldRef: a fieldRef or resourceFieldRef names something kubelet does not support.
	ErrFieldRef = errkind.Sentinel(errkind.InvalidPod, "unsupported field reference")
	// ErrNode: the node (its addresses or allocatable resources) was needed and is not known.
	ErrNode = errkind.Sentinel(errkind.DependencyFailed, "node unknown")
	// ErrMissingValue: a subPathExpr refers to a variable that is not defined or is empty.
	ErrMissingValue = errkind.Sentinel(errkind.InvalidPod, "missing value")
	// ErrIPNotKnown: status.podIP(s) or status.hostIP(s) is referenced before it is known: the
	// pod has no IP, or the node no address (see UnknownIPPolicy). It is also the cause of
	// kubelet's "host IP unknown" error.
	ErrIPNotKnown = errkind.Sentinel(errkind.DependencyFailed, "IP not known yet")
	// ErrExpansionLimit: a $(VAR) expansion would exceed ExpansionLimits (category ErrInvalidPod).
	ErrExpansionLimit = errkind.Sentinel(errkind.InvalidPod, "expansion limit exceeded")
)

// newEnvError returns an error whose text is kubelet's msg and which errors.Is matches to kind and,
// when set, cause.
func newEnvError(kind error, msg string, cause error) error {
	return errkind.New(kind, msg, cause)
}
