package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func podNamed(name string) string {
	return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + "}\nspec: {containers: [{name: c, image: app:1}]}\n"
}

func TestEveryFailureAtOnce(t *testing.T) {
	t.Run("a directory with one broken file renders all the others and exits 1", func(t *testing.T) {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(podNamed("a")), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "b.yaml"), []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: b}\nspec: {bogus: 1}\n"), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "c.yaml"), []byte(podNamed("c")), 0o644))
		code, out, stderr := cli(t, "", "render", dir)
		assert.Equal(t, exitError, code)
		d := decode(t, out)
		require.Len(t, d.Pods, 2)
		assert.Contains(t, stderr, "podconfig render: "+filepath.Join(dir, "b.yaml")+`: document 1 (Pod b): strict decoding error: unknown field "spec.bogus"`)
		assert.Contains(t, stderr, "podconfig render: 1 failed, 2 pods rendered\n")
	})
	t.Run("every failing pod is reported, each naming document, pod, container, cause and remedy", func(t *testing.T) {
		in := podNamed("ok") + "---\n" +
			"apiVersion: v1\nkind: Pod\nmetadata: {name: p1}\nspec: {containers: [{name: c, image: app:1, envFrom: [{configMapRef: {name: cfg}}]}]}\n---\n" +
			"apiVersion: v1\nkind: Pod\nmetadata: {name: p2}\nspec: {runtimeClassName: kata, containers: [{name: c, image: app:1}]}\n"
		code, out, stderr := cli(t, in, "render", "--image-user", "app:1=1000", "-o", "table", "-")
		assert.Equal(t, exitError, code)
		assert.Contains(t, out, "POD default/ok")
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		require.Len(t, lines, 3, stderr)
		assert.Equal(t, `podconfig render: stdin: document 2 (Pod p1): pod default/p1, container c: configmaps "cfg" not found; add it to the input, or render with --allow-missing for a placeholder`, lines[0])
		assert.Equal(t, `podconfig render: stdin: document 3 (Pod p2): pod default/p2: admission: pods "p2" is forbidden: pod rejected: RuntimeClass "kata" not found; add it to the input, or render with --allow-missing to assume it with no settings`, lines[1])
		assert.Equal(t, "podconfig render: 2 failed, 1 pods rendered", lines[2])
	})
	t.Run("documents of kinds that make no pod are summarised in one warning", func(t *testing.T) {
		in := "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r1}\n---\n" +
			"apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r2}\n---\n" +
			"apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: rb}\n---\n" + podNamed("p")
		code, out, stderr := cli(t, in, "render", "--image-user", "app:1=1000", "-o", "table", "-")
		require.Equal(t, exitOK, code, stderr)
		assert.Equal(t, "warning: skipped 3 documents of kinds that make no pod: Role (2), RoleBinding (1)\n", stderr)
		assert.NotContains(t, out, "skipped")
	})
}

func TestSummarize(t *testing.T) {
	assert.Equal(t, []string{"a: skipped: kind X makes no pod and is not read", "other"},
		summarize([]string{"a: skipped: kind X makes no pod and is not read", "other"}), "one skipped document keeps its line")
	assert.Equal(t, []string{"first", "skipped 2 documents of kinds that make no pod: X (1), Y (1)", "last"},
		summarize([]string{"first", "a: skipped: kind Y makes no pod and is not read", "b: skipped: kind X makes no pod and is not read", "last"}))
}

func TestKubectlHabits(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sub", "deeper"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(podNamed("a")), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "b.yaml"), []byte(podNamed("b")), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "deeper", "c.yml"), []byte(podNamed("c")), 0o644))
	names := func(out string) []string {
		var n []string
		for _, p := range decode(t, out).Pods {
			n = append(n, p.Name)
		}
		return n
	}
	t.Run("-f names a file or directory, as kubectl's", func(t *testing.T) {
		code, out, stderr := cli(t, "", "render", "-f", filepath.Join(dir, "a.yaml"), "-f", filepath.Join(dir, "sub", "b.yaml"))
		require.Equal(t, exitOK, code, stderr)
		assert.Len(t, decode(t, out).Pods, 2)
	})
	t.Run("without -R a directory's subdirectories are named in a warning", func(t *testing.T) {
		code, out, stderr := cli(t, "", "render", "-f", dir)
		require.Equal(t, exitOK, code, stderr)
		assert.Len(t, names(out), 1)
		assert.Contains(t, stderr, "warning: "+dir+": subdirectories not read (-R reads them): sub\n")
	})
	t.Run("-R reads subdirectories, depth first in name order", func(t *testing.T) {
		code, out, stderr := cli(t, "", "render", "-R", "--image-user=app:1=1000", "-f", dir)
		require.Equal(t, exitOK, code, stderr)
		assert.Len(t, names(out), 3)
		assert.Empty(t, stderr)
	})
	t.Run("a template gets a hint to render it with the chart tool first", func(t *testing.T) {
		tpl := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Release.Name }}\n  labels: {{- include \"x\" . | nindent 4 }}\nspec: {containers: [{name: c, image: app:1}]}\n"
		code, _, stderr := cli(t, tpl, "render", "-")
		assert.Equal(t, exitError, code)
		assert.Contains(t, stderr, "stdin holds {{ }}, as a Helm chart's or Go template does: render it with your chart tool first (helm template ... | podconfig render -)")
	})
}

func TestVersion(t *testing.T) {
	code, out, stderr := cli(t, "", "version")
	require.Equal(t, exitOK, code, stderr)
	assert.Regexp(t, `^podconfig \S+\nReproduces: kubelet v1\.37\.2 \(Linux\), with the API server's defaults and admission of the same release\nGo: go\S+ \S+/\S+\nLicense: Apache-2\.0\n$`, out)
	code, _, _ = cli(t, "", "version", "extra")
	assert.Equal(t, exitUsage, code)
}

func TestLivePodStatus(t *testing.T) {
	live := `apiVersion: v1
kind: Pod
metadata: {name: web-1, namespace: shop, uid: 0b8c7a52-6f0e-4a8e-9d3b-2b8f1e0c4d11}
spec:
  nodeName: ip-10-1-2-3
  containers:
  - name: web
    image: web:1
    env:
    - {name: HOST_IP, valueFrom: {fieldRef: {fieldPath: status.hostIP}}}
    - {name: POD_IP, valueFrom: {fieldRef: {fieldPath: status.podIP}}}
status:
  hostIP: 10.1.2.3
  hostIPs: [{ip: 10.1.2.3}]
  podIP: 10.244.7.9
  podIPs: [{ip: 10.244.7.9}]
`
	code, out, stderr := cli(t, live, "render", "--image-user", "web:1=101", "-")
	require.Equal(t, exitOK, code, stderr)
	d := decode(t, out)
	assert.Equal(t, "10.1.2.3", env(t, d, 0, 0, "HOST_IP"), "a live pod's status.hostIPs are its node's IPs")
	assert.Equal(t, "10.244.7.9", env(t, d, 0, 0, "POD_IP"))
	code, out, stderr = cli(t, live, "render", "--image-user", "web:1=101", "--node-ip", "192.168.0.5", "-")
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, "192.168.0.5", env(t, decode(t, out), 0, 0, "HOST_IP"), "--node-ip wins")
}

func TestHostNetworkResolvConf(t *testing.T) {
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: agent}\nspec: {hostNetwork: true, containers: [{name: a, image: app:1}]}\n"
	hosts := writeFile(t, "127.0.0.1 localhost\n")
	code, out, stderr := cli(t, pod, "render", "--image-user", "app:1=0", "--hosts-file", hosts, "-o", "table", "-")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, out, "servers [10.0.0.2], searches [], options []")
	assert.Equal(t, "warning: 1 pod takes its DNS from the node's resolv.conf, which is not known offline (default/agent): rendered with a typical one, nameserver 10.0.0.2 and no search domains; give the node's with --resolv-conf FILE\n", stderr)
	conf := filepath.Join(t.TempDir(), "resolv.conf")
	require.NoError(t, os.WriteFile(conf, []byte("nameserver 1.1.1.1\nsearch corp.example\n"), 0o644))
	code, out, stderr = cli(t, pod, "render", "--image-user", "app:1=0", "--hosts-file", hosts, "--resolv-conf", conf, "-o", "table", "-")
	require.Equal(t, exitOK, code, stderr)
	assert.Empty(t, stderr)
	assert.Contains(t, out, "servers [1.1.1.1], searches [corp.example]")
}

func TestAllowMissing(t *testing.T) {
	pod := func(env string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: app:1\n" + env
	}
	t.Run("an optional reference to a missing object is left alone, as kubelet skips it", func(t *testing.T) {
		in := pod("    envFrom: [{configMapRef: {name: extra, optional: true}}]\n    env: [{name: K, valueFrom: {secretKeyRef: {name: s, key: k, optional: true}}}]\n")
		code, out, stderr := cli(t, in, "render", "--allow-missing", "--image-user", "app:1=1", "-")
		require.Equal(t, exitOK, code, stderr)
		d := decode(t, out)
		assert.Empty(t, d.Pods[0].Warnings, "no placeholder")
		for _, e := range d.Pods[0].Containers[0].Env {
			assert.NotEqual(t, "K", e.Name)
		}
	})
	t.Run("a required reference still gets a placeholder", func(t *testing.T) {
		in := pod("    env: [{name: K, valueFrom: {secretKeyRef: {name: s, key: k}}}]\n")
		code, out, stderr := cli(t, in, "render", "--allow-missing", "--image-user", "app:1=1", "-")
		require.Equal(t, exitOK, code, stderr)
		assert.Equal(t, "<missing Secret default/s key k>", env(t, decode(t, out), 0, 0, "K"))
	})
	block := "apiVersion: v1\nkind: Pod\nmetadata: {name: db}\nspec:\n  volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]\n" +
		"  containers: [{name: c, image: app:1, volumeDevices: [{name: data, devicePath: /dev/xvda}]}]\n"
	t.Run("a block device fails with a remedy", func(t *testing.T) {
		code, _, stderr := cli(t, block, "render", "-")
		assert.Equal(t, exitError, code)
		assert.Contains(t, stderr, `cannot find volume "data" to pass into container "c"; offline a PersistentVolumeClaim has no block device: render with --allow-missing for a placeholder`)
	})
	t.Run("--allow-missing gives a block device a placeholder", func(t *testing.T) {
		code, out, stderr := cli(t, block, "render", "--allow-missing", "--image-user", "app:1=1", "-")
		require.Equal(t, exitOK, code, stderr)
		d := decode(t, out)
		devices, _ := d.Pods[0].Containers[0].Config["devices"].([]interface{})
		require.Len(t, devices, 1)
		assert.Equal(t, "/dev/xvda", devices[0].(map[string]interface{})["containerPath"])
		require.Len(t, d.Pods[0].Warnings, 1)
		assert.Contains(t, d.Pods[0].Warnings[0].Message, "volume data is a block device, which offline has no device: rendered with a placeholder at /var/lib/kubelet/pods/")
	})
}

func TestEnvFileFailureKeepsItsCause(t *testing.T) {
	in := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  volumes: [{name: cfg, emptyDir: {}}]\n" +
		"  containers: [{name: c, image: app:1, env: [{name: V, valueFrom: {fileKeyRef: {volumeName: cfg, path: app.env, key: V}}}]}]\n"
	code, _, stderr := cli(t, in, "render", "--image-user", "app:1=1", "-")
	assert.Equal(t, exitError, code)
	assert.Contains(t, stderr, `container c: couldn't parse env file: failed to open environment variable file "/var/lib/kubelet/pods/`)
	assert.Contains(t, stderr, `/volumes/kubernetes.io~empty-dir/cfg/app.env": open app.env: no such file or directory; `+missingEnvFileHint+"\n")
}

// An env file a container of the pod writes at run time (an init container into an emptyDir)
// does not exist offline: --allow-missing renders its variables as placeholders, each stated.
func TestAllowMissingEnvFile(t *testing.T) {
	in := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  volumes: [{name: cfg, emptyDir: {}}]\n" +
		"  initContainers: [{name: setup, image: app:1, volumeMounts: [{name: cfg, mountPath: /cfg}]}]\n" +
		"  containers: [{name: c, image: app:1, env: [{name: A, value: a}, {name: V, valueFrom: {fileKeyRef: {volumeName: cfg, path: app.env, key: V}}}, {name: W, value: \"w=$(V)\"}]}]\n"
	code, out, stderr := cli(t, in, "render", "--allow-missing", "--image-user", "app:1=1", "-")
	require.Equal(t, exitOK, code, stderr)
	d := decode(t, out)
	assert.Equal(t, "<run-time file app.env of volume cfg key V>", env(t, d, 0, 1, "V"), "the variable is a placeholder")
	assert.Equal(t, "w=<run-time file app.env of volume cfg key V>", env(t, d, 0, 1, "W"), "references to it expand to the placeholder")
	assert.Equal(t, "a", env(t, d, 0, 1, "A"), "other variables are as written")
	require.Len(t, d.Pods[0].Containers[1].Warnings, 1)
	assert.Equal(t, "MissingObjectPlaceholder", d.Pods[0].Containers[1].Warnings[0].Reason)
	assert.Equal(t, "env V reads file app.env of volume cfg, which does not exist offline (a container of the pod may write it at run time): rendered as a placeholder (--allow-missing)",
		d.Pods[0].Containers[1].Warnings[0].Message)
}

// The RenderContext example of render -h is read as it is printed.
func TestHelpRenderContextExampleReads(t *testing.T) {
	_, help, _ := cli(t, "", "render", "-h")
	start := strings.Index(help, "  kind: RenderContext\n")
	require.GreaterOrEqual(t, start, 0, help)
	block := help[start:]
	block = block[:strings.Index(block, "\n\n")+1]
	var example strings.Builder
	for _, line := range strings.SplitAfter(block, "\n") {
		example.WriteString(strings.TrimPrefix(line, "  "))
	}
	in := example.String() + "---\n" + "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a, image: nginx:1.27}, {name: b, image: redis:7}, {name: c, image: busybox}]}\n"
	code, out, stderr := cli(t, in, "render", "-o", "table", "-")
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, "warning: 1 containers rendered as user redis, from the RenderContext's imageUsers redis:* for every tag and digest of docker.io/library/redis (docker.io/library/redis:7)\n"+
		"warning: 1 containers rendered as uid 65532, from the RenderContext's defaultImageUser for every image no --image-user or imageUsers names (docker.io/library/busybox:latest)\n", stderr)
	assert.Regexp(t, `CONTAINER a .*\n +user +uid 101\n`, out)
	assert.Regexp(t, `CONTAINER b .*\n +user +user redis\n`, out)
	assert.Regexp(t, `CONTAINER c .*\n +user +uid 65532\n`, out)
}

// A pod's errors come in one run across the stages: here admission's missing PriorityClass and a
// container's runAsNonRoot, each with its remedy, once.
func TestEveryStageErrorOfAPodAtOnce(t *testing.T) {
	in := "apiVersion: v1\nkind: Pod\nmetadata: {name: wc, namespace: argo}\nspec:\n  priorityClassName: workflow-controller\n" +
		"  securityContext: {runAsNonRoot: true}\n  containers: [{name: a, image: app:1}, {name: b, image: app:1}]\n"
	code, _, stderr := cli(t, in, "render", "-")
	assert.Equal(t, exitError, code)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	require.Len(t, lines, 1, stderr)
	assert.True(t, strings.HasPrefix(lines[0], `podconfig render: stdin: document 1 (Pod wc): pod argo/wc: admission: pods "wc" is forbidden: no PriorityClass with name workflow-controller was found; container a: container has runAsNonRoot and image will run as root`), lines[0])
	assert.Contains(t, lines[0], `; container b: container has runAsNonRoot`)
	assert.Contains(t, lines[0], `; add the PriorityClass to the input, or give its value with --priority-class NAME=VALUE; the user of image "app:1"`)
	assert.Equal(t, 1, strings.Count(lines[0], "is not known offline"), "a remedy is given once")
}

func TestPriorityClassFlag(t *testing.T) {
	in := "apiVersion: v1\nkind: Pod\nmetadata: {name: wc}\nspec:\n  priorityClassName: high\n  containers: [{name: a, image: app:1}]\n"
	t.Run("gives admission the PriorityClass the input lacks", func(t *testing.T) {
		code, _, stderr := cli(t, in, "render", "--image-user", "app:1=1000", "-")
		assert.Equal(t, exitError, code)
		assert.Contains(t, stderr, "no PriorityClass with name high was found")
		code, _, stderr = cli(t, in, "render", "--image-user", "app:1=1000", "--priority-class", "high=1000", "-")
		assert.Equal(t, exitOK, code, stderr)
	})
	for _, tc := range []struct{ name, value, want string }{
		{"a value that is no integer is a usage error", "high=much", `--priority-class "high=much": want NAME=VALUE, VALUE an integer`},
		{"a name that is no DNS subdomain is a usage error", "High=1", `--priority-class "High=1": the name a lowercase RFC 1123 subdomain`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := cli(t, in, "render", "--priority-class", tc.value, "-")
			assert.Equal(t, exitUsage, code)
			assert.Contains(t, stderr, tc.want)
		})
	}
}

// A placeholder is a value as a file's would be: kubelet expands no $(VAR) in what it reads from
// an env file, so a path or key that holds one (a path may, as "$(DB_PASSWORD)") is shown as
// written, not made to carry another variable's value.
func TestAllowMissingEnvFilePlaceholderIsNotExpanded(t *testing.T) {
	in := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  volumes: [{name: cfg, emptyDir: {}}]\n" +
		"  containers: [{name: c, image: app:1, env: [{name: A, value: a}, {name: V, valueFrom: {fileKeyRef: {volumeName: cfg, path: \"$(A).env\", key: V}}}]}]\n"
	code, out, stderr := cli(t, in, "render", "--allow-missing", "--image-user", "app:1=1", "-")
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, "<run-time file $(A).env of volume cfg key V>", env(t, decode(t, out), 0, 0, "V"))
}

// A pod's volume files are bounded in all, not per volume: once one volume has taken the whole
// bound, the next one's first byte is past it.
func TestVolumeFilesBoundIsThePods(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata: {k: " + strings.Repeat("x", 1<<20) + "}\n---\n")
	b.WriteString("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  volumes:\n  - name: full\n    configMap:\n      name: big\n      items:\n")
	for i := range maxPodVolumeBytes >> 20 {
		fmt.Fprintf(&b, "      - {key: k, path: f%d}\n", i)
	}
	b.WriteString("  - name: more\n    configMap: {name: big, items: [{key: k, path: g}]}\n")
	b.WriteString("  containers: [{name: c, image: app:1}]\n")
	code, _, stderr := cli(t, b.String(), "render", "--image-user", "app:1=1", "-")
	assert.Equal(t, exitError, code)
	assert.Contains(t, stderr, `MountVolume.SetUp failed for volume "more" of pod default/p: volume files too large`)
	assert.NotContains(t, stderr, `volume "full"`)
}
