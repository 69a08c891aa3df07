package volumeside

import (
	"context"
	"fmt"
	"time"

	certificatesv1 "k8s.io/api/certificates/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	certinformers "k8s.io/client-go/informers/certificates"
	certv1informers "k8s.io/client-go/informers/certificates/v1"
	certv1listers "k8s.io/client-go/listers/certificates/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/pkg/kubelet/clustertrustbundle"
)

// kubeletTrustBundleTTL is how long kubelet keeps a normalised bundle (LazyInformerManager).
const kubeletTrustBundleTTL = 5 * time.Minute

// bundleStore holds the ClusterTrustBundles a kubelet sees through its informer. The informer
// is faked so that each change reaches kubelet's manager before the next set-up: apply updates
// the store and calls the manager's event handlers itself, in the order a watch delivers them.
type bundleStore struct {
	store    cache.Indexer
	handlers []cache.ResourceEventHandler
}

func newBundleStore() *bundleStore {
	return &bundleStore{store: cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})}
}

// lister is what kubelet's manager and podconfig's Sources read.
func (b *bundleStore) lister() certv1listers.ClusterTrustBundleLister {
	return certv1listers.NewClusterTrustBundleLister(b.store)
}

// apply makes the store hold exactly bundles, sending an add, update or delete event for each
// change (none for an unchanged bundle, as the API server sends none).
func (b *bundleStore) apply(bundles []*certificatesv1.ClusterTrustBundle) error {
	want := map[string]bool{}
	for _, nb := range bundles {
		want[nb.Name] = true
		old, exists, err := b.store.GetByKey(nb.Name)
		if err != nil {
			return err
		}
		switch {
		case !exists:
			if err := b.store.Add(nb.DeepCopy()); err != nil {
				return err
			}
			for _, h := range b.handlers {
				h.OnAdd(nb.DeepCopy(), false)
			}
		case !equality.Semantic.DeepEqual(old, nb):
			if err := b.store.Update(nb.DeepCopy()); err != nil {
				return err
			}
			for _, h := range b.handlers {
				h.OnUpdate(old, nb.DeepCopy())
			}
		}
	}
	for _, old := range b.store.List() {
		ob := old.(*certificatesv1.ClusterTrustBundle)
		if want[ob.Name] {
			continue
		}
		if err := b.store.Delete(ob); err != nil {
			return err
		}
		for _, h := range b.handlers {
			h.OnDelete(ob)
		}
	}
	return nil
}

// kubeletManager is kubelet's informer-based ClusterTrustBundle manager (the GA API, the 5-minute
// cache of LazyInformerManager) over the store.
func (b *bundleStore) kubeletManager() (clustertrustbundle.Manager, error) {
	return clustertrustbundle.NewGAInformerManager(context.Background(), bundleFactory{b: b}, 100, kubeletTrustBundleTTL)
}

// bundleFactory is an informer factory that has only the ClusterTrustBundle informer.
type bundleFactory struct {
	informers.SharedInformerFactory
	b *bundleStore
}

func (f bundleFactory) Certificates() certinformers.Interface { return bundleGroup{b: f.b} }

// bundleGroup and bundleVersion lead to the ClusterTrustBundle informer; their other methods are
// the nil interfaces' (kubelet's manager calls none).
type bundleGroup struct {
	certinformers.Interface
	b *bundleStore
}

func (g bundleGroup) V1() certv1informers.Interface { return bundleVersion{b: g.b} }

type bundleVersion struct {
	certv1informers.Interface
	b *bundleStore
}

func (v bundleVersion) ClusterTrustBundles() certv1informers.TypedClusterTrustBundleInformer {
	return bundleInformer{b: v.b}
}

type bundleInformer struct {
	certv1informers.TypedClusterTrustBundleInformer
	b *bundleStore
}

func (i bundleInformer) Informer() cache.SharedIndexInformer            { return sharedBundleInformer{b: i.b} }
func (i bundleInformer) Lister() certv1listers.ClusterTrustBundleLister { return i.b.lister() }

// sharedBundleInformer records the manager's handlers and is always synced.
type sharedBundleInformer struct {
	cache.SharedIndexInformer
	b *bundleStore
}

func (s sharedBundleInformer) AddEventHandler(h cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error) {
	s.b.handlers = append(s.b.handlers, h)
	return syncedRegistration{}, nil
}

func (s sharedBundleInformer) HasSynced() bool { return true }

type syncedRegistration struct {
	cache.ResourceEventHandlerRegistration
}

func (syncedRegistration) HasSynced() bool { return true }

// trustBundles is podconfig's ClusterTrustBundleLister over the same store.
type trustBundles struct {
	l certv1listers.ClusterTrustBundleLister
}

func (t trustBundles) GetClusterTrustBundle(_ context.Context, name string) (*certificatesv1.ClusterTrustBundle, error) {
	return t.l.Get(name)
}

func (t trustBundles) ListClusterTrustBundles(_ context.Context, selector labels.Selector) ([]*certificatesv1.ClusterTrustBundle, error) {
	if selector == nil {
		return nil, fmt.Errorf("no selector")
	}
	return t.l.List(selector)
}
