package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/pod.golden.json")

// The bundled pod renders to the golden output, byte for byte: rendering is deterministic.
func TestRenderBundledPod(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run([]string{"testdata/pod.yaml"}, nil, &out))
	if *update {
		require.NoError(t, os.WriteFile("testdata/pod.golden.json", out.Bytes(), 0o644))
	}
	golden, err := os.ReadFile("testdata/pod.golden.json")
	require.NoError(t, err)
	assert.Equal(t, string(golden), out.String())

	var again bytes.Buffer
	require.NoError(t, run([]string{"testdata/pod.yaml"}, nil, &again))
	assert.Equal(t, out.String(), again.String(), "two renders are identical")

	var got output
	require.NoError(t, json.Unmarshal(out.Bytes(), &got))
	require.Len(t, got.Containers, 1)
	c := got.Containers[0]
	assert.Equal(t, []string{"--listen=10.244.1.17:8080", "$(LITERAL)", "--undef=$(NOPE)"}, c.Args)
	assert.Equal(t, "/var/log/pods/shop_web-7d9f8_3c1f7a52-6f0e-4a8e-9d3b-2b8f1e0c4d11/web/0.log", c.LogPath)
	assert.Contains(t, c.HostsFile, "10.244.1.17\tweb.frontend.shop.svc.cluster.local\tweb\n")
	assert.Contains(t, c.HostsFile, "192.0.2.50\tdb.internal\tdb\n")
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	assert.Equal(t, "s3cr3t", env["DB_PASSWORD"])
	assert.Equal(t, "512", env["MEMORY_LIMIT_MI"])
	assert.Equal(t, "serving web-7d9f8 on 8080", env["GREETING"])
	assert.Equal(t, "10.96.0.1", env["KUBERNETES_SERVICE_HOST"])
	assert.Equal(t, "192.0.2.10,2001:db8::10", env["NODE_IPS"])
}

func TestRenderStdin(t *testing.T) {
	var out bytes.Buffer
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns, uid: u}\nspec:\n  enableServiceLinks: false\n  containers: [{name: c, image: i}]\n"
	require.NoError(t, run([]string{"-"}, strings.NewReader(pod), &out))
	assert.Contains(t, out.String(), `"name": "c"`)
}

func TestRenderBadInput(t *testing.T) {
	tests := []struct {
		name    string
		input   string
		wantErr string
	}{
		{"unparsable YAML", "kind: Pod\nmetadata: [\n", "document 1: error converting YAML to JSON: yaml: line 2: did not find expected node content"},
		{"no Pod", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n", "no Pod in the input"},
		{"an unknown kind", "kind: Deployment\n", `document 1 (Deployment): unsupported kind "Deployment" (want Pod, ConfigMap, Secret, Service, Node or RenderContext)`},
		{"an unknown field", "kind: Pod\nspec: {containerz: []}\n", `document 1 (Pod): error unmarshaling JSON: while decoding JSON: json: unknown field "containerz"`},
		{
			"a missing required ConfigMap",
			"kind: Pod\nmetadata: {name: p, namespace: ns, uid: u}\nspec:\n  enableServiceLinks: false\n  containers:\n  - name: c\n    image: i\n    envFrom: [{configMapRef: {name: nope}}]\n",
			`pod ns/p, container c: configmaps "nope" not found`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run([]string{"-"}, strings.NewReader(tt.input), &bytes.Buffer{})
			require.EqualError(t, err, tt.wantErr)
			assert.NotContains(t, err.Error(), "\n", "one line on stderr")
		})
	}
}

// The command itself exits 1 with one line on stderr, as the README promises.
func TestMainExitStatus(t *testing.T) {
	if os.Getenv("RENDER_RUN_MAIN") == "1" {
		os.Args = []string{"render", "testdata/does-not-exist.yaml"}
		main()
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=TestMainExitStatus")
	cmd.Env = append(os.Environ(), "RENDER_RUN_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	assert.Equal(t, 1, exit.ExitCode())
	assert.Equal(t, "render: open testdata/does-not-exist.yaml: no such file or directory\n", stderr.String())
}
