package clientgo

import (
	"context"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/podconfig/podconfig/configgen"
)

// Sources are the getters configgen.Options, configgen.EnvInput and configgen.PodEnvInput take.
// Copy them into any of them.
type Sources struct {
	ConfigMaps configgen.ConfigMapGetter
	Secrets    configgen.SecretGetter
	Services   configgen.ServiceLister
	Node       configgen.NodeGetter
}

// ConfigMapLister serves ConfigMaps from a lister. A missing ConfigMap is the lister's NotFound
// error, as configgen expects.
func ConfigMapLister(l corelisters.ConfigMapLister) configgen.ConfigMapGetter {
	return configgen.ConfigMapGetterFunc(func(_ context.Context, namespace, name string) (*v1.ConfigMap, error) {
		return l.ConfigMaps(namespace).Get(name)
	})
}

// SecretLister serves Secrets from a lister.
func SecretLister(l corelisters.SecretLister) configgen.SecretGetter {
	return configgen.SecretGetterFunc(func(_ context.Context, namespace, name string) (*v1.Secret, error) {
		return l.Secrets(namespace).Get(name)
	})
}

// ServiceLister lists Services from a lister. hasSynced, usually the Service informer's
// HasSynced, is passed on as configgen.ServiceSyncChecker, so that no pod gets an environment
// without its service variables while the cache is still filling; nil means always synced.
func ServiceLister(l corelisters.ServiceLister, hasSynced cache.InformerSynced) configgen.ServiceLister {
	return &serviceLister{lister: l, hasSynced: hasSynced}
}

type serviceLister struct {
	lister    corelisters.ServiceLister
	hasSynced cache.InformerSynced
}

var _ configgen.ServiceSyncChecker = (*serviceLister)(nil)

func (s *serviceLister) ListServices(_ context.Context, namespace string) ([]*v1.Service, error) {
	return s.lister.Services(namespace).List(labels.Everything())
}

// HasSynced reports whether the informer behind the lister has synced.
func (s *serviceLister) HasSynced() bool { return s.hasSynced == nil || s.hasSynced() }

// NodeLister returns the node named nodeName from a lister.
func NodeLister(l corelisters.NodeLister, nodeName string) configgen.NodeGetter {
	return configgen.NodeGetterFunc(func(context.Context) (*v1.Node, error) {
		return l.Get(nodeName)
	})
}
