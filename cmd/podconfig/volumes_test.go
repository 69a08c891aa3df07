package main

import (
	"encoding/json"
	"strings"
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

// With --allow-missing a volume reads the same placeholder object as the env (one warning, no
// FailedMount); a missing object every reference to which is optional stays missing, and the
// volume is empty or partial as kubelet's configMap, secret and projected plugins make it.
// Without the flag a missing required object is a FailedMount warning, as before.
func TestRenderAllowMissingVolumes(t *testing.T) {
	const head = `apiVersion: v1
kind: Pod
metadata: {name: app, namespace: shop}
spec:
  containers:
  - name: app
    image: busybox
`
	placeholderLine := func(kind, name string) string {
		return "warning: pod shop/app: MissingObjectPlaceholder: " + kind + " shop/" + name + " is not in the input: rendered as a placeholder (--allow-missing)\n"
	}
	file := func(path, content string) jsonFile {
		return jsonFile{Path: path, Mode: "0644", Size: len(content), Content: &content}
	}
	tests := []struct {
		name       string
		spec       string // the container's env and the pod's volumes
		noFlag     bool   // render without --allow-missing
		wantStderr string
		want       []jsonFile // the files of volume "v"; nil: no such volume
	}{{
		name:       "required configMap volume, missing: placeholder for its items' keys",
		spec:       "  volumes:\n  - name: v\n    configMap: {name: cfg, items: [{key: a, path: x/a}]}\n",
		wantStderr: placeholderLine("ConfigMap", "cfg"),
		want:       []jsonFile{file("x/a", "<missing ConfigMap shop/cfg key a>")},
	}, {
		name: "required secret volume and env reference: one placeholder, the env's keys in the volume",
		spec: "    env: [{name: T, valueFrom: {secretKeyRef: {name: creds, key: token}}}]\n" +
			"  volumes:\n  - name: v\n    secret: {secretName: creds}\n",
		wantStderr: placeholderLine("Secret", "creds"),
		want:       []jsonFile{file("token", "<missing Secret shop/creds key token>")},
	}, {
		name:       "required configMap volume with no items and no other reference: an empty placeholder",
		spec:       "  volumes:\n  - name: v\n    configMap: {name: cfg}\n",
		wantStderr: placeholderLine("ConfigMap", "cfg"),
		want:       []jsonFile{},
	}, {
		name:       "optional configMap volume, missing: skipped silently, empty volume",
		spec:       "  volumes:\n  - name: v\n    configMap: {name: cfg, optional: true, items: [{key: a, path: a}]}\n",
		wantStderr: "",
		want:       []jsonFile{},
	}, {
		name:       "optional secret volume, missing: skipped silently, empty volume",
		spec:       "  volumes:\n  - name: v\n    secret: {secretName: creds, optional: true}\n",
		wantStderr: "",
		want:       []jsonFile{},
	}, {
		name: "projected: required configMap is a placeholder, optional secret skipped",
		spec: "  volumes:\n  - name: v\n    projected:\n      sources:\n" +
			"      - configMap: {name: cfg, items: [{key: a, path: a}]}\n" +
			"      - secret: {name: creds, optional: true, items: [{key: b, path: b}]}\n",
		wantStderr: placeholderLine("ConfigMap", "cfg"),
		want:       []jsonFile{file("a", "<missing ConfigMap shop/cfg key a>")},
	}, {
		name: "optional volume, required env reference: the env's placeholder, with the volume's keys too",
		spec: "    env: [{name: L, valueFrom: {configMapKeyRef: {name: cfg, key: level}}}]\n" +
			"  volumes:\n  - name: v\n    configMap: {name: cfg, optional: true, items: [{key: other, path: o}, {key: level, path: l}]}\n",
		wantStderr: placeholderLine("ConfigMap", "cfg"),
		want:       []jsonFile{file("l", "<missing ConfigMap shop/cfg key level>"), file("o", "<missing ConfigMap shop/cfg key other>")},
	}, {

		name:       "without --allow-missing an optional missing object is skipped",
		spec:       "  volumes:\n  - name: v\n    secret: {secretName: creds, optional: true}\n",
		noFlag:     true,
		wantStderr: "",
		want:       []jsonFile{},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"render", "--image-user", "busybox=1000", "--show-secrets"}
			if !tt.noFlag {
				args = append(args, "--allow-missing")
			}
			code, stdout, stderr := cli(t, head+tt.spec, append(args, "-")...)
			require.Equal(t, 0, code, stderr)
			assert.Equal(t, tt.wantStderr, stderr)
			var res struct {
				Pods []struct {
					Volumes []jsonVolume `json:"volumes"`
				} `json:"pods"`
			}
			require.NoError(t, json.Unmarshal([]byte(stdout), &res))
			require.Len(t, res.Pods, 1)
			var got []jsonFile
			for _, v := range res.Pods[0].Volumes {
				if v.Name == "v" {
					got = v.Files
				}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// A volume's ConfigMap or Secret the input lacks fails the pod, as a missing env reference does:
// kubelet never starts it. The error names the object and --allow-missing; several pods lacking
// one object are counted in one warning.
func TestRenderMissingVolumeObjectFailsThePod(t *testing.T) {
	pod := func(name string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: shop}\nspec:\n  containers: [{name: c, image: busybox}]\n" +
			"  volumes:\n  - name: v\n    configMap: {name: cfg, items: [{key: a, path: a}]}\n"
	}
	t.Run("one pod", func(t *testing.T) {
		code, stdout, stderr := cli(t, pod("app"), "render", "--image-user", "busybox=1000", "-")
		assert.Equal(t, exitError, code)
		assert.Equal(t, `podconfig render: stdin: document 1 (Pod app): pod shop/app: MountVolume.SetUp failed for volume "v" of pod shop/app: configmaps "cfg" not found; add it to the input, or render with --allow-missing for a placeholder`+"\n", stderr)
		assert.NotContains(t, stdout, `"containers"`)
	})
	t.Run("two pods lacking one object", func(t *testing.T) {
		code, _, stderr := cli(t, pod("a")+"---\n"+pod("b"), "render", "--image-user", "busybox=1000", "-")
		assert.Equal(t, exitError, code)
		assert.True(t, strings.HasPrefix(stderr, "warning: 2 pods failed for 1 object the input lacks: configmaps shop/cfg (2 pods); add it to the input, or render with --allow-missing for placeholders\n"), stderr)
		assert.Equal(t, 3, strings.Count(stderr, "\n"), stderr)
	})
	t.Run("with --allow-missing a placeholder is rendered", func(t *testing.T) {
		code, _, stderr := cli(t, pod("app"), "render", "--image-user", "busybox=1000", "--allow-missing", "-")
		assert.Equal(t, exitOK, code, stderr)
	})
}
