package validation

// The refusal of a workload the API server cannot convert to its internal form.

import (
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// requestError is the API server's Bad Request for an object it cannot convert to its internal
// form (a workload annotation that is not a number): it is refused before validation.
type requestError struct {
	msg string
}

// badRequest returns the error the API server gives for a v1 object of kind whose conversion
// failed with msg.
func badRequest(kind schema.GroupKind, msg string) error {
	return &requestError{msg: fmt.Sprintf("%s in version %q cannot be handled as a %s: %s", kind.Kind, "v1", kind.Kind, msg)}
}

func (e *requestError) Error() string { return e.msg }

// Unwrap returns ErrInvalid and the API server's Status error for the same refusal.
func (e *requestError) Unwrap() []error {
	return []error{ErrInvalid, apierrors.NewBadRequest(e.msg)}
}
