package node_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	authenticationv1 "k8s.io/api/authentication/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/examples/minikubelet/internal/node"
	"github.com/podconfig/podconfig/volumes"
)

// A running pod reads its configMap, secret, downwardAPI and projected (kube-api-access: token,
// ConfigMap, namespace) files, then sees an update of the ConfigMap appear through ..data in both
// volumes that project it.
func TestE2EVolumeFilesAndConfigMapUpdate(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: ConfigMap
metadata: {name: files}
data: {greeting: hello}
---
apiVersion: v1
kind: Secret
metadata: {name: keys}
stringData: {password: s3cr3t}
---
apiVersion: v1
kind: Pod
metadata: {name: volfiles, labels: {app: demo}}
spec:
  restartPolicy: Never
  hostNetwork: true
  volumes:
  - {name: cm, configMap: {name: files}}
  - {name: sec, secret: {secretName: keys}}
  - name: info
    downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}, {path: name, fieldRef: {fieldPath: metadata.name}}]}
  - name: kube-api-access
    projected:
      sources:
      - serviceAccountToken: {path: token, expirationSeconds: 3607}
      - configMap: {name: files, items: [{key: greeting, path: greeting}]}
      - downwardAPI: {items: [{path: namespace, fieldRef: {fieldPath: metadata.namespace}}]}
  containers:
  - name: main
    image: `+image+`
    volumeMounts:
    - {name: cm, mountPath: /cm}
    - {name: sec, mountPath: /sec}
    - {name: info, mountPath: /info}
    - {name: kube-api-access, mountPath: /var/run/secrets/kubernetes.io/serviceaccount}
    command:
    - sh
    - -c
    - |
      sa=/var/run/secrets/kubernetes.io/serviceaccount
      echo "cm=$(cat /cm/greeting) sec=$(cat /sec/password) name=$(cat /info/name) $(cat /info/labels)"
      echo "token=$(cat $sa/token) ns=$(cat $sa/namespace) greeting=$(cat $sa/greeting)"
      before=$(readlink /cm/..data)
      echo VOLUMES-READ
      while [ "$(cat /cm/greeting)" = hello ] || [ "$(cat $sa/greeting)" = hello ]; do sleep 0.1; done
      [ "$(readlink /cm/..data)" != "$before" ] && echo "..data swapped"
      echo "cm=$(cat /cm/greeting) greeting=$(cat $sa/greeting)"
`)
	read := e.out.when("VOLUMES-READ")
	type result struct {
		status *node.PodStatus
		err    error
	}
	done := make(chan result, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	go func() {
		status, err := e.node.RunPod(ctx, e.in.Pods[0])
		done <- result{status, err}
	}()
	select {
	case <-read:
	case r := <-done:
		t.Fatalf("the pod ended before reading its volumes: %v\n%s", r.err, e.out)
	case <-ctx.Done():
		t.Fatalf("the pod did not read its volumes within a minute:\n%s", e.out)
	}
	cm, err := e.in.Objects.GetConfigMap(ctx, "default", "files")
	require.NoError(t, err)
	updated := cm.DeepCopy()
	updated.Data = map[string]string{"greeting": "bonjour"}
	e.in.Objects.Add(updated)
	require.NoError(t, e.node.ResyncVolumes(ctx))

	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		t.Fatalf("the pod did not see the update:\n%s", e.out)
	}
	require.NoError(t, r.err)
	require.NotNil(t, r.status)
	assertNoMountsBelow(t, e.root+"/kubelet/pods/"+string(r.status.UID))
	assert.Equal(t, `cm=hello sec=s3cr3t name=volfiles app="demo"
token=`+node.OfflineToken+` ns=default greeting=hello
VOLUMES-READ
..data swapped
cm=bonjour greeting=bonjour
`, logOf(t, r.status, "main"))
}

// testSigningKey is the fixed key of signedTokens.
var testSigningKey = []byte("minikubelet end-to-end fixed HMAC key")

// signedTokens is a TokenRequester backed by a fixed key, as an API server is backed by its
// service-account key: an HS256 JWT naming the service account, the audiences and the pod the
// request binds the token to.
var signedTokens = volumes.TokenRequesterFunc(func(_ context.Context, namespace, sa string, tr *authenticationv1.TokenRequest) (*authenticationv1.TokenRequest, error) {
	ref := tr.Spec.BoundObjectRef
	if ref == nil || ref.Kind != "Pod" || tr.Spec.ExpirationSeconds == nil {
		return nil, errors.New("a token request must bind the token to a pod and ask an expiration")
	}
	exp := time.Now().Add(time.Duration(*tr.Spec.ExpirationSeconds) * time.Second)
	claims, err := json.Marshal(map[string]any{
		"sub": "system:serviceaccount:" + namespace + ":" + sa, "aud": tr.Spec.Audiences, "exp": exp.Unix(),
		"kubernetes.io": map[string]any{"namespace": namespace, "pod": map[string]string{"name": ref.Name, "uid": string(ref.UID)}},
	})
	if err != nil {
		return nil, err
	}
	enc := base64.RawURLEncoding
	signed := enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + enc.EncodeToString(claims)
	mac := hmac.New(sha256.New, testSigningKey)
	mac.Write([]byte(signed))
	out := tr.DeepCopy()
	out.Status = authenticationv1.TokenRequestStatus{Token: signed + "." + enc.EncodeToString(mac.Sum(nil)), ExpirationTimestamp: metav1.NewTime(exp)}
	return out, nil
})

// A container reads a token that Config.Tokens issued through kubelet's token manager: signed
// by the requester's key, for the projection's audience, bound to this pod's name and UID.
func TestE2EServiceAccountTokenFromTheRequester(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: tokenpod}
spec:
  restartPolicy: Never
  hostNetwork: true
  serviceAccountName: builder
  volumes:
  - name: token
    projected: {sources: [{serviceAccountToken: {path: token, audience: vault, expirationSeconds: 3600}}]}
  containers:
  - name: main
    image: `+image+`
    volumeMounts: [{name: token, mountPath: /var/run/secrets/tokens}]
    command: [sh, -c, 'cat /var/run/secrets/tokens/token; echo']
`, func(c *node.Config) { c.Tokens = signedTokens })
	status, err := e.run(t, nil)
	require.NoError(t, err)
	parts := strings.Split(strings.TrimSuffix(logOf(t, status, "main"), "\n"), ".")
	require.Len(t, parts, 3, "a JWT")
	mac := hmac.New(sha256.New, testSigningKey)
	mac.Write([]byte(parts[0] + "." + parts[1]))
	assert.Equal(t, base64.RawURLEncoding.EncodeToString(mac.Sum(nil)), parts[2], "signed by the requester's key")
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	require.NoError(t, err)
	var claims struct {
		Sub  string   `json:"sub"`
		Aud  []string `json:"aud"`
		Kube struct {
			Pod struct{ Name, UID string } `json:"pod"`
		} `json:"kubernetes.io"`
	}
	require.NoError(t, json.Unmarshal(raw, &claims))
	assert.Equal(t, "system:serviceaccount:default:builder", claims.Sub)
	assert.Equal(t, []string{"vault"}, claims.Aud)
	assert.Equal(t, "tokenpod", claims.Kube.Pod.Name)
	assert.Equal(t, string(status.UID), claims.Kube.Pod.UID, "bound to the pod's UID")
}
