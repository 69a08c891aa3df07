package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mountsBelow is the lines of /proc/self/mountinfo that name a path below root: -o crictl mounts
// nothing, so they must stay as they were.
func mountsBelow(t *testing.T, root string) string {
	t.Helper()
	data, err := os.ReadFile("/proc/self/mountinfo")
	require.NoError(t, err)
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, root) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// fsGroupPod has a configMap volume and a memory-backed emptyDir under fsGroup 4242, whose
// ownership pass walks each volume; greeting is the ConfigMap's value.
func fsGroupPod(greeting string) string {
	return `apiVersion: v1
kind: ConfigMap
metadata: {name: files, namespace: vol}
data: {greeting: ` + greeting + `}
---
apiVersion: v1
kind: Pod
metadata: {name: files, namespace: vol, uid: 7d0e2c1d-5a4f-4e3b-9c8d-1f2e3d4c5b6a}
spec:
  securityContext: {runAsUser: 1000, fsGroup: 4242}
  volumes:
  - name: cm
    configMap: {name: files}
  - name: mem
    emptyDir: {medium: Memory}
  containers:
  - name: main
    image: busybox
    volumeMounts:
    - {name: cm, mountPath: /etc/app}
    - {name: mem, mountPath: /mem}
`
}

// The fsGroup pass of a render into a directory a render made walks what a container of the
// pod could put in its volumes since: a memory-backed emptyDir (which -o crictl never mounts,
// so it is set up again on every render) and, as the atomic writer rewrites it, a configMap
// volume's directory. A hard link there to a file outside the output directory must not give
// that file the fsGroup's group or group permissions.
func TestCrictlOutputChangesNoOwnerOrModeThroughAHardLink(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("changing a file's group needs root")
	}
	const vols = "kubelet/pods/7d0e2c1d-5a4f-4e3b-9c8d-1f2e3d4c5b6a/volumes"
	for _, tc := range []struct {
		name string
		// at is where the hard link goes, below the output directory.
		at string
	}{
		{"a hard link a container made in a memory-backed emptyDir is not chown'ed or chmod'ed", vols + "/kubernetes.io~empty-dir/mem/shadow"},
		{"a hard link planted in a configMap volume's directory is not chown'ed or chmod'ed", vols + "/kubernetes.io~configmap/cm/shadow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			host, out := filepath.Join(root, "host"), filepath.Join(root, "out")
			require.NoError(t, os.Mkdir(host, 0o755))
			secret := filepath.Join(host, "shadow")
			require.NoError(t, os.WriteFile(secret, []byte("root:$6$hash\n"), 0o600))
			require.NoError(t, os.Chmod(secret, 0o600))
			mounts := mountsBelow(t, root)
			args := []string{"render", "--admission=false", "-o", "crictl", "--output-directory", out, "-"}
			code, _, stderr := cli(t, fsGroupPod("hello"), args...)
			require.Equal(t, 0, code, stderr)
			require.NoError(t, os.Link(secret, filepath.Join(out, tc.at)))

			// The ConfigMap changed, so the configMap volume is written again.
			code, _, stderr = cli(t, fsGroupPod("changed"), args...)
			assert.Equal(t, 0, code, stderr)
			var st syscall.Stat_t
			require.NoError(t, syscall.Stat(secret, &st))
			assert.Equal(t, "0:0 100600", fmt.Sprintf("%d:%d %o", st.Uid, st.Gid, st.Mode), "the host file keeps its owner and mode")
			assert.Equal(t, mounts, mountsBelow(t, root))
		})
	}
}

// A pod whose files cannot all be written leaves nothing of its own below the output directory:
// what the call made before the failing step (the pod's directory, its etc-hosts and
// termination-message files, the volumes set up before, its log directory) is removed again.
func TestCrictlOutputLeavesNothingOfAPodThatFails(t *testing.T) {
	const hugePagesPod = `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns, uid: 11111111-2222-3333-4444-555555555555}
spec:
  volumes:
  - name: a
    emptyDir: {}
  - name: b
    emptyDir: {medium: HugePages-2Mi}
  containers:
  - name: c
    image: busybox
    volumeMounts:
    - {name: a, mountPath: /a}
    - {name: b, mountPath: /b}
`
	const hugePagesErr = `podconfig render: pod ns/p: MountVolume.SetUp failed for volume "b" of pod ns/p: medium HugePages-2Mi: hugePages storage requested, but there is no resource request for huge pages` + "\n"
	for _, tc := range []struct {
		name, pod, want string
		// existed: the output directory is there before the render.
		existed bool
	}{
		{"a volume that cannot be set up after one that was removes what the call made", hugePagesPod, hugePagesErr, true},
		{"an output directory the call made is removed too", hugePagesPod, hugePagesErr, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			out := filepath.Join(root, "out")
			if tc.existed {
				require.NoError(t, os.Mkdir(out, 0o755))
			}
			mounts := mountsBelow(t, root)
			code, stdout, stderr := cli(t, tc.pod, "render", "--admission=false", "-o", "crictl", "--output-directory", out, "-")
			assert.Equal(t, exitError, code)
			assert.Empty(t, stdout)
			assert.Equal(t, tc.want, stderr)
			assert.Equal(t, mounts, mountsBelow(t, root))
			if !tc.existed {
				assert.NoDirExists(t, out)
				return
			}
			left, err := os.ReadDir(out)
			require.NoError(t, err)
			var names []string
			for _, e := range left {
				names = append(names, e.Name())
			}
			assert.Empty(t, names, "nothing is left below the output directory")
		})
	}
}

// secretEnvPod reads a Secret's value into its environment: by key, by envFrom, and through a
// $(VAR) reference in another variable and in its command.
const secretEnvPod = `apiVersion: v1
kind: Secret
metadata: {name: db, namespace: ns}
stringData: {password: hunter2-very-secret}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns, uid: 11111111-2222-3333-4444-555555555556}
spec:
  containers:
  - name: c
    image: busybox
    command: [sh, -c, "echo $(PW)"]
    env:
    - name: PW
      valueFrom: {secretKeyRef: {name: db, key: password}}
    - name: DSN
      value: "postgres://app:$(PW)@db"
    envFrom:
    - secretRef: {name: db}
      prefix: X_
`

// grepBelow lists the regular files below dir that hold s.
func grepBelow(t *testing.T, dir, s string) []string {
	t.Helper()
	var found []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(data), s) {
			rel, _ := filepath.Rel(dir, p)
			found = append(found, rel)
		}
		return err
	}))
	return found
}

// The crictl files are on disk: a Secret's value reaches them only with --show-secrets, in the
// container's environment (and what $(VAR) makes of it) as in its volumes.
func TestCrictlOutputWritesSecretEnvValuesOnlyWithShowSecrets(t *testing.T) {
	for _, tc := range []struct {
		name  string
		flags []string
		want  []string
	}{
		{"without --show-secrets no file holds the Secret's value", nil, nil},
		{"with --show-secrets the container's config holds it", []string{"--show-secrets"}, []string{"ns_p/container-c.json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := append([]string{"render", "--admission=false", "-o", "crictl", "--output-directory", out}, tc.flags...)
			code, _, stderr := cli(t, secretEnvPod, append(args, "-")...)
			require.Equal(t, 0, code, stderr)
			assert.Equal(t, tc.want, grepBelow(t, out, "hunter2"))
		})
	}
}

// A memory-backed emptyDir is where kubelet mounts a tmpfs, and once mounted and ready kubelet
// leaves it as it is, with no fsGroup pass over what the pod's containers wrote there. -o crictl
// stands the directory in for the mount: rendering again must not walk the files a container
// made since either (a directory 2,000 levels deep, made in a fraction of a second, cost a
// render that walked it 98 s and 2.2 GB: each level is resolved from the output directory).
func TestCrictlOutputDoesNotWalkAMemoryEmptyDirAgain(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("changing a file's group needs root")
	}
	root := t.TempDir()
	out := filepath.Join(root, "out")
	mounts := mountsBelow(t, root)
	args := []string{"render", "--admission=false", "-o", "crictl", "--output-directory", out, "-"}
	code, _, stderr := cli(t, fsGroupPod("hello"), args...)
	require.Equal(t, 0, code, stderr)
	mem := filepath.Join(out, "kubelet/pods/7d0e2c1d-5a4f-4e3b-9c8d-1f2e3d4c5b6a/volumes/kubernetes.io~empty-dir/mem")
	require.NoError(t, os.MkdirAll(filepath.Join(mem, "d/d/d"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(mem, "d/d/d/f"), nil, 0o600))
	planted := []struct {
		path string
		mode fs.FileMode
		want string
	}{{"d", 0o700, "0:0 40700"}, {"d/d/d", 0o700, "0:0 40700"}, {"d/d/d/f", 0o600, "0:0 100600"}}
	for _, p := range planted {
		// The volume is setgid: a container gives its files a group of its own.
		require.NoError(t, os.Lchown(filepath.Join(mem, p.path), 0, 0))
		require.NoError(t, os.Chmod(filepath.Join(mem, p.path), p.mode))
	}

	code, _, stderr = cli(t, fsGroupPod("hello"), args...)
	require.Equal(t, 0, code, stderr)
	for _, p := range planted {
		var st syscall.Stat_t
		require.NoError(t, syscall.Lstat(filepath.Join(mem, p.path), &st))
		assert.Equal(t, p.want, fmt.Sprintf("%d:%d %o", st.Uid, st.Gid, st.Mode), "%s keeps the group and mode its container gave it", p.path)
	}
	var st syscall.Stat_t
	require.NoError(t, syscall.Lstat(mem, &st))
	assert.Equal(t, "0:4242 42777", fmt.Sprintf("%d:%d %o", st.Uid, st.Gid, st.Mode), "the volume is as the first render set it up")
	assert.Equal(t, mounts, mountsBelow(t, root))
}

// A FIFO where the atomic writer reads a volume's previous file is never opened for reading: that
// would release a writer blocked opening it, and a device opened has effects of its own (a
// watchdog starts). Only a regular file is opened.
func TestCrictlOutputOpensNoFIFOInAVolume(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(root, "out")
	mounts := mountsBelow(t, root)
	args := []string{"render", "--admission=false", "-o", "crictl", "--output-directory", out, "-"}
	code, _, stderr := cli(t, fsGroupPod("hello"), args...)
	require.Equal(t, 0, code, stderr)
	cm := filepath.Join(out, "kubelet/pods/7d0e2c1d-5a4f-4e3b-9c8d-1f2e3d4c5b6a/volumes/kubernetes.io~configmap/cm")
	ts, err := os.Readlink(filepath.Join(cm, "..data"))
	require.NoError(t, err)
	fifo := filepath.Join(cm, ts, "greeting")
	require.NoError(t, os.Remove(fifo))
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	opened := make(chan struct{})
	go func() {
		// Blocks until the FIFO is opened for reading.
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			_ = f.Close()
		}
		close(opened)
	}()
	time.Sleep(100 * time.Millisecond) // the writer is blocked in open before the render

	code, _, stderr = cli(t, fsGroupPod("changed"), args...)
	assert.Equal(t, exitError, code)
	assert.Equal(t, "podconfig render: pod vol/files: read "+fifo+": invalid argument\n", stderr)
	select {
	case <-opened:
		t.Error("the render opened the FIFO for reading")
	case <-time.After(200 * time.Millisecond):
		// Release the writer.
		f, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		require.NoError(t, err)
		<-opened
		_ = f.Close()
	}
	assert.Equal(t, mounts, mountsBelow(t, root))
}

// bigProjectionPod has a ConfigMap of one 1 MiB value and a projected volume that names it in n
// sources, each writing it to a file of its own: an input of 1 MiB and some 60 bytes a source.
func bigProjectionPod(n int) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big, namespace: ns}\ndata: {k: " + strings.Repeat("x", 1<<20) + "}\n---\n")
	b.WriteString("apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns, uid: 11111111-2222-3333-4444-55555555555b}\nspec:\n")
	b.WriteString("  volumes:\n  - name: v\n    projected:\n      sources:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "      - configMap: {name: big, items: [{key: k, path: p%d}]}\n", i)
	}
	b.WriteString("  containers:\n  - name: c\n    image: busybox\n    volumeMounts: [{name: v, mountPath: /v}]\n")
	return b.String()
}

// What a pod's volume files hold is bounded by its input, as what reading it allocates is: a
// projected volume naming one large ConfigMap in many sources asks for the value once per source
// (an input of 1 MiB made 301 MB of files and took 682 MB; 64 MiB, the input bound, would ask
// for terabytes), and -o crictl writes them on disk, where kubelet's tmpfs would have stopped
// at the pod's memory. Such a pod fails, naming the volume, and nothing of it is written.
func TestCrictlOutputBoundsAPodsVolumeFiles(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	require.NoError(t, os.Mkdir(out, 0o755))
	in := bigProjectionPod(100)
	code, stdout, stderr := cli(t, in, "render", "--admission=false", "-o", "crictl", "--output-directory", out, "-")
	assert.Equal(t, exitError, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, `volume "v"`)
	left, err := os.ReadDir(out)
	require.NoError(t, err)
	assert.Empty(t, left, "nothing is written")
}
