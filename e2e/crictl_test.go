package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// crictlCmd runs crictl on the suite's runtime in a pod's directory of -o crictl's files.
type crictlCmd struct {
	bin, config, dir string
}

// newCrictl is crictl, the binary bin, on the suite's runtime, run in dir.
func newCrictl(t *testing.T, bin, dir string) *crictlCmd {
	t.Helper()
	endpoint := os.Getenv("PODCONFIG_E2E_ENDPOINT")
	config := filepath.Join(t.TempDir(), "crictl.yaml")
	require.NoError(t, os.WriteFile(config, []byte("runtime-endpoint: "+endpoint+"\nimage-endpoint: "+endpoint+"\ntimeout: 30\n"), 0o644))
	return &crictlCmd{bin: bin, config: config, dir: dir}
}

// run runs crictl with args and returns its standard output.
func (c *crictlCmd) run(args ...string) (string, error) {
	cmd := exec.Command(c.bin, append([]string{"--config", c.config}, args...)...)
	cmd.Dir = c.dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("crictl %s: %w: %s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String(), nil
}

// must runs crictl with args, which must succeed, and returns its standard output trimmed.
func (c *crictlCmd) must(t *testing.T, args ...string) string {
	t.Helper()
	o, err := c.run(args...)
	require.NoError(t, err)
	return strings.TrimSpace(o)
}

// stopPod stops the sandbox pod and removes it. A stop is retried as kubelet retries it on its
// next sync: containerd 1.6 can answer "ttrpc: closed" when the container's shim goes away as
// the container exits during the stop, and the next stop then finds the container stopped.
func (c *crictlCmd) stopPod(t *testing.T, pod string) {
	t.Helper()
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if _, err = c.run("stopp", pod); err == nil {
			break
		}
		time.Sleep(time.Duration(attempt+1) * 200 * time.Millisecond)
	}
	require.NoError(t, err)
	c.must(t, "rmp", pod)
}

// crictlVolumesPod reads a file of each of its configMap, secret, downwardAPI and projected
// (token) volumes, says whose they are, writes into an emptyDir mounted inside the configMap
// volume (a nested mount point the volume's set-up made), and ends with DONE.
const crictlVolumesPod = `apiVersion: v1
kind: ConfigMap
metadata: {name: files, namespace: vol}
data: {greeting: hello, motd: be nice}
---
apiVersion: v1
kind: Secret
metadata: {name: keys, namespace: vol}
stringData: {password: s3cr3t}
---
apiVersion: v1
kind: Pod
metadata: {name: crictl-volumes, namespace: vol, uid: 6d1c8e2a-3b4f-4a5e-8c7d-9e0f1a2b3c4d, labels: {app: demo}}
spec:
  restartPolicy: Never
  hostNetwork: true
  serviceAccountName: app
  securityContext: {runAsUser: 1000, runAsGroup: 3000, fsGroup: 2000}
  volumes:
  - name: cm
    configMap: {name: files, items: [{key: greeting, path: greeting}, {key: motd, path: etc/motd, mode: 0600}]}
  - {name: sec, secret: {secretName: keys}}
  - name: info
    downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}
  - name: api
    projected:
      defaultMode: 0600
      sources:
      - serviceAccountToken: {path: token, expirationSeconds: 3607}
      - downwardAPI: {items: [{path: namespace, fieldRef: {fieldPath: metadata.namespace}}]}
  - {name: scratch, emptyDir: {}}
  containers:
  - name: main
    image: ` + image + `
    volumeMounts:
    - {name: cm, mountPath: /etc/app}
    - {name: scratch, mountPath: /etc/app/scratch}
    - {name: sec, mountPath: /sec}
    - {name: info, mountPath: /info}
    - {name: api, mountPath: /var/run/secrets/kubernetes.io/serviceaccount}
    command:
    - sh
    - -c
    - |
      sa=/var/run/secrets/kubernetes.io/serviceaccount
      echo "cm=$(cat /etc/app/greeting) motd=$(cat /etc/app/etc/motd)"
      echo "sec=$(cat /sec/password)"
      echo "info=$(cat /info/labels)"
      echo "token=$(cat $sa/token) ns=$(cat $sa/namespace)"
      stat -L -c '%n %u:%g %a' /etc/app/etc/motd /sec/password $sa/token
      touch /etc/app/scratch/x && echo scratch writable
      echo DONE
`

// TestE2ECrictlPodReadsItsVolumeFiles runs a pod with crictl alone from `podconfig render -o
// crictl`'s files, rendered without and then with --show-secrets: its container reads a file of
// each of its configMap, secret, downwardAPI and projected volumes, with the modes and owners
// kubelet gives them (the fsGroup's group read, the token the runAsUser's), and writes into an
// emptyDir mounted inside the read-only configMap volume. Without --show-secrets the Secret's
// value and the token are placeholders of their size.
func TestE2ECrictlPodReadsItsVolumeFiles(t *testing.T) {
	t.Parallel()
	crictl, podconfig := os.Getenv("PODCONFIG_E2E_CRICTL"), os.Getenv("PODCONFIG_E2E_PODCONFIG")
	switch {
	case os.Getenv("PODCONFIG_E2E_ENDPOINT") == "":
		t.Skip("end-to-end: PODCONFIG_E2E_ENDPOINT names no CRI runtime; .ci/stages/30-e2e.sh starts one and runs this suite")
	case os.Geteuid() != 0:
		t.Skip("end-to-end: needs root")
	case crictl == "" || podconfig == "":
		t.Skip("end-to-end: PODCONFIG_E2E_CRICTL and PODCONFIG_E2E_PODCONFIG name no crictl and podconfig binaries; .ci/stages/30-e2e.sh builds them")
	}
	manifest := filepath.Join(t.TempDir(), "pod.yaml")
	require.NoError(t, os.WriteFile(manifest, []byte(crictlVolumesPod), 0o644))
	cgroupVersion := "1"
	if _, err := os.Stat("/sys/fs/cgroup/cgroup.controllers"); err == nil {
		cgroupVersion = "2"
	}
	const sa = "/var/run/secrets/kubernetes.io/serviceaccount"
	for _, tc := range []struct {
		name            string
		flags           []string
		password, token string
	}{
		{"placeholders", nil, "secret", "secret-hidden-by-podconfig"},
		{"show-secrets", []string{"--show-secrets"}, "s3cr3t", "placeholder-token-not-a-jwt"},
	} {
		// One after the other: both runs are the same pod, which a runtime holds once.
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{"render", "--admission=false", "-o", "crictl", "--output-directory", out,
				"--cgroup-root", "/" + os.Getenv("PODCONFIG_E2E_CGROUP_ROOT"), "--cgroup-version", cgroupVersion}, tc.flags...)
			rendered, err := exec.Command(podconfig, append(args, manifest)...).CombinedOutput()
			require.NoError(t, err, "%s", rendered)
			cc := newCrictl(t, crictl, filepath.Join(out, "vol_crictl-volumes"))
			pod := cc.must(t, "runp", "pod-config.json")
			removed := false
			t.Cleanup(func() {
				if !removed {
					_, _ = cc.run("stopp", pod)
					_, _ = cc.run("rmp", "-f", pod)
				}
			})
			ctr := cc.must(t, "create", "--no-pull", pod, "container-main.json", "pod-config.json")
			cc.must(t, "start", ctr)
			var logs string
			require.Eventually(t, func() bool {
				logs, _ = cc.run("logs", ctr)
				return strings.Contains(logs, "DONE\n")
			}, 30*time.Second, 100*time.Millisecond, "crictl logs: %s", logs)
			assert.Equal(t, "cm=hello motd=be nice\n"+
				"sec="+tc.password+"\n"+
				"info=app=\"demo\"\n"+
				"token="+tc.token+" ns=vol\n"+
				"/etc/app/etc/motd 0:2000 640\n"+
				"/sec/password 0:2000 644\n"+
				sa+"/token 1000:2000 640\n"+
				"scratch writable\n"+
				"DONE\n", logs)
			cc.stopPod(t, pod)
			removed = true
			assertNoMountsBelow(t, out)
		})
	}
}
