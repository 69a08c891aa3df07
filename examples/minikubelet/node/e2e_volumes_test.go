package node_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/examples/minikubelet/node"
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
	e.in.Objects.SetConfigMap(updated)
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

// SetConfigMap replaces the ConfigMap of the same namespace and name, an object without a
// namespace being in "default", and adds one it does not have.
func TestObjectsSetConfigMap(t *testing.T) {
	objs := &node.Objects{}
	objs.SetConfigMap(&v1.ConfigMap{Data: map[string]string{"k": "v"}})
	objs.SetConfigMap(&v1.ConfigMap{Data: map[string]string{"k": "w"}})
	cm, err := objs.GetConfigMap(context.Background(), "default", "")
	require.NoError(t, err)
	assert.Equal(t, "w", cm.Data["k"], "SetConfigMap replaces the ConfigMap of the same namespace and name")
	assert.Len(t, objs.ConfigMaps, 1)
	objs.SetConfigMap(&v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "other"}})
	assert.Len(t, objs.ConfigMaps, 2)
}
