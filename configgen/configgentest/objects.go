package configgentest

import (
	"context"
	"sort"
	"sync"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Objects is an in-memory API server for the objects container environments read. It implements
// configgen's ConfigMapGetter, SecretGetter, ServiceLister and NodeGetter, answers with the API's
// NotFound errors, and is safe for concurrent use. Getters return the stored pointers: do not
// modify what they return. It is the one store of the project's tools that have no API server:
// podconfig render and the minikubelet example serve their manifests' objects from it.
type Objects struct {
	mu         sync.RWMutex
	configMaps map[string]*v1.ConfigMap
	secrets    map[string]*v1.Secret
	services   map[string][]*v1.Service
	node       *v1.Node
}

// NewObjects returns a store holding objs: *v1.ConfigMap, *v1.Secret, *v1.Service and at most one
// *v1.Node. Other types are ignored.
func NewObjects(objs ...interface{}) *Objects {
	o := &Objects{configMaps: map[string]*v1.ConfigMap{}, secrets: map[string]*v1.Secret{}, services: map[string][]*v1.Service{}}
	for _, obj := range objs {
		o.Add(obj)
	}
	return o
}

// Add stores obj, replacing an object of the same kind, namespace and name.
func (o *Objects) Add(obj interface{}) {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch obj := obj.(type) {
	case *v1.ConfigMap:
		o.configMaps[obj.Namespace+"/"+obj.Name] = obj
	case *v1.Secret:
		o.secrets[obj.Namespace+"/"+obj.Name] = obj
	case *v1.Service:
		list := o.services[obj.Namespace]
		for i, s := range list {
			if s.Name == obj.Name {
				list[i] = obj
				return
			}
		}
		list = append(list, obj)
		sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
		o.services[obj.Namespace] = list
	case *v1.Node:
		o.node = obj
	}
}

// GetConfigMap returns the ConfigMap or the API's NotFound error.
func (o *Objects) GetConfigMap(_ context.Context, namespace, name string) (*v1.ConfigMap, error) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	if cm, ok := o.configMaps[namespace+"/"+name]; ok {
		return cm, nil
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "configmaps"}, name)
}

// GetSecret returns the Secret or the API's NotFound error.
func (o *Objects) GetSecret(_ context.Context, namespace, name string) (*v1.Secret, error) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	if s, ok := o.secrets[namespace+"/"+name]; ok {
		return s, nil
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "secrets"}, name)
}

// ListServices returns the Services of a namespace ("" lists every namespace), sorted by name.
func (o *Objects) ListServices(_ context.Context, namespace string) ([]*v1.Service, error) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	if namespace != "" {
		return append([]*v1.Service(nil), o.services[namespace]...), nil
	}
	var all []*v1.Service
	namespaces := make([]string, 0, len(o.services))
	for ns := range o.services {
		namespaces = append(namespaces, ns)
	}
	sort.Strings(namespaces)
	for _, ns := range namespaces {
		all = append(all, o.services[ns]...)
	}
	return all, nil
}

// GetNode returns the Node; with none added, a Node with no addresses and no allocatable
// resources, like a kubelet's initial node before it has registered.
func (o *Objects) GetNode(_ context.Context) (*v1.Node, error) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	if o.node == nil {
		return &v1.Node{}, nil
	}
	return o.node, nil
}
