package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// cli runs the command with stdin and returns its exit status, stdout and stderr.
func cli(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(stdin), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// writeFile writes a manifest to a temporary file and returns its path.
func writeFile(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "in.yaml")
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

// fullPod needs no defaults: every field the API server would default and kubelet reads is set.
const fullPod = `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns, uid: 5f0c3a9e-1111-4222-8333-944455556666}
spec:
  enableServiceLinks: false
  dnsPolicy: ClusterFirst
  restartPolicy: Always
  containers:
  - name: app
    image: app:1
    terminationMessagePath: /dev/termination-log
    terminationMessagePolicy: File
    env:
    - name: POD_IP
      valueFrom: {fieldRef: {apiVersion: v1, fieldPath: status.podIP}}
  - name: other
    image: other:1
`

// decoded is the part of the JSON output the tests read.
type decoded struct {
	Pods []struct {
		Name       string          `json:"name"`
		Sandbox    json.RawMessage `json:"sandbox"`
		Containers []struct {
			Name     string `json:"name"`
			Env      []struct{ Name, Value string }
			Config   map[string]interface{} `json:"config"`
			Warnings []struct{ Reason, Message string }
		} `json:"containers"`
		Warnings []struct{ Reason, Message string } `json:"warnings"`
	} `json:"pods"`
	Warnings []string `json:"warnings"`
}

func decode(t *testing.T, out string) decoded {
	t.Helper()
	var d decoded
	require.NoError(t, json.Unmarshal([]byte(out), &d), out)
	for i := range d.Pods {
		var compact bytes.Buffer
		require.NoError(t, json.Compact(&compact, d.Pods[i].Sandbox))
		d.Pods[i].Sandbox = compact.Bytes()
	}
	return d
}

func env(t *testing.T, d decoded, pod, container int, name string) string {
	t.Helper()
	for _, e := range d.Pods[pod].Containers[container].Env {
		if e.Name == name {
			return e.Value
		}
	}
	t.Fatalf("no %s in %+v", name, d.Pods[pod].Containers[container].Env)
	return ""
}

func TestExitStatuses(t *testing.T) {
	file := writeFile(t, fullPod)
	tests := []struct {
		name       string
		args       []string
		stdin      string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{"no arguments is a usage error", nil, "", exitUsage, "", "Usage:"},
		{"-h prints usage and succeeds", []string{"-h"}, "", exitOK, "Usage:", ""},
		{"--help prints usage and succeeds", []string{"--help"}, "", exitOK, "Usage:", ""},
		{"help prints usage and succeeds", []string{"help"}, "", exitOK, "Usage:", ""},
		{"render -h prints the flags and succeeds", []string{"render", "-h"}, "", exitOK, "-apply-defaults", ""},
		{"render --help after a file still prints the flags", []string{"render", file, "--help"}, "", exitOK, "Usage: podconfig render", ""},
		{"an unknown command is a usage error", []string{"draw"}, "", exitUsage, "", `unknown command "draw"`},
		{"render without input is a usage error", []string{"render"}, "", exitUsage, "", "no input"},
		{"an unknown flag is a usage error", []string{"render", "--nope", file}, "", exitUsage, "", "flag provided but not defined: -nope"},
		{"an unknown output format is a usage error", []string{"render", "-o", "xml", file}, "", exitUsage, "", `-o "xml": want json, yaml, table or crictl`},
		{"--replicas 0 is a usage error", []string{"render", "--replicas", "0", file}, "", exitUsage, "", "--replicas 0"},
		{"an --ordinal that is no number is a usage error", []string{"render", "--ordinal", "x", file}, "", exitUsage, "", `invalid value "x" for flag -ordinal`},
		{"a negative --ordinal is a usage error", []string{"render", "--ordinal", "-3", file}, "", exitUsage, "", "--ordinal -3"},
		{"an unknown --cgroup-driver is a usage error", []string{"render", "--cgroup-driver", "cgroupv3", file}, "", exitUsage, "", `--cgroup-driver "cgroupv3"`},
		{"--cgroup-version 3 is a usage error", []string{"render", "--cgroup-version", "3", file}, "", exitUsage, "", "--cgroup-version 3"},
		{"a --pod-ip that is no IP is a usage error", []string{"render", "--pod-ip", "10.0.0.300", file}, "", exitUsage, "", `--pod-ip "10.0.0.300": not an IP address`},
		{"a --node-ip that is no IP is a usage error", []string{"render", "--node-ip", "node", file}, "", exitUsage, "", `--node-ip "node"`},
		{"a --cluster-dns that is no IP is a usage error", []string{"render", "--cluster-dns", "dns", file}, "", exitUsage, "", `--cluster-dns "dns"`},
		{"an unknown feature gate is a usage error", []string{"render", "--feature-gates", "Bogus=true", file}, "", exitUsage, "", `unknown feature gate "Bogus"`},
		{"a feature gate without a boolean is a usage error", []string{"render", "--feature-gates", "MemoryQoS=maybe", file}, "", exitUsage, "", `"MemoryQoS=maybe": want Name=true or Name=false`},
		{"a missing file is an error", []string{"render", "/nonexistent/x.yaml"}, "", exitError, "", "open /nonexistent/x.yaml: no such file or directory"},
		{"a bad document is an error naming it", []string{"render", "-"}, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: 3}", exitError, "",
			"podconfig render: stdin: document 1 (Pod p): json: cannot unmarshal number into Go struct field PodSpec.spec.containers"},
		{"a render error names the document, pod and container", []string{"render", "-"},
			strings.Replace(fullPod, "  containers:", "  securityContext: {runAsNonRoot: true}\n  containers:", 1), exitError, "",
			"podconfig render: stdin: document 1 (Pod p): pod ns/p, container app: container has runAsNonRoot and image will run as root"},
		{"an ordinal a workload does not have is an error", []string{"render", "--ordinal", "1", file}, "", exitError, "", "ordinal 1: a Pod is a single replica"},
		{"an unknown --container is an error", []string{"render", "--container", "nope", file}, "", exitError, "", `--container "nope": no pod in the input has a container of that name`},
		{"a file renders", []string{"render", file}, "", exitOK, `"name": "p"`, ""},
		{"standard input renders with -", []string{"render", "-"}, fullPod, exitOK, `"name": "p"`, ""},
		{"flags may follow the files", []string{"render", file, "-o", "table"}, "", exitOK, "CONTAINER app", ""},
		{"-- ends the flags", []string{"render", "--", file}, "", exitOK, `"name": "p"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := cli(t, tt.stdin, tt.args...)
			assert.Equal(t, tt.wantCode, code, "stderr: %s", stderr)
			assert.Contains(t, stdout, tt.wantStdout)
			assert.Contains(t, stderr, tt.wantStderr)
			if tt.wantCode == exitError {
				assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line on stderr: %q", stderr)
				assert.Empty(t, stdout)
			}
		})
	}
}

func TestDirectoryInput(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.yaml"), []byte(strings.Replace(fullPod, "name: p,", "name: second,", 1)), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.json"), []byte(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "ns"}}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a manifest"), 0o644))
	code, out, stderr := cli(t, "", "render", dir)
	require.Equal(t, exitOK, code, stderr)
	d := decode(t, out)
	require.Len(t, d.Pods, 1)
	assert.Equal(t, "second", d.Pods[0].Name)

	empty := t.TempDir()
	code, _, stderr = cli(t, "", "render", empty)
	assert.Equal(t, exitError, code)
	assert.Contains(t, stderr, "no .yaml, .yml or .json file in the directory")
}

func TestInputOver64MiBIsRefused(t *testing.T) {
	var stdout, stderr bytes.Buffer
	big := io.MultiReader(strings.NewReader(fullPod), bytes.NewReader(bytes.Repeat([]byte("#"), 64<<20)))
	code := run([]string{"render", "-"}, big, &stdout, &stderr)
	assert.Equal(t, exitError, code)
	assert.Equal(t, "podconfig render: stdin: input larger than 64 MiB: split it into smaller files\n", stderr.String())
}

func TestOutputFormats(t *testing.T) {
	file := writeFile(t, fullPod)
	_, jsonOut, _ := cli(t, "", "render", file)
	t.Run("json shows CRI enums by name, in camelCase, with defaults", func(t *testing.T) {
		assert.Contains(t, jsonOut, `"network": "POD"`)
		assert.Contains(t, jsonOut, `"pid": "CONTAINER"`)
		assert.Contains(t, jsonOut, `"readonlyRootfs": false`)
		assert.Contains(t, jsonOut, `"cgroupParent"`)
		assert.NotContains(t, jsonOut, `"cgroup_parent"`)
		assert.NotContains(t, jsonOut, `"pid": 1`)
	})
	t.Run("yaml is the same document", func(t *testing.T) {
		code, yamlOut, _ := cli(t, "", "render", "-o", "yaml", file)
		require.Equal(t, exitOK, code)
		fromYAML, err := yaml.YAMLToJSON([]byte(yamlOut))
		require.NoError(t, err)
		var a, b interface{}
		require.NoError(t, json.Unmarshal(fromYAML, &a))
		require.NoError(t, json.Unmarshal([]byte(jsonOut), &b))
		assert.Equal(t, b, a)
	})
	t.Run("--output is -o", func(t *testing.T) {
		_, out, _ := cli(t, "", "render", "--output", "yaml", file)
		assert.True(t, strings.HasPrefix(out, "pods:"), out)
	})
	t.Run("table summarises each container", func(t *testing.T) {
		code, out, _ := cli(t, "", "render", "-o", "table", file)
		require.Equal(t, exitOK, code)
		for _, want := range []string{"POD ns/p", "CONTAINER app", "CONTAINER other", "qos", "BestEffort", "user", "capabilities",
			"privileged", "read-only root", "seccomp", "apparmor", "cpu", "memory limit", "oom score adj", "mount", "/dev/termination-log", "env", "POD_IP"} {
			assert.Contains(t, out, want)
		}
	})
	t.Run("the output is the same every time", func(t *testing.T) {
		_, again, _ := cli(t, "", "render", file)
		assert.Equal(t, jsonOut, again)
	})
}

func TestRenderFlags(t *testing.T) {
	deployment := `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ns}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      enableServiceLinks: false
      containers: [{name: web, image: web:1}]
`
	t.Run("--replicas renders that many pods of each workload", func(t *testing.T) {
		_, out, _ := cli(t, deployment, "render", "--replicas", "2", "-")
		assert.Len(t, decode(t, out).Pods, 2)
		_, out, _ = cli(t, deployment, "render", "--replicas", "9", "-")
		assert.Len(t, decode(t, out).Pods, 3, "capped by spec.replicas")
	})
	t.Run("--ordinal renders one chosen pod", func(t *testing.T) {
		_, all, _ := cli(t, deployment, "render", "--replicas", "3", "-")
		_, one, _ := cli(t, deployment, "render", "--ordinal", "2", "-")
		require.Len(t, decode(t, one).Pods, 1)
		assert.Equal(t, decode(t, all).Pods[2].Name, decode(t, one).Pods[0].Name)
	})
	t.Run("--apply-defaults=false renders the pod as written", func(t *testing.T) {
		raw := "apiVersion: v1\nkind: Pod\nmetadata: {name: raw}\nspec: {containers: [{name: c, image: busybox}]}\n"
		code, out, stderr := cli(t, raw, "render", "-")
		require.Equal(t, exitOK, code, stderr)
		assert.Contains(t, out, `"containerPath": "/dev/termination-log"`, "the API server's terminationMessagePath")
		code, _, stderr = cli(t, raw, "render", "--apply-defaults=false", "-")
		assert.Equal(t, exitError, code)
		assert.Contains(t, stderr, "nil pod.spec.enableServiceLinks encountered", "kubelet's error for a pod the API server never defaulted")
		code, out, stderr = cli(t, fullPod, "render", "--apply-defaults=false", "-")
		require.Equal(t, exitOK, code, stderr)
		other, err := json.Marshal(decode(t, out).Pods[0].Containers[1].Config)
		require.NoError(t, err)
		assert.NotContains(t, string(other), "/dev/termination-log", "container other sets no terminationMessagePath and none is defaulted")
		_, out, _ = cli(t, fullPod, "render", "-")
		other, err = json.Marshal(decode(t, out).Pods[0].Containers[1].Config)
		require.NoError(t, err)
		assert.Contains(t, string(other), "/dev/termination-log", "with defaults it has one")
	})
	t.Run("--container renders only that container", func(t *testing.T) {
		_, out, _ := cli(t, fullPod, "render", "--container", "other", "-")
		d := decode(t, out)
		require.Len(t, d.Pods[0].Containers, 1)
		assert.Equal(t, "other", d.Pods[0].Containers[0].Name)
	})
	t.Run("--pod-ip gives the pods' IPs", func(t *testing.T) {
		_, out, _ := cli(t, fullPod, "render", "--pod-ip", "10.9.8.7,fd00::7", "-")
		assert.Equal(t, "10.9.8.7", env(t, decode(t, out), 0, 0, "POD_IP"))
	})
	t.Run("a pod saved with its status keeps its status.podIPs", func(t *testing.T) {
		saved := fullPod + "status:\n  podIP: 10.1.1.1\n  podIPs: [{ip: 10.1.1.1}, {ip: 'fd00::1'}]\n"
		_, out, stderr := cli(t, saved, "render", "-")
		require.NotEmpty(t, out, stderr)
		assert.Equal(t, "10.1.1.1", env(t, decode(t, out), 0, 0, "POD_IP"))
		_, out, _ = cli(t, saved, "render", "--pod-ip", "10.2.2.2", "-")
		assert.Equal(t, "10.2.2.2", env(t, decode(t, out), 0, 0, "POD_IP"), "--pod-ip wins")
	})
	t.Run("pods get 10.244.0.10 and up without --pod-ip", func(t *testing.T) {
		_, out, _ := cli(t, fullPod, "render", "-")
		assert.Equal(t, "10.244.0.10", env(t, decode(t, out), 0, 0, "POD_IP"))
	})
	t.Run("--node-ip is a host-network pod's IP", func(t *testing.T) {
		hostNet := strings.Replace(fullPod, "  enableServiceLinks: false", "  enableServiceLinks: false\n  hostNetwork: true", 1)
		_, out, stderr := cli(t, hostNet, "render", "--node-ip", "192.0.2.44", "-")
		require.NotEmpty(t, out, stderr)
		assert.Equal(t, "192.0.2.44", env(t, decode(t, out), 0, 0, "POD_IP"))
		_, out, _ = cli(t, hostNet, "render", "--node-ip", "192.0.2.44", "--pod-ip", "192.0.2.99", "-")
		assert.Equal(t, "192.0.2.99", env(t, decode(t, out), 0, 0, "POD_IP"), "an explicit pod IP is kept")
	})
	t.Run("without a Node in the input, --node-ip is status.hostIP of an assumed Node", func(t *testing.T) {
		pod := strings.Replace(fullPod, "    env:\n", `    env:
    - name: HOST_IP
      valueFrom: {fieldRef: {apiVersion: v1, fieldPath: status.hostIP}}
    - name: NODE_NAME
      valueFrom: {fieldRef: {apiVersion: v1, fieldPath: spec.nodeName}}
`, 1)
		_, out, stderr := cli(t, pod, "render", "--node-ip", "192.0.2.8", "-")
		require.NotEmpty(t, out, stderr)
		assert.Equal(t, "192.0.2.8", env(t, decode(t, out), 0, 0, "HOST_IP"))
		assert.Equal(t, "node", env(t, decode(t, out), 0, 0, "NODE_NAME"))
		withNode := pod + "---\napiVersion: v1\nkind: Node\nmetadata: {name: w1}\nstatus: {addresses: [{type: InternalIP, address: 198.51.100.1}]}\n"
		_, out, _ = cli(t, withNode, "render", "-")
		assert.Equal(t, "198.51.100.1", env(t, decode(t, out), 0, 0, "HOST_IP"), "the input's Node wins")
		assert.Equal(t, "w1", env(t, decode(t, out), 0, 0, "NODE_NAME"))
	})
	t.Run("--cluster-dns and --cluster-domain shape the sandbox's DNS", func(t *testing.T) {
		_, out, _ := cli(t, fullPod, "render", "--cluster-dns", "10.0.0.53", "--cluster-domain", "corp.example", "-")
		sb := string(decode(t, out).Pods[0].Sandbox)
		assert.Contains(t, sb, `"servers":["10.0.0.53"]`)
		assert.Contains(t, sb, `"ns.svc.corp.example"`)
	})
	t.Run("--resolv-conf is read for dnsPolicy Default", func(t *testing.T) {
		conf := filepath.Join(t.TempDir(), "resolv.conf")
		require.NoError(t, os.WriteFile(conf, []byte("nameserver 192.0.2.53\nsearch lan\n"), 0o644))
		pod := strings.Replace(fullPod, "dnsPolicy: ClusterFirst", "dnsPolicy: Default", 1)
		_, out, _ := cli(t, pod, "render", "--resolv-conf", conf, "-")
		assert.Contains(t, string(decode(t, out).Pods[0].Sandbox), `"servers":["192.0.2.53"]`)
		code, _, stderr := cli(t, pod, "render", "--resolv-conf", "/nonexistent/resolv.conf", "-")
		assert.Equal(t, exitError, code)
		assert.Contains(t, stderr, "--resolv-conf: open /nonexistent/resolv.conf")
	})
	t.Run("--cgroup-driver systemd names the cgroup parent as a slice", func(t *testing.T) {
		_, out, _ := cli(t, fullPod, "render", "--cgroup-driver", "systemd", "-")
		assert.Contains(t, string(decode(t, out).Pods[0].Sandbox), `"cgroupParent":"/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod5f0c3a9e_1111_4222_8333_944455556666.slice"`)
		_, out, _ = cli(t, fullPod, "render", "-")
		assert.Contains(t, string(decode(t, out).Pods[0].Sandbox), `"cgroupParent":"/kubepods/besteffort/pod5f0c3a9e-1111-4222-8333-944455556666"`)
	})
	t.Run("--cgroup-version 1 has no cgroup v2 settings", func(t *testing.T) {
		_, v2, _ := cli(t, fullPod, "render", "-")
		_, v1, _ := cli(t, fullPod, "render", "--cgroup-version", "1", "-")
		assert.Contains(t, v2, "memory.oom.group")
		assert.NotContains(t, v1, "memory.oom.group")
	})
	t.Run("--feature-gates turns gates on", func(t *testing.T) {
		pod := strings.Replace(fullPod, "    image: other:1", "    image: other:1\n    lifecycle: {stopSignal: SIGUSR1}", 1)
		pod = strings.Replace(pod, "  restartPolicy: Always", "  restartPolicy: Always\n  os: {name: linux}", 1)
		_, off, _ := cli(t, pod, "render", "-")
		_, on, stderr := cli(t, pod, "render", "--feature-gates", "ContainerStopSignals=true", "-")
		require.NotEmpty(t, on, stderr)
		assert.Equal(t, "SIGNAL_SIGUSR1", decode(t, on).Pods[0].Containers[1].Config["stopSignal"])
		assert.Equal(t, "SIGNAL_RUNTIME_DEFAULT", decode(t, off).Pods[0].Containers[1].Config["stopSignal"])
	})
	t.Run("--allow-missing renders missing ConfigMaps and Secrets as placeholders", func(t *testing.T) {
		pod := strings.Replace(fullPod, "    env:\n", `    env:
    - name: LEVEL
      valueFrom: {configMapKeyRef: {name: settings, key: level}}
    - name: TOKEN
      valueFrom: {secretKeyRef: {name: creds, key: token}}
`, 1)
		code, _, stderr := cli(t, pod, "render", "-")
		assert.Equal(t, exitError, code)
		assert.Contains(t, stderr, `configmaps "settings" not found`)

		code, out, stderr := cli(t, pod, "render", "--allow-missing", "-")
		require.Equal(t, exitOK, code, stderr)
		d := decode(t, out)
		assert.Equal(t, "<missing ConfigMap ns/settings key level>", env(t, d, 0, 0, "LEVEL"))
		assert.Equal(t, "<missing Secret ns/creds key token>", env(t, d, 0, 0, "TOKEN"))
		var messages []string
		for _, w := range d.Pods[0].Warnings {
			assert.Equal(t, reasonPlaceholder, w.Reason)
			messages = append(messages, w.Message)
		}
		assert.Equal(t, []string{
			"ConfigMap ns/settings is not in the input: rendered as a placeholder (--allow-missing)",
			"Secret ns/creds is not in the input: rendered as a placeholder (--allow-missing)",
		}, messages)
	})
	t.Run("a Service without clusterIP gets one, so its service links appear", func(t *testing.T) {
		in := "apiVersion: v1\nkind: Service\nmetadata: {name: api, namespace: ns}\nspec: {ports: [{port: 80}]}\n---\n" +
			"apiVersion: v1\nkind: Service\nmetadata: {name: headless, namespace: ns}\nspec: {clusterIP: None, ports: [{port: 81}]}\n---\n" +
			strings.Replace(fullPod, "enableServiceLinks: false", "enableServiceLinks: true", 1)
		code, out, stderr := cli(t, in, "render", "-")
		require.Equal(t, exitOK, code, stderr)
		d := decode(t, out)
		host := env(t, d, 0, 0, "API_SERVICE_HOST")
		assert.True(t, strings.HasPrefix(host, "10.96."), host)
		assert.NotContains(t, out, "HEADLESS_SERVICE_HOST", "a headless Service has no variables")
		_, again, _ := cli(t, in, "render", "-")
		assert.Equal(t, host, env(t, decode(t, again), 0, 0, "API_SERVICE_HOST"), "the same IP every time")
	})
	t.Run("skipped kinds are warnings on stderr and in the output", func(t *testing.T) {
		in := "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: sa}\n---\n" + fullPod
		code, out, stderr := cli(t, in, "render", "--image-user", "app:1=1000", "--image-user", "other:1=1000", "-")
		require.Equal(t, exitOK, code)
		want := "stdin: document 1 (Role sa): skipped: kind Role makes no pod and is not read"
		assert.Equal(t, "warning: "+want+"\n", stderr)
		assert.Equal(t, []string{want}, decode(t, out).Warnings)
	})
}

// A ConfigMap or Secret the input lacks fails as on a node, and the error says how to render the
// manifest anyway.
func TestRenderMissingObjectNamesAllowMissing(t *testing.T) {
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, image: app:1, envFrom: [{secretRef: {name: creds}}]}]\n"
	code, _, stderr := cli(t, "", "render", writeFile(t, pod))
	assert.Equal(t, exitError, code)
	assert.Contains(t, stderr, `secrets "creds" not found; add it to the input, or render with --allow-missing for a placeholder`)
	assert.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
}
