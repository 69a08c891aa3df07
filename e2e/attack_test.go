package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	var status *podStatus
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

func TestE2EAttackAPodWithTheUIDOfAnotherPod(t *testing.T) {
	// On a node, pods are keyed by UID: a pod naming another's UID, or the same pod twice under
	// two UIDs, would share or tear down the other's directories and sandbox. minikubelet refuses
	// such a manifest before it makes anything (the node also refuses a second RunPod of a pod
	// already running, which its own tests check).
	t.Parallel()
	victim := `
apiVersion: v1
kind: Pod
metadata: {name: attack-victim, uid: 5b7c3c0e-0000-4000-8000-00000000a11c}
spec:
  hostNetwork: true
  containers:
  - {name: main, image: ` + image + `, command: [sh, -c, 'echo ready; exec sleep 600']}
`
	for _, tc := range []struct{ name, podName, uid, err string }{
		{"another pod naming the victim's UID", "attacker", "5b7c3c0e-0000-4000-8000-00000000a11c",
			"two pods with UID 5b7c3c0e-0000-4000-8000-00000000a11c"},
		{"the victim pod again under another UID", "attack-victim", "5b7c3c0e-0000-4000-8000-00000000bad0",
			"two pods named default/attack-victim"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			attacker := strings.NewReplacer("name: attack-victim", "name: "+tc.podName, "00000000a11c", tc.uid[len(tc.uid)-12:]).Replace(victim)
			e := newE2E(t, victim)
			e.manifest = victim + "---" + attacker
			e.start(t)
			select {
			case <-e.done:
			case <-time.After(time.Minute):
				e.signal(t, os.Interrupt)
				<-e.done
				t.Fatal("minikubelet ran the pods")
			}
			require.Error(t, e.waitErr)
			assert.Contains(t, e.log.String(), tc.err)
			assert.Empty(t, e.createdNames())
			assert.NoDirExists(t, filepath.Join(e.rootDir, "pods", "5b7c3c0e-0000-4000-8000-00000000a11c"))
		})
	}
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
`)
	name := strings.ReplaceAll(t.Name(), "/", "-")
	realRoot, linkedRoot = filepath.Join(e.root, "data-"+name, "kubelet"), filepath.Join(e.root, "kubelet-"+name)
	require.NoError(t, os.MkdirAll(realRoot, 0o755))
	require.NoError(t, os.Symlink(realRoot, linkedRoot))
	e.rootDir = linkedRoot
	// The busy bind stays mounted after minikubelet ends: the cleanup below removes it.
	e.mountsLeft = true
	hostDir := filepath.Join(e.root, "host-"+name)
	require.NoError(t, os.MkdirAll(filepath.Join(hostDir, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(hostDir, "sub", "precious"), []byte("host data\n"), 0o644))
	e.manifest = strings.Replace(e.manifest, "HOSTDIR", hostDir, 1)
	podDir := filepath.Join(linkedRoot, "pods", string(e.pods[0].UID))
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

	started := e.out.when("host data")
	e.start(t)
	select {
	case <-started:
	case <-e.done:
		t.Fatalf("the pod ended before it started: %v\n%s", e.waitErr, e.log)
	case <-time.After(time.Minute):
		e.signal(t, os.Interrupt)
		<-e.done
		t.Fatal("the pod did not start")
	}
	held, herr := os.Open(filepath.Join(podDir, "volume-subpaths", "host", "main", "0", "precious"))
	require.NoError(t, herr, "the subPath bind target holds the host's file")
	stop := make(chan struct{})
	close(stop)
	_, err := e.wait(t, stop)
	require.Error(t, err, "the teardown could not unmount the busy bind")
	assert.Contains(t, err.Error(), "pod directory "+podDir+" kept")
	data, rerr := os.ReadFile(filepath.Join(hostDir, "sub", "precious"))
	require.NoError(t, rerr, "the host's file survives the teardown")
	assert.Equal(t, "host data\n", string(data))
}
