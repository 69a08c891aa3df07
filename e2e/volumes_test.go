package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
  # What the ServiceAccount admission plugin gives a pod, which the API server then requires of
  # a serviceAccountToken projection.
  serviceAccountName: default
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
	e.start(t)
	select {
	case <-read:
	case <-e.done:
		t.Fatalf("the pod ended before reading its volumes: %v\n%s", e.waitErr, e.log)
	case <-time.After(time.Minute):
		t.Fatalf("the pod did not read its volumes within a minute:\n%s", e.out)
	}
	// The ConfigMap changes in the manifest, and minikubelet re-reads it on SIGHUP.
	e.manifest = strings.Replace(e.manifest, "data: {greeting: hello}", "data: {greeting: bonjour}", 1)
	require.NoError(t, os.WriteFile(filepath.Join(e.dir, "manifest.yaml"), []byte(e.manifest), 0o644))
	e.signal(t, syscall.SIGHUP)
	status, err := e.wait(t, nil)
	require.NoError(t, err)
	assert.Equal(t, `cm=hello sec=s3cr3t name=volfiles app="demo"
token=`+volumes.PlaceholderToken+` ns=default greeting=hello
VOLUMES-READ
..data swapped
cm=bonjour greeting=bonjour
`, logOf(t, status, "main"))
}
