package manifest_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/manifest"
)

// The expected hashes were computed by Kubernetes v1.37's own code on the same manifests:
// controller.ComputeHash for the Deployment's pod-template-hash, and the StatefulSet controller's
// patch through history.NewControllerRevision for its controller-revision-hash, first on the
// manifests as written, then after the API server's defaulting (legacyscheme.Scheme.Default).
func TestHashesMatchTheControllers(t *testing.T) {
	const in = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}, annotations: {a: b}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports: [{containerPort: 80}]
        env: [{name: X, valueFrom: {fieldRef: {fieldPath: metadata.name}}}]
        resources: {limits: {cpu: 500m, memory: 128Mi}}
        readinessProbe: {httpGet: {port: 80}}
      volumes: [{name: c, configMap: {name: cm}}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: data}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres:17, volumeMounts: [{name: d, mountPath: /d}]}]
  volumeClaimTemplates: [{metadata: {name: d}}]
`
	tests := []struct {
		name             string
		defaultTemplates bool
		wantPodTemplate  string
		wantRevision     string
	}{
		{"templates as written", false, "5fc7558949", "db-54dfd6675d"},
		{"templates defaulted as the API server stores them", true, "5dcbd4bbb9", "db-86dfffffd4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := manifest.Read(manifest.Options{DefaultTemplates: tt.defaultTemplates}, manifest.Input{Reader: strings.NewReader(in)})
			require.NoError(t, err)
			require.Len(t, b.Pods, 2)
			assert.Equal(t, tt.wantPodTemplate, b.Pods[0].Pod.Labels["pod-template-hash"])
			assert.Equal(t, "web-"+tt.wantPodTemplate, b.Pods[0].Pod.OwnerReferences[0].Name)
			assert.Equal(t, tt.wantRevision, b.Pods[1].Pod.Labels["controller-revision-hash"])
		})
	}
}
