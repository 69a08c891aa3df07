package node

import (
	"context"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/podconfig/podconfig/configgen"
)

// Objects holds the API objects a pod may refer to, as the input gave them. It serves
// podconfig's getters (configgen.ConfigMapGetter, SecretGetter, ServiceLister) and the configMap
// and secret volumes. It is read-only once the Node has it.
type Objects struct {
	ConfigMaps []*v1.ConfigMap
	Secrets    []*v1.Secret
	Services   []*v1.Service
}

var (
	_ configgen.ConfigMapGetter = (*Objects)(nil)
	_ configgen.SecretGetter    = (*Objects)(nil)
	_ configgen.ServiceLister   = (*Objects)(nil)
)

// GetConfigMap returns the ConfigMap, or the API server's NotFound error.
func (o *Objects) GetConfigMap(_ context.Context, namespace, name string) (*v1.ConfigMap, error) {
	for _, cm := range o.ConfigMaps {
		if namespaceOf(cm.Namespace) == namespaceOf(namespace) && cm.Name == name {
			return cm, nil
		}
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "configmaps"}, name)
}

// GetSecret returns the Secret, or the API server's NotFound error.
func (o *Objects) GetSecret(_ context.Context, namespace, name string) (*v1.Secret, error) {
	for _, s := range o.Secrets {
		if namespaceOf(s.Namespace) == namespaceOf(namespace) && s.Name == name {
			return s, nil
		}
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "secrets"}, name)
}

// ListServices returns the services of a namespace, or of every namespace for "".
func (o *Objects) ListServices(_ context.Context, namespace string) ([]*v1.Service, error) {
	var out []*v1.Service
	for _, s := range o.Services {
		if namespace == "" || namespaceOf(s.Namespace) == namespaceOf(namespace) {
			out = append(out, s)
		}
	}
	return out, nil
}

// namespaceOf is the namespace an object without one lands in.
func namespaceOf(ns string) string {
	if ns == "" {
		return v1.NamespaceDefault
	}
	return ns
}
