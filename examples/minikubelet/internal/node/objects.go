package node

import (
	"context"
	"sync"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/podconfig/podconfig/configgen"
)

// Objects holds the API objects a pod may refer to, as the input gave them. It serves
// podconfig's getters (configgen.ConfigMapGetter, SecretGetter, ServiceLister) and the configMap
// and secret volumes. Once a Node has it, change it only with SetConfigMap, which is safe beside
// the Node's reads.
type Objects struct {
	ConfigMaps []*v1.ConfigMap
	Secrets    []*v1.Secret
	Services   []*v1.Service

	mu sync.RWMutex
}

// SetConfigMap adds cm, or replaces the ConfigMap of its namespace and name: what an update
// through the API server is to kubelet. Running pods' volumes show it after Node.ResyncVolumes.
func (o *Objects) SetConfigMap(cm *v1.ConfigMap) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i, old := range o.ConfigMaps {
		if namespaceOf(old.Namespace) == namespaceOf(cm.Namespace) && old.Name == cm.Name {
			o.ConfigMaps[i] = cm
			return
		}
	}
	o.ConfigMaps = append(o.ConfigMaps, cm)
}

var (
	_ configgen.ConfigMapGetter = (*Objects)(nil)
	_ configgen.SecretGetter    = (*Objects)(nil)
	_ configgen.ServiceLister   = (*Objects)(nil)
)

// GetConfigMap returns the ConfigMap, or the API server's NotFound error.
func (o *Objects) GetConfigMap(_ context.Context, namespace, name string) (*v1.ConfigMap, error) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	for _, cm := range o.ConfigMaps {
		if namespaceOf(cm.Namespace) == namespaceOf(namespace) && cm.Name == name {
			return cm, nil
		}
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "configmaps"}, name)
}

// GetSecret returns the Secret, or the API server's NotFound error.
func (o *Objects) GetSecret(_ context.Context, namespace, name string) (*v1.Secret, error) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	for _, s := range o.Secrets {
		if namespaceOf(s.Namespace) == namespaceOf(namespace) && s.Name == name {
			return s, nil
		}
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "secrets"}, name)
}

// ListServices returns the services of a namespace, or of every namespace for "".
func (o *Objects) ListServices(_ context.Context, namespace string) ([]*v1.Service, error) {
	o.mu.RLock()
	defer o.mu.RUnlock()
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
