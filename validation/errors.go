package validation

import (
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podconfig/podconfig/internal/errkind"
)

// ErrInvalid is the category of every Error: the object is one the API server refuses, and
// submitting it again as written gives the same refusal.
var ErrInvalid = errkind.Sentinel(errkind.InvalidPod, "refused by the API server's validation")

// Error is the API server's refusal of an object: its kind, its name and every field error found.
// Its text is the one kubectl prints for the API server's answer, and errors.Is(err, ErrInvalid)
// and apimachinery's apierrors.IsInvalid both report it.
type Error struct {
	// Kind is the object's group and kind, as the API server names it ("Pod", "Deployment.apps").
	Kind schema.GroupKind
	// Name is the object's metadata.name.
	Name string
	// Errs are the field errors, in the order the API server finds them.
	Errs field.ErrorList
}

// NewError returns the Error refusing the object of kind and name for errs, or nil when errs is
// empty.
func NewError(kind schema.GroupKind, name string, errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	return &Error{Kind: kind, Name: name, Errs: errs}
}

// Error returns the API server's text, e.g. Pod "web" is invalid: spec.containers[0].image:
// Required value.
func (e *Error) Error() string { return e.status().Error() }

// Unwrap returns ErrInvalid and the API server's Status error for the same refusal.
func (e *Error) Unwrap() []error { return []error{ErrInvalid, e.status()} }

func (e *Error) status() *apierrors.StatusError { return apierrors.NewInvalid(e.Kind, e.Name, e.Errs) }
