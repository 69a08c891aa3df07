package configgen

import (
	"errors"

	"github.com/podconfig/podconfig/internal/errkind"
)

// Categories of the errors MakeEnvironmentVariables and the expansion helpers return; test them
// with errors.Is. The error texts themselves are kubelet's.
var (
	// ErrServiceLinksUnset: pod.spec.enableServiceLinks is nil (the API server defaults it).
	ErrServiceLinksUnset = errors.New("enableServiceLinks is not set")
	// ErrServicesNotSynced: the ServiceLister reported, through ServiceSyncChecker, that it has
	// not synced yet.
	ErrServicesNotSynced = errors.New("services not synced")
	// ErrServiceList: the ServiceLister failed; the lister's error is wrapped too.
	ErrServiceList = errors.New("service list failed")
	// ErrNoGetter: a ConfigMap or Secret is referenced but no getter was given (kubelet: no
	// kubeClient).
	ErrNoGetter = errors.New("no getter")
	// ErrKeyNotFound: a non-optional key is missing from a ConfigMap, Secret or env file.
	ErrKeyNotFound = errors.New("key not found")
	// ErrEnvFile: a fileKeyRef could not be resolved: unknown volume, no host path, or a file
	// that could not be read or parsed (the parse detail is wrapped, and returned as a warning).
	ErrEnvFile = errors.New("env file")
	// ErrFieldRef: a fieldRef or resourceFieldRef names something kubelet does not support.
	ErrFieldRef = errors.New("unsupported field reference")
	// ErrNode: the node (its addresses or allocatable resources) was needed and is not known.
	ErrNode = errors.New("node unknown")
	// ErrMissingValue: a subPathExpr refers to a variable that is not defined or is empty.
	ErrMissingValue = errors.New("missing value")
	// ErrIPNotKnown: status.podIP(s) or status.hostIP(s) is referenced before it is known: the
	// pod has no IP, or the node no address (see UnknownIPPolicy). It is also the cause of
	// kubelet's "host IP unknown" error.
	ErrIPNotKnown = errors.New("IP not known yet")
	// ErrExpansionLimit: a $(VAR) expansion would exceed ExpansionLimits (category ErrInvalidPod).
	ErrExpansionLimit = errors.New("expansion limit exceeded")
	// ErrInvalidInput: a required input (pod, container) is missing.
	ErrInvalidInput = errors.New("invalid input")
)

// newEnvError returns an error whose text is kubelet's msg and which errors.Is matches to kind and,
// when set, cause.
func newEnvError(kind error, msg string, cause error) error {
	return errkind.New(kind, msg, cause)
}
