package node_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/types"

	"github.com/podconfig/podconfig/examples/minikubelet/internal/node"
	"github.com/podconfig/podconfig/subpath"
)

// The attack cases run hostile pods on the real runtime: what a container can plant in its
// volumes must not hang, exhaust or damage the node, and one pod must not reach another.

func TestE2EAttackTerminationMessageFromAFIFOAndADevice(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: attack-termination}
spec:
  restartPolicy: Never
  hostNetwork: true
  volumes:
  - {name: data, emptyDir: {}}
  initContainers:
  - name: plant
    image: `+image+`
    command: [sh, -c, 'mkfifo /data/fifo && mknod /data/zero c 1 5']
    volumeMounts: [{name: data, mountPath: /data}]
  containers:
  - name: fifo
    image: `+image+`
    terminationMessagePolicy: FallbackToLogsOnError
    command: [sh, -c, 'echo from the log; exit 1']
    volumeMounts: [{name: data, mountPath: /dev/termination-log, subPath: fifo}]
  - name: zero
    image: `+image+`
    command: [sh, -c, 'exit 1']
    volumeMounts: [{name: data, mountPath: /dev/termination-log, subPath: zero}]
`)
	done := make(chan struct{})
	var status *node.PodStatus
	var err error
	go func() {
		defer close(done)
		status, err = e.run(t, nil)
	}()
	select {
	case <-done:
	case <-time.After(90 * time.Second):
		t.Fatal("the pod never ended: reading a termination message blocked")
	}
	require.NoError(t, err)
	for _, name := range []string{"fifo", "zero"} {
		a := status.Container(name).Last()
		require.NotNil(t, a, name)
		assert.Equal(t, int32(1), a.ExitCode, name)
		assert.Contains(t, a.Message, "Error on reading termination log ", name)
		assert.Contains(t, a.Message, "not a regular file", name)
	}
}

func TestE2EAttackAPodWithTheUIDOfARunningPod(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: attack-victim, uid: 5b7c3c0e-0000-4000-8000-00000000a11c}
spec:
  hostNetwork: true
  hostAliases: [{ip: 192.0.2.1, hostnames: [victim-alias]}]
  containers:
  - name: main
    image: `+image+`
    command: [sh, -c, 'echo ready; exec sleep 600']
`)
	ready := e.out.when("ready")
	stop := make(chan struct{})
	var victimErr error
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		_, victimErr = e.run(t, stop)
	}()
	select {
	case <-ready:
	case <-time.After(time.Minute):
		close(stop)
		t.Fatal("the victim pod did not start")
	}
	hostsFile := filepath.Join(e.root, "kubelet", "pods", string(e.in.Pods[0].UID), "etc-hosts")
	before, err := os.ReadFile(hostsFile)
	require.NoError(t, err)

	for _, tc := range []struct{ name, podName, uid, err string }{
		{"another pod naming the victim's UID", "attacker", string(e.in.Pods[0].UID), "a pod with UID " + string(e.in.Pods[0].UID) + " is already running"},
		{"the victim pod again under another UID", "attack-victim", "5b7c3c0e-0000-4000-8000-00000000bad0", "pod default/attack-victim is already running"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			attacker := e.in.Pods[0].DeepCopy()
			attacker.Name, attacker.UID = tc.podName, types.UID(tc.uid)
			attacker.Spec.HostAliases[0].Hostnames = []string{"attacker-alias"}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, err := e.node.RunPod(ctx, attacker)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
	after, err := os.ReadFile(hostsFile)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "the victim's /etc/hosts is untouched")
	assert.NotContains(t, string(after), "attacker-alias")
	select {
	case <-ended:
		t.Fatal("the victim pod was stopped")
	default:
	}
	close(stop)
	<-ended
	require.NoError(t, victimErr)
}

func TestE2EAttackBusySubPathBindThroughASymlinkedRoot(t *testing.T) {
	// A host process holds a file open inside a hostPath subPath bind, so its unmount fails with
	// EBUSY, and the node's root directory is reached through a symlink. The teardown must keep
	// the pod directory instead of walking through the bind into the host's files.
	t.Parallel()
	var realRoot, linkedRoot string
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: attack-busy, uid: 5b7c3c0e-0000-4000-8000-000000000b57}
spec:
  hostNetwork: true
  volumes:
  - {name: host, hostPath: {path: HOSTDIR, type: Directory}}
  containers:
  - name: main
    image: `+image+`
    command: [sh, -c, 'cat /sub/precious; exec sleep 600']
    volumeMounts: [{name: host, mountPath: /sub, subPath: sub}]
`, func(cfg *node.Config) {
		base := filepath.Dir(cfg.RootDir)
		name := strings.ReplaceAll(t.Name(), "/", "-")
		realRoot, linkedRoot = filepath.Join(base, "data-"+name, "kubelet"), filepath.Join(base, "kubelet-"+name)
		require.NoError(t, os.MkdirAll(realRoot, 0o755))
		require.NoError(t, os.Symlink(realRoot, linkedRoot))
		cfg.RootDir = linkedRoot
	})
	hostDir := filepath.Join(e.root, "host-"+strings.ReplaceAll(t.Name(), "/", "-"))
	require.NoError(t, os.MkdirAll(filepath.Join(hostDir, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(hostDir, "sub", "precious"), []byte("host data\n"), 0o644))
	e.in.Pods[0].Spec.Volumes[0].HostPath.Path = hostDir
	podDir := filepath.Join(linkedRoot, "pods", string(e.in.Pods[0].UID))
	var held *os.File
	t.Cleanup(func() {
		if held != nil {
			held.Close()
		}
		sub := subpath.New()
		assert.NoError(t, sub.CleanSubPaths(podDir, "host"))
		assert.NoError(t, sub.CleanupPodDir(podDir))
		assertNoMountsBelow(t, filepath.Join(realRoot, "pods"))
		os.Remove(linkedRoot)
		os.RemoveAll(filepath.Dir(realRoot))
		os.RemoveAll(hostDir)
	})

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	started := e.out.when("host data")
	var err error
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		_, err = e.node.RunPod(ctx, e.in.Pods[0])
	}()
	select {
	case <-started:
	case <-time.After(time.Minute):
		cancel()
		t.Fatal("the pod did not start")
	}
	held, herr := os.Open(filepath.Join(podDir, "volume-subpaths", "host", "main", "0", "precious"))
	require.NoError(t, herr, "the subPath bind target holds the host's file")
	cancel()
	<-ended
	require.Error(t, err, "the teardown could not unmount the busy bind")
	assert.Contains(t, err.Error(), "pod directory "+podDir+" kept")
	data, rerr := os.ReadFile(filepath.Join(hostDir, "sub", "precious"))
	require.NoError(t, rerr, "the host's file survives the teardown")
	assert.Equal(t, "host data\n", string(data))
}
