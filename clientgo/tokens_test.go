package clientgo_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	authenticationv1 "k8s.io/api/authentication/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/podconfig/podconfig/clientgo"
)

func TestTokenRequester(t *testing.T) {
	cs := fake.NewClientset(&v1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "builder", Namespace: "shop"}})
	var got *authenticationv1.TokenRequest
	cs.PrependReactor("create", "serviceaccounts", func(a k8stesting.Action) (bool, runtime.Object, error) {
		ca := a.(k8stesting.CreateAction)
		if ca.GetSubresource() != "token" {
			return false, nil, nil
		}
		got = ca.GetObject().(*authenticationv1.TokenRequest)
		out := got.DeepCopy()
		out.Status.Token = "jwt"
		return true, out, nil
	})
	exp := int64(3607)
	tr, err := clientgo.TokenRequester(cs).RequestToken(context.Background(), "shop", "builder", &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &exp,
			BoundObjectRef: &authenticationv1.BoundObjectReference{Kind: "Pod", APIVersion: "v1", Name: "web", UID: "u"}}})
	require.NoError(t, err)
	assert.Equal(t, "jwt", tr.Status.Token)
	assert.Equal(t, "web", got.Spec.BoundObjectRef.Name, "the bound pod reaches the API server")
}
