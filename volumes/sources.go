package volumes

import (
	"context"

	authenticationv1 "k8s.io/api/authentication/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/podconfig/podconfig/internal/errkind"
)

// ConfigMapGetter serves the ConfigMaps of configMap volumes and projections (kubelet: the
// configmap manager). A missing ConfigMap must be an error for which
// k8s.io/apimachinery/pkg/api/errors.IsNotFound is true; its text is the volume's error (kubelet's
// manager says `configmap "<name>" not found`). configgen's getters have the same method.
type ConfigMapGetter interface {
	GetConfigMap(ctx context.Context, namespace, name string) (*v1.ConfigMap, error)
}

// SecretGetter serves the Secrets of secret volumes and projections (kubelet: the secret
// manager), with NotFound errors as ConfigMapGetter.
type SecretGetter interface {
	GetSecret(ctx context.Context, namespace, name string) (*v1.Secret, error)
}

// NodeGetter returns the node the pod runs on; its allocatable resources are the default limits
// of resourceFieldRef files and the ceiling of a memory-backed emptyDir.
type NodeGetter interface {
	GetNode(ctx context.Context) (*v1.Node, error)
}

// TokenGetter returns a service-account token for a TokenRequest (kubelet: the token manager's
// GetServiceAccountToken). *TokenManager implements it.
type TokenGetter interface {
	GetServiceAccountToken(ctx context.Context, namespace, name string, tr *authenticationv1.TokenRequest) (*authenticationv1.TokenRequest, error)
}

// ClusterTrustBundleLister serves ClusterTrustBundles (certificates.k8s.io/v1) for
// clusterTrustBundle projections (kubelet: the ClusterTrustBundle informer's lister). A missing
// bundle must be an error for which IsNotFound is true.
type ClusterTrustBundleLister interface {
	GetClusterTrustBundle(ctx context.Context, name string) (*certificatesv1.ClusterTrustBundle, error)
	ListClusterTrustBundles(ctx context.Context, selector labels.Selector) ([]*certificatesv1.ClusterTrustBundle, error)
}

// PodCertificateGetter returns the key and certificate chain (both PEM) issued for the
// podCertificate projection at sourceIndex of the pod's projected volume volumeName (kubelet:
// the pod certificate manager's GetPodCertificateCredentialBundle). Its errors are the volume's:
// kubelet's manager says "no credentials yet for key=..." until the signer has issued.
type PodCertificateGetter interface {
	GetPodCertificateCredentialBundle(ctx context.Context, namespace, podName, podUID, volumeName string, sourceIndex int) (privateKey, certificateChain []byte, err error)
}

// ErrNoNode is matched by the error of a resourceFieldRef or memory-backed emptyDir when
// Sources has no NodeGetter or it returned no node.
var ErrNoNode = errkind.Sentinel(errkind.DependencyFailed, "no node is known")

// Sources is what payloads are made from: the API objects a pod's volumes read, served by small
// interfaces a client-go lister, a provider's store or a map in a test implements. A nil getter
// fails the volumes that need it with an error naming what is missing; the others work. The zero
// value fills downwardAPI volumes whose items read only the pod's metadata.
type Sources struct {
	ConfigMaps      ConfigMapGetter
	Secrets         SecretGetter
	Node            NodeGetter
	Tokens          TokenGetter
	TrustBundles    ClusterTrustBundleLister
	PodCertificates PodCertificateGetter
	// UserFields is the AtomicWriteVolumeUserFields feature gate (alpha, off in v1.37): on, the
	// defaultUser and user fields of the sources own the files.
	UserFields bool
	// MaxPayloadBytes bounds the bytes of one volume's files (the sum of their sizes, counted as
	// they are collected, so that nothing past it is copied); past it Payload fails with
	// ErrPayloadTooLarge naming the volume. 0 is no bound, as kubelet has none of its own (a
	// memory-backed volume is bounded by the pod's memory when written). podconfig render sets
	// one: offline every file is held in memory, and -o crictl writes them to disk.
	MaxPayloadBytes int64
}
