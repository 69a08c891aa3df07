package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
)

// The suite runs on containerd 1.6 and 2.x (.ci/stages/30-e2e.sh starts each in turn). Tests
// whose outcome differs by runtime ask the runtime what it is and what it supports, as kubelet
// does, and say why they differ.

// runtimeMajor is the major version of containerd the suite runs on ("1" or "2").
func runtimeMajor(t *testing.T, rt runtimeapi.RuntimeServiceClient) string {
	t.Helper()
	v, err := rt.Version(context.Background(), &runtimeapi.VersionRequest{})
	require.NoError(t, err)
	major, _, _ := strings.Cut(strings.TrimPrefix(v.RuntimeVersion, "v"), ".")
	t.Logf("runtime %s %s (CRI %s)", v.RuntimeName, v.RuntimeVersion, v.RuntimeApiVersion)
	return major
}

func TestE2ERuntimeFacts(t *testing.T) {
	e := newE2E(t, `{apiVersion: v1, kind: Pod, metadata: {name: facts}, spec: {containers: [{name: c, image: `+image+`}]}}`)
	facts := runtimeFacts(t, e.rt)
	for _, h := range facts.Handlers {
		t.Logf("runtime handler %q: %v", h.GetName(), h.GetFeatures())
	}
	switch runtimeMajor(t, e.rt) {
	case "1":
		// containerd 1.6 implements neither RuntimeConfig nor the handler list of Status:
		// minikubelet keeps its -cgroup-driver, and no handler supports recursive read-only
		// mounts or user namespaces, as kubelet concludes.
		assert.Empty(t, facts.CgroupDriver)
		assert.Empty(t, facts.Handlers)
	default:
		// containerd 2.x reports the driver of its runc options (SystemdCgroup = false) and its
		// handlers: the default "" and "runc", each with what runc and the kernel support.
		assert.Equal(t, configgen.CgroupDriverCgroupfs, facts.CgroupDriver)
		names := map[string]*runtimeapi.RuntimeHandlerFeatures{}
		for _, h := range facts.Handlers {
			names[h.GetName()] = h.GetFeatures()
		}
		require.Contains(t, names, "")
		require.Contains(t, names, "runc")
		assert.Equal(t, names[""], names["runc"], "the default handler is runc")
	}
}

// runtimeFacts is what minikubelet asks the runtime at its start, as kubelet does: its cgroup
// driver and its runtime handlers with their features.
func runtimeFacts(t *testing.T, rt runtimeapi.RuntimeServiceClient) configgen.RuntimeFacts {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	facts, err := configgen.ReadRuntimeFacts(ctx, rt)
	require.NoError(t, err)
	return facts
}

// execIn runs each command in the container and returns its output by command.
type execFunc func(cmd ...string) (string, error)

// seenCommands are what the bundled pod's container is asked, on either client: its environment,
// /etc/hosts, ids, and its configMap volume's files with their owners, modes and sizes.
var seenCommands = [][]string{
	{"env"}, {"cat", "/etc/hosts"}, {"id"},
	{"cat", "/etc/web/LOG_LEVEL", "/etc/web/PORT", "/etc/web/listen.host"},
	{"stat", "-L", "-c", "%n %u:%g %a %s", "/etc/web/LOG_LEVEL", "/etc/web/PORT", "/etc/web/listen.host"},
}

func seenBy(exec execFunc) (map[string]string, error) {
	out := map[string]string{}
	for _, cmd := range seenCommands {
		o, err := exec(cmd...)
		if err != nil {
			return nil, fmt.Errorf("%v: %w", cmd, err)
		}
		out[strings.Join(cmd, " ")] = o
	}
	return out, nil
}

// TestE2ECrictlRunsTheBundledExamplePod runs the README's pod twice: with minikubelet, then
// with crictl alone from `podconfig render -o crictl`'s files, and checks that its container sees
// the same environment, /etc/hosts, ids and configMap files and logs the same lines both times.
// It is not parallel: both runs are the same pod (namespace, name and UID), which a runtime holds
// once.
func TestE2ECrictlRunsTheBundledExamplePod(t *testing.T) {
	crictl, podconfig := os.Getenv("PODCONFIG_E2E_CRICTL"), os.Getenv("PODCONFIG_E2E_PODCONFIG")
	manifest, err := os.ReadFile("../cmd/podconfig/testdata/shop.yaml")
	require.NoError(t, err)
	// The manifest's Node has these addresses: minikubelet's node is given the same, so that
	// status.hostIPs is what the renderer reads from the Node.
	e := newE2E(t, string(manifest))
	e.nodeIPs = nodeIP.String() + ",2001:db8::10"
	if crictl == "" || podconfig == "" {
		t.Skip("end-to-end: PODCONFIG_E2E_CRICTL and PODCONFIG_E2E_PODCONFIG name no crictl and podconfig binaries; .ci/stages/30-e2e.sh builds them")
	}
	const logPrefix = "[shop/web-7d9f8/web] "

	// minikubelet's run: the commands run in the container once its output is complete.
	var mini map[string]string
	var miniErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case <-e.out.when(logPrefix + "user "):
		case <-time.After(time.Minute):
			miniErr = fmt.Errorf("the container's output never completed")
			return
		}
		mini, miniErr = seenBy(func(cmd ...string) (string, error) {
			return execSync(e.rt, "3c1f7a52-6f0e-4a8e-9d3b-2b8f1e0c4d11", "web", cmd)
		})
	}()
	_, err = e.run(t, done)
	require.NoError(t, err)
	require.NoError(t, miniErr)
	var miniLog strings.Builder
	for _, line := range strings.SplitAfter(e.out.String(), "\n") {
		miniLog.WriteString(strings.TrimPrefix(line, logPrefix))
	}

	// crictl's run, from the rendered files only.
	out := t.TempDir()
	// The node's cgroup version, as minikubelet finds it (resources.HostNode).
	cgroupVersion := "1"
	if _, err := os.Stat("/sys/fs/cgroup/cgroup.controllers"); err == nil {
		cgroupVersion = "2"
	}
	// minikubelet runs the manifest's pod as written, as kubelet runs a static pod: no admission;
	// and with its Secret's values, which -o crictl writes only with --show-secrets.
	render := exec.Command(podconfig, "render", "--admission=false", "--show-secrets", "-o", "crictl", "--output-directory", out, "--pod-ip", podNetworkIP,
		"--cgroup-root", "/"+os.Getenv("PODCONFIG_E2E_CGROUP_ROOT"), "--cgroup-version", cgroupVersion,
		"../cmd/podconfig/testdata/shop.yaml")
	rendered, err := render.CombinedOutput()
	require.NoError(t, err, "%s", rendered)
	cc := newCrictl(t, crictl, filepath.Join(out, "shop_web-7d9f8"))
	run, must := cc.run, func(args ...string) string { t.Helper(); return cc.must(t, args...) }
	pod := must("runp", "pod-config.json")
	removed := false
	t.Cleanup(func() {
		if !removed {
			_, _ = run("stopp", pod)
			_, _ = run("rmp", "-f", pod)
		}
	})
	ctr := must("create", "--no-pull", pod, "container-web.json", "pod-config.json")
	must("start", ctr)
	var logs string
	require.Eventually(t, func() bool {
		logs, _ = run("logs", ctr)
		return strings.Contains(logs, "\nuser ")
	}, 30*time.Second, 100*time.Millisecond, "crictl logs: %s", logs)
	seen, err := seenBy(func(cmd ...string) (string, error) { return run(append([]string{"exec", ctr}, cmd...)...) })
	require.NoError(t, err)

	assert.Equal(t, miniLog.String(), logs, "the container logs the same lines")
	for _, cmd := range seenCommands {
		key := strings.Join(cmd, " ")
		assert.Equal(t, mini[key], seen[key], "%s in the container: minikubelet's run, then crictl's", key)
	}
	assert.Equal(t, "uid=1000(user) gid=3000 groups=2000,3000,4000\n", seen["id"])
	assert.Contains(t, seen["cat /etc/hosts"], podNetworkIP+"\tweb.frontend.shop.svc.cluster.local\tweb\n")
	assert.Contains(t, seen["env"], "DB_PASSWORD=s3cr3t\n")
	assert.Equal(t, "info80800.0.0.0", seen["cat /etc/web/LOG_LEVEL /etc/web/PORT /etc/web/listen.host"])
	assert.Equal(t, "/etc/web/LOG_LEVEL 0:2000 644 4\n/etc/web/PORT 0:2000 644 4\n/etc/web/listen.host 0:2000 644 7\n",
		seen["stat -L -c %n %u:%g %a %s /etc/web/LOG_LEVEL /etc/web/PORT /etc/web/listen.host"], "the fsGroup's")

	cc.stopPod(t, pod)
	removed = true
	assert.Empty(t, must("pods", "-q", "--name", "web-7d9f8"), "crictl removed the pod")
	assertNoMountsBelow(t, out)
}

// execSync runs cmd in the running container of the pod with the given name and returns its
// standard output.
func execSync(rt runtimeapi.RuntimeServiceClient, podUID, name string, cmd []string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	list, err := rt.ListContainers(ctx, &runtimeapi.ListContainersRequest{Filter: &runtimeapi.ContainerFilter{
		State:         &runtimeapi.ContainerStateValue{State: runtimeapi.ContainerState_CONTAINER_RUNNING},
		LabelSelector: map[string]string{"io.kubernetes.pod.uid": podUID, "io.kubernetes.container.name": name},
	}})
	if err != nil {
		return "", err
	}
	if len(list.Containers) != 1 {
		return "", fmt.Errorf("%d running containers named %s in pod %s", len(list.Containers), name, podUID)
	}
	resp, err := rt.ExecSync(ctx, &runtimeapi.ExecSyncRequest{ContainerId: list.Containers[0].Id, Cmd: cmd, Timeout: 20})
	if err != nil {
		return "", err
	}
	if resp.ExitCode != 0 {
		return "", fmt.Errorf("exit code %d: %s", resp.ExitCode, resp.Stderr)
	}
	return string(resp.Stdout), nil
}

// TestE2ERecursiveReadOnlyMounts mounts a host directory with a tmpfs mounted below it read-only,
// with each recursiveReadOnly mode. Kubelet makes the mount recursively read-only only where the
// pod's runtime handler reports support (Status): containerd 2.x with runc 1.1+ on Linux 5.12+
// does; containerd 1.6 reports no handlers, so Enabled is refused before CreateContainer and
// IfPossible falls back to a plain read-only bind, below which the tmpfs stays writable.
func TestE2ERecursiveReadOnlyMounts(t *testing.T) {
	t.Parallel()
	probe := newE2E(t, `{apiVersion: v1, kind: Pod, metadata: {name: rro-probe}, spec: {containers: [{name: c, image: `+image+`}]}}`)
	supported := false
	for _, h := range runtimeFacts(t, probe.rt).Handlers {
		if h.GetName() == "" {
			supported = h.GetFeatures().GetRecursiveReadOnlyMounts()
		}
	}
	if runtimeMajor(t, probe.rt) != "1" && !supported {
		t.Skip("end-to-end: the runtime's default handler reports no recursive read-only mounts (runc or the kernel lacks them)")
	}
	host := filepath.Join(probe.root, "rro-"+strings.ReplaceAll(t.Name(), "/", "-"))
	require.NoError(t, os.MkdirAll(filepath.Join(host, "sub"), 0o755))
	require.NoError(t, mountTmpfs(filepath.Join(host, "sub")))
	t.Cleanup(func() {
		assert.NoError(t, unmount(filepath.Join(host, "sub")))
		assert.NoError(t, os.RemoveAll(host))
	})
	for _, mode := range []string{"Disabled", "IfPossible", "Enabled"} {
		t.Run(mode, func(t *testing.T) {
			e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: rro-`+strings.ToLower(mode)+`}
spec:
  restartPolicy: Never
  hostNetwork: true
  volumes:
  - {name: host, hostPath: {path: `+host+`, type: Directory}}
  containers:
  - name: main
    image: `+image+`
    command: [sh, -c, 'touch /ro/x 2>/dev/null && echo top writable || echo top refused; touch /ro/sub/x 2>/dev/null && echo sub writable || echo sub refused']
    volumeMounts:
    - {name: host, mountPath: /ro, readOnly: true, recursiveReadOnly: `+mode+`}
`)
			status, err := e.run(t, nil)
			recursive := mode == "Enabled" || (mode == "IfPossible" && supported)
			if mode == "Enabled" && !supported {
				require.Error(t, err)
				assert.Contains(t, err.Error(), `volume "host" requested recursive read-only mode, but it is not supported by the runtime`)
				assert.Empty(t, e.createdNames(), "the container is never created")
				return
			}
			require.NoError(t, err)
			want := "top refused\nsub writable\n"
			if recursive {
				want = "top refused\nsub refused\n"
			}
			assert.Equal(t, want, logOf(t, status, "main"))
		})
	}
}

// TestE2EUserNamespaces runs a pod with hostUsers: false. Its container's root is an id of the
// range minikubelet gave the pod, as kubelet's userns manager would; the runtime must report user
// namespace support for the pod's handler (containerd 2.x with runc 1.2+ on Linux 6.3+), else
// kubelet refuses the pod with its text before the sandbox is made, as on containerd 1.6.
func TestE2EUserNamespaces(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: userns}
spec:
  restartPolicy: Never
  hostUsers: false
  volumes:
  - {name: scratch, emptyDir: {}}
  containers:
  - name: main
    image: `+image+`
    command: [sh, -c, 'cat /proc/self/uid_map /proc/self/gid_map; id -u; touch /scratch/x && stat -c "%u:%g" /scratch/x']
    volumeMounts:
    - {name: scratch, mountPath: /scratch}
`)
	supported := runtimeFacts(t, e.rt).UserNamespaceHandlers()[""]
	status, err := e.run(t, nil)
	if !supported {
		require.Error(t, err)
		assert.Contains(t, err.Error(), "can't set `spec.hostUsers: false`, runtime does not support user namespaces")
		if runtimeMajor(t, e.rt) != "1" {
			t.Skip("end-to-end: the runtime's default handler reports no user namespaces (runc or the kernel lacks them); the pod was refused as kubelet refuses it")
		}
		return
	}
	require.NoError(t, err)
	fields := strings.Fields(logOf(t, status, "main"))
	require.Len(t, fields, 8, "uid_map, gid_map, id -u, owner: %v", fields)
	assert.Equal(t, []string{"0", "65536", "65536"}, fields[0:3], "container root is host id 65536, the first range kubelet hands out")
	assert.Equal(t, []string{"0", "65536", "65536"}, fields[3:6])
	assert.Equal(t, "0", fields[6], "root inside the container")
	assert.Equal(t, "0:0", fields[7], "a file root makes in an emptyDir belongs to root as the container sees it")
}

func mountTmpfs(dir string) error { return unix.Mount("tmpfs", dir, "tmpfs", 0, "size=1m") }

func unmount(dir string) error { return unix.Unmount(dir, 0) }

// TestE2EImageVolume mounts an image as a volume (kubelet's ImageVolume, on by default in v1.37):
// the container sees the image's files, read-only. containerd 2.1 and newer mount it from the
// CRI mount's image; containerd 1.6 knows no image mounts and fails CreateContainer, which
// kubelet does not foresee (no runtime feature reports image volume support).
func TestE2EImageVolume(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: image-volume}
spec:
  restartPolicy: Never
  hostNetwork: true
  volumes:
  - {name: tools, image: {reference: `+nonRootImage+`, pullPolicy: Never}}
  containers:
  - name: main
    image: `+image+`
    command: [sh, -c, 'ls /tools/bin/busybox /tools/etc/passwd; touch /tools/x 2>/dev/null && echo writable || echo read-only']
    volumeMounts:
    - {name: tools, mountPath: /tools}
`)
	status, err := e.run(t, nil)
	if runtimeMajor(t, e.rt) == "1" {
		require.Error(t, err)
		assert.Contains(t, err.Error(), "CreateContainer", "containerd 1.6 cannot mount an image")
		t.Logf("containerd 1.6 refuses the image volume: %v", err)
		return
	}
	require.NoError(t, err)
	assert.Equal(t, "/tools/bin/busybox\n/tools/etc/passwd\nread-only\n", logOf(t, status, "main"))
}
