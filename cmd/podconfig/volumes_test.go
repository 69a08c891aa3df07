package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const volumesManifest = `apiVersion: v1
kind: Secret
metadata: {name: db, namespace: shop}
stringData: {password: hunter2}
---
apiVersion: v1
kind: Pod
metadata: {name: app, namespace: shop}
spec:
  securityContext: {fsGroup: 2000}
  containers:
  - name: app
    image: busybox
    volumeMounts: [{name: db, mountPath: /db}]
  volumes:
  - name: db
    secret: {secretName: db}
`

func renderedVolumes(t *testing.T, args ...string) map[string]jsonVolume {
	t.Helper()
	code, stdout, stderr := cli(t, volumesManifest, append([]string{"render", "--image-user", "busybox=1000"}, append(args, "-")...)...)
	require.Equal(t, 0, code, stderr)
	var res struct {
		Pods []struct {
			Volumes []jsonVolume `json:"volumes"`
		} `json:"pods"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &res))
	require.Len(t, res.Pods, 1)
	out := map[string]jsonVolume{}
	for _, v := range res.Pods[0].Volumes {
		out[v.Type] = v
	}
	return out
}

func TestRenderVolumeFiles(t *testing.T) {
	vols := renderedVolumes(t)
	require.Contains(t, vols, "secret")
	require.Contains(t, vols, "projected", "the service-account volume admission adds")
	assert.Equal(t, []jsonFile{{Path: "password", Mode: "0644", Size: 7}}, vols["secret"].Files, "secret data is shown by size only")
	for _, f := range vols["projected"].Files {
		switch f.Path {
		case "token":
			assert.Nil(t, f.Content, "a token is shown by size only")
			assert.Equal(t, "0600", f.Mode, "0600 with an fsGroup, as kubelet writes it")
		case "namespace":
			require.NotNil(t, f.Content)
			assert.Equal(t, "shop", *f.Content)
		}
	}

	vols = renderedVolumes(t, "--show-secrets")
	require.NotNil(t, vols["secret"].Files[0].Content)
	assert.Equal(t, "hunter2", *vols["secret"].Files[0].Content)
}
