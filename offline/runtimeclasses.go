package offline

import (
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/podconfig/podconfig/security"
)

// RuntimeClasses is an in-memory security.RuntimeHandlerResolver: RuntimeClass name to handler.
type RuntimeClasses map[string]string

var _ security.RuntimeHandlerResolver = RuntimeClasses(nil)

// LookupRuntimeHandler implements security.RuntimeHandlerResolver like kubelet's runtimeclass
// manager: nil or "" is the default handler "", an unknown class is the NotFound error of kubelet's
// RuntimeClass lister (`runtimeclass.node.k8s.io "<name>" not found`, apierrors.IsNotFound; the
// lister names the resource in the singular).
func (m RuntimeClasses) LookupRuntimeHandler(name *string) (string, error) {
	if name == nil || *name == "" {
		return "", nil
	}
	h, ok := m[*name]
	if !ok {
		return "", apierrors.NewNotFound(schema.GroupResource{Group: "node.k8s.io", Resource: "runtimeclass"}, *name)
	}
	return h, nil
}
