package volumeside

import (
	"fmt"

	authenticationv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kubernetes/pkg/apis/authentication"
	authenticationv1conv "k8s.io/kubernetes/pkg/apis/authentication/v1"
	authenticationvalidation "k8s.io/kubernetes/pkg/apis/authentication/validation"
)

// tokenRequestKind is how the API server names a TokenRequest in its errors.
var tokenRequestKind = schema.GroupKind{Group: authenticationv1.SchemeGroupVersion.Group, Kind: "TokenRequest"}

// validateTokenRequest is what the API server's TokenRequest storage does to a request before
// issuing a token (pkg/registry/core/serviceaccount/storage/token.go): default the spec, convert
// it, and refuse it as Invalid when the static validation fails. The service account's lookup,
// which comes first there, is not modelled: the fake server has every service account.
func validateTokenRequest(tr *authenticationv1.TokenRequest) error {
	in := tr.DeepCopy()
	authenticationv1conv.SetDefaults_TokenRequestSpec(&in.Spec)
	var out authentication.TokenRequest
	if err := authenticationv1conv.Convert_v1_TokenRequest_To_authentication_TokenRequest(in, &out, nil); err != nil {
		return fmt.Errorf("converting the token request: %w", err)
	}
	if errs := authenticationvalidation.ValidateTokenRequest(&out); len(errs) != 0 {
		return apierrors.NewInvalid(tokenRequestKind, "", errs)
	}
	return nil
}
