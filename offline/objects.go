package offline

import (
	"context"
	"sort"
	"sync"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Objects is an in-memory API server for the objects container environments and volumes read.
// It implements configgen's ConfigMapGetter, SecretGetter, ServiceLister and NodeGetter and the
// volumes package's getters, answers with the API's NotFound errors, and is safe for concurrent
// use. Getters return the stored pointers: do not modify what they return. It is the one store
// of the project's tools that have no API server: podconfig render and the minikubelet example
// serve their manifests' objects from it. It is a plain store: no watches, no resource versions,
// no check that a namespace exists.
type Objects struct {
	mu         sync.RWMutex
	configMaps map[string]*v1.ConfigMap
	secrets    map[string]*v1.Secret
	services   map[string]*namespaceServices
	// unsorted are the namespaces whose Services were added out of order since they were last
	// listed.
	unsorted []*namespaceServices
	node     *v1.Node
}

// namespaceServices are the Services of one namespace. They are sorted when listed, not as each
// is added: sorting and scanning the list on every Add made a manifest of n Services cost n²
// (50,000 Services, 5.5 MB of YAML, took 30 s to load).
type namespaceServices struct {
	list   []*v1.Service
	byName map[string]int // index in list
	sorted bool
}

// NewObjects returns a store holding objs: *v1.ConfigMap, *v1.Secret, *v1.Service and at most one
// *v1.Node. Other types are ignored.
func NewObjects(objs ...interface{}) *Objects {
	o := &Objects{configMaps: map[string]*v1.ConfigMap{}, secrets: map[string]*v1.Secret{}, services: map[string]*namespaceServices{}}
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
		ns := o.services[obj.Namespace]
		if ns == nil {
			ns = &namespaceServices{byName: map[string]int{}, sorted: true}
			o.services[obj.Namespace] = ns
		}
		if i, ok := ns.byName[obj.Name]; ok {
			ns.list[i] = obj
			return
		}
		ns.byName[obj.Name] = len(ns.list)
		ns.list = append(ns.list, obj)
		if n := len(ns.list); ns.sorted && n > 1 && ns.list[n-2].Name > obj.Name {
			ns.sorted = false
			o.unsorted = append(o.unsorted, ns)
		}
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
	o.sortServices()
	o.mu.RLock()
	defer o.mu.RUnlock()
	if namespace != "" {
		if ns := o.services[namespace]; ns != nil {
			return append([]*v1.Service(nil), ns.list...), nil
		}
		return nil, nil
	}
	var all []*v1.Service
	namespaces := make([]string, 0, len(o.services))
	for ns := range o.services {
		namespaces = append(namespaces, ns)
	}
	sort.Strings(namespaces)
	for _, ns := range namespaces {
		all = append(all, o.services[ns].list...)
	}
	return all, nil
}

// sortServices sorts the namespaces whose Services were added out of order since they were last
// listed.
func (o *Objects) sortServices() {
	o.mu.RLock()
	sorted := len(o.unsorted) == 0
	o.mu.RUnlock()
	if sorted {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, ns := range o.unsorted {
		sort.Slice(ns.list, func(i, j int) bool { return ns.list[i].Name < ns.list[j].Name })
		for i, s := range ns.list {
			ns.byName[s.Name] = i
		}
		ns.sorted = true
	}
	o.unsorted = nil
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
