package clientgo

import (
	"context"
	"fmt"

	authenticationv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/podconfig/podconfig/volumes"
)

// TokenRequester asks the API server for service-account tokens through the clientset
// (ServiceAccounts(namespace).CreateToken), as kubelet's token manager does. Wrap it in
// volumes.NewTokenManager for kubelet's cache and refresh. A NotFound answer from a server
// without the TokenRequest endpoint is kubelet's "the API server does not have TokenRequest
// endpoints enabled".
func TokenRequester(cs kubernetes.Interface) volumes.TokenRequester {
	return volumes.TokenRequesterFunc(func(ctx context.Context, namespace, serviceAccount string, tr *authenticationv1.TokenRequest) (*authenticationv1.TokenRequest, error) {
		out, err := cs.CoreV1().ServiceAccounts(namespace).CreateToken(ctx, serviceAccount, tr, metav1.CreateOptions{})
		if apierrors.IsNotFound(err) && !tokenRequestSupported(cs) {
			return nil, fmt.Errorf("the API server does not have TokenRequest endpoints enabled")
		}
		return out, err
	})
}

// tokenRequestSupported reports whether the server lists serviceaccounts/token (kubelet asks
// discovery once; here only after a NotFound).
func tokenRequestSupported(cs kubernetes.Interface) bool {
	resources, err := cs.Discovery().ServerResourcesForGroupVersion("v1")
	if err != nil {
		return false
	}
	for _, r := range resources.APIResources {
		if r.Name == "serviceaccounts/token" {
			return true
		}
	}
	return false
}
