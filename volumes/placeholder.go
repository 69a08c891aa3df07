package volumes

import (
	"context"

	authenticationv1 "k8s.io/api/authentication/v1"
)

// PlaceholderTokens is a TokenGetter for offline use: every token is the fixed text
// "placeholder-token-not-a-jwt", never valid for an API server, expiring with the request's
// expiration from the zero time. podconfig render uses it so a pod's kube-api-access volume shows
// its shape without a cluster.
type PlaceholderTokens struct{}

// PlaceholderToken is the token PlaceholderTokens returns.
const PlaceholderToken = "placeholder-token-not-a-jwt"

// GetServiceAccountToken returns the request with the placeholder token.
func (PlaceholderTokens) GetServiceAccountToken(_ context.Context, _, _ string, tr *authenticationv1.TokenRequest) (*authenticationv1.TokenRequest, error) {
	if tr == nil {
		tr = &authenticationv1.TokenRequest{}
	}
	out := tr.DeepCopy()
	out.Status.Token = PlaceholderToken
	return out, nil
}
