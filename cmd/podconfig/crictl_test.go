package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"sigs.k8s.io/yaml"
)

// loadLikeCrictl decodes a file as crictl v1.37's loadPodSandboxConfig and loadContainerConfig
// do: sigs.k8s.io/yaml into the CRI Go type.
func loadLikeCrictl(t *testing.T, path string, into any) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(data, into), path)
}

func TestCrictlOutputIsWhatCrictlLoadsAndMounts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := cli(t, "", "render", "-o", "crictl", "--output-directory", dir,
		"--pod-ip", "10.88.0.2", "--cgroup-root", "/e2e", "testdata/shop.yaml")
	require.Equal(t, 0, code, stderr)
	podDir := filepath.Join(dir, "shop_web-7d9f8")
	assert.Equal(t, "pod shop/web-7d9f8: "+podDir+"\n", stdout)

	// The same render as JSON, with the same directories, is what the files must decode to.
	cfg, fs := newRenderFlags()
	require.NoError(t, fs.Parse([]string{"-o", "crictl", "--output-directory", dir, "--pod-ip", "10.88.0.2", "--cgroup-root", "/e2e"}))
	cfg.files = []string{"testdata/shop.yaml"}
	require.NoError(t, cfg.validate())
	var pods []podResult
	_, err := render(cfg, nil, func(p *podResult) error { pods = append(pods, *p); return nil })
	require.NoError(t, err)
	want := pods[0]

	var sandbox runtimeapi.PodSandboxConfig
	loadLikeCrictl(t, filepath.Join(podDir, "pod-config.json"), &sandbox)
	assert.True(t, proto.Equal(want.Sandbox, &sandbox), "pod-config.json decodes to the sandbox config:\n%v\n%v", want.Sandbox, &sandbox)
	assert.Equal(t, "/e2e/kubepods/burstable/pod3c1f7a52-6f0e-4a8e-9d3b-2b8f1e0c4d11", sandbox.GetLinux().GetCgroupParent(), "--cgroup-root")
	assert.Equal(t, filepath.Join(dir, "pods", "shop_web-7d9f8_3c1f7a52-6f0e-4a8e-9d3b-2b8f1e0c4d11"), sandbox.LogDirectory)
	assert.DirExists(t, sandbox.LogDirectory, "the runtime writes logs there: it must exist")

	var ctr runtimeapi.ContainerConfig
	loadLikeCrictl(t, filepath.Join(podDir, "container-web.json"), &ctr)
	wantCtr := proto.Clone(want.Items[0].Config).(*runtimeapi.ContainerConfig)
	podHostDir := filepath.Join(dir, "kubelet", "pods", "3c1f7a52-6f0e-4a8e-9d3b-2b8f1e0c4d11")
	subPathDir := filepath.Join(podHostDir, "volumes", "kubernetes.io~empty-dir", "data", "web-7d9f8")
	for _, m := range wantCtr.Mounts {
		if strings.Contains(m.HostPath, "/volume-subpaths/") {
			m.HostPath = subPathDir // what the bind would show
		}
	}
	assert.True(t, proto.Equal(wantCtr, &ctr), "container-web.json decodes to the container config:\n%v\n%v", wantCtr, &ctr)
	assert.Equal(t, "DB_PASSWORD", ctr.Envs[6].Key)
	// The Secret's value s3cr3t is its placeholder without --show-secrets.
	assert.Equal(t, "secret", string(ctr.Envs[6].Value), "values are text, as crictl reads them")
	assert.Equal(t, []string{"--listen=10.88.0.2:8080", "$(LITERAL)", "--undef=$(NOPE)"}, ctr.Args)

	// Every host path mounted exists below the output directory, so crictl can run the pod.
	byContainerPath := map[string]string{}
	for _, m := range ctr.Mounts {
		byContainerPath[m.ContainerPath] = m.HostPath
		assert.True(t, strings.HasPrefix(m.HostPath, podHostDir+"/"), "mount %s: %s", m.ContainerPath, m.HostPath)
		_, err := os.Stat(m.HostPath)
		assert.NoError(t, err, "mount %s", m.ContainerPath)
	}
	assert.Equal(t, subPathDir, byContainerPath["/srv/data"])
	hosts, err := os.ReadFile(byContainerPath["/etc/hosts"])
	require.NoError(t, err)
	assert.Contains(t, string(hosts), "10.88.0.2\tweb.frontend.shop.svc.cluster.local\tweb\n")
	assert.Equal(t, want.Items[0].HostsFile, string(hosts))
	fi, err := os.Stat(byContainerPath["/dev/termination-log"])
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o666), fi.Mode().Perm(), "the container's user writes its termination message")

	readme, err := os.ReadFile(filepath.Join(podDir, "README.md"))
	require.NoError(t, err)
	for _, line := range []string{
		`POD=$(crictl runp pod-config.json)`,
		`CTR_web=$(crictl create --no-pull "$POD" container-web.json pod-config.json)`,
		`crictl start "$CTR_web"`,
		`crictl stopp "$POD" && crictl rmp "$POD"`,
	} {
		assert.Contains(t, string(readme), line+"\n")
	}

	// Rendering again into the same directory replaces the files.
	code, _, stderr = cli(t, "", "render", "-o", "crictl", "--output-directory", dir, "testdata/shop.yaml")
	require.Equal(t, 0, code, stderr)
	loadLikeCrictl(t, filepath.Join(podDir, "container-web.json"), &ctr)
	assert.Equal(t, []string{"--listen=10.244.1.17:8080", "$(LITERAL)", "--undef=$(NOPE)"}, ctr.Args)
}

func TestCrictlOutputFlags(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"-o crictl needs an output directory", []string{"-o", "crictl"}, exitUsage,
			"podconfig render: -o crictl writes files: name their directory with --output-directory\n"},
		{"--output-directory is only for -o crictl", []string{"-o", "json", "--output-directory", dir}, exitUsage,
			"podconfig render: --output-directory is for -o crictl, not -o json\n"},
		{"--cgroup-root must be absolute", []string{"--cgroup-root", "e2e"}, exitUsage,
			"podconfig render: --cgroup-root \"e2e\": want an absolute path\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := cli(t, "", append(append([]string{"render"}, tc.args...), "testdata/shop.yaml")...)
			assert.Equal(t, tc.code, code)
			assert.Empty(t, stdout)
			assert.True(t, strings.HasPrefix(stderr, tc.stderr), stderr)
		})
	}
}

func TestCrictlOutputRefusesNamesTheAPIServerWouldRefuse(t *testing.T) {
	// A pod read from a file never passed an API server: a name that would be a path or a shell
	// word in the README is refused before anything is written.
	// The API server's validation refuses them first; with --validate=false the writer's own
	// check still does.
	for _, tc := range []struct {
		name, pod, want string
		flags           []string
	}{
		{"a container name that is a shell command", `{name: p, namespace: ns}
spec:
  containers:
  - {name: '$(touch x)', image: a}`, `pod ns/p: Pod "p" is invalid: spec.containers[0].name: Invalid value: "$(touch x)": a lowercase RFC 1123 label`, nil},
		{"a container name that is a shell command, without validation", `{name: p, namespace: ns}
spec:
  containers:
  - {name: '$(touch x)', image: a}`, `pod ns/p, container $(touch x): name: a lowercase RFC 1123 label`, []string{"--validate=false"}},
		{"a pod name with a control character", `{name: "p\e[2J", namespace: ns}
spec:
  containers:
  - {name: c, image: a}`, `metadata.name`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			args := append([]string{"render", "-o", "crictl", "--output-directory", dir}, tc.flags...)
			code, _, stderr := cli(t, "apiVersion: v1\nkind: Pod\nmetadata: "+tc.pod+"\n", append(args, "-")...)
			assert.Equal(t, exitError, code)
			assert.Contains(t, stderr, tc.want)
			entries, _ := os.ReadDir(dir)
			assert.Empty(t, entries, "nothing is written")
		})
	}
}
