package configgen

import (
	"context"
	"fmt"
	"io/fs"

	v1 "k8s.io/api/core/v1"
)

// ConfigMapGetter serves the ConfigMaps that envFrom and configMapKeyRef name (kubelet: the
// configmap manager). A missing ConfigMap must be reported with an error for which
// k8s.io/apimachinery/pkg/api/errors.IsNotFound is true, so optional references can be skipped.
type ConfigMapGetter interface {
	GetConfigMap(ctx context.Context, namespace, name string) (*v1.ConfigMap, error)
}

// ConfigMapGetterFunc adapts a function to ConfigMapGetter.
type ConfigMapGetterFunc func(ctx context.Context, namespace, name string) (*v1.ConfigMap, error)

// GetConfigMap calls f.
func (f ConfigMapGetterFunc) GetConfigMap(ctx context.Context, namespace, name string) (*v1.ConfigMap, error) {
	if f == nil {
		return nil, fmt.Errorf("%w: nil ConfigMapGetterFunc", ErrInvalidOptions)
	}
	return f(ctx, namespace, name)
}

// SecretGetter serves the Secrets that envFrom and secretKeyRef name (kubelet: the secret
// manager). A missing Secret must be reported with an error for which
// k8s.io/apimachinery/pkg/api/errors.IsNotFound is true.
type SecretGetter interface {
	GetSecret(ctx context.Context, namespace, name string) (*v1.Secret, error)
}

// SecretGetterFunc adapts a function to SecretGetter.
type SecretGetterFunc func(ctx context.Context, namespace, name string) (*v1.Secret, error)

// GetSecret calls f.
func (f SecretGetterFunc) GetSecret(ctx context.Context, namespace, name string) (*v1.Secret, error) {
	if f == nil {
		return nil, fmt.Errorf("%w: nil SecretGetterFunc", ErrInvalidOptions)
	}
	return f(ctx, namespace, name)
}

// ServiceLister lists the Services of one namespace, for the service-link variables (kubelet: the
// service lister). It is asked for "default" (for the kubernetes Service) and, when the pod has
// enableServiceLinks, for the pod's namespace. Services of other namespaces in the answer are
// ignored.
//
// A lister may also implement ServiceSyncChecker.
type ServiceLister interface {
	ListServices(ctx context.Context, namespace string) ([]*v1.Service, error)
}

// ServiceListerFunc adapts a function to ServiceLister.
type ServiceListerFunc func(ctx context.Context, namespace string) ([]*v1.Service, error)

// ListServices calls f.
func (f ServiceListerFunc) ListServices(ctx context.Context, namespace string) ([]*v1.Service, error) {
	if f == nil {
		return nil, fmt.Errorf("%w: nil ServiceListerFunc", ErrInvalidOptions)
	}
	return f(ctx, namespace)
}

// ServiceSyncChecker is an optional capability of a ServiceLister backed by a cache (kubelet: the
// service informer's HasSynced). While it reports false, environment variables of pods that do not
// come from a static source fail with "services have not yet been read at least once", so a pod
// never starts without KUBERNETES_SERVICE_HOST because the cache was still empty.
type ServiceSyncChecker interface {
	HasSynced() bool
}

// NodeGetter returns the node the pod runs on (kubelet: getNodeAnyWay). Its addresses give
// status.hostIP and status.hostIPs, its allocatable resources the default limits that
// resourceFieldRef reports.
type NodeGetter interface {
	GetNode(ctx context.Context) (*v1.Node, error)
}

// NodeGetterFunc adapts a function to NodeGetter.
type NodeGetterFunc func(ctx context.Context) (*v1.Node, error)

// GetNode calls f.
func (f NodeGetterFunc) GetNode(ctx context.Context) (*v1.Node, error) {
	if f == nil {
		return nil, fmt.Errorf("%w: nil NodeGetterFunc", ErrInvalidOptions)
	}
	return f(ctx)
}

// EnvFileFS is the host access that fileKeyRef needs: opening the file beneath the volume's root,
// and, when that or the key's lookup fails, resolving the file's path inside its volume without
// following a symlink out of it (securejoin.SecureJoinVFS, whose path and errors give kubelet's
// texts). hostfs.OS and *hostfs.Memory implement it. OpenBeneath is part of the interface so that
// the safety is the backend's, not the caller's: hostfs.OS opens the path in one walk confined to
// the volume (openat2), so a symlink the pod swaps in cannot make it read a host file, and a
// wrapper that forwards OpenBeneath (hostfstest.Interceptor does) keeps that.
type EnvFileFS interface {
	Lstat(path string) (fs.FileInfo, error)
	Readlink(path string) (string, error)
	Open(path string) (fs.File, error)
	OpenBeneath(root, path string) (fs.File, error)
}
