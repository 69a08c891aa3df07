package node

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/logs"
	"github.com/podconfig/podconfig/offline"
	"github.com/podconfig/podconfig/podruntime/podruntimetest"
	"github.com/podconfig/podconfig/subpath"
	"github.com/podconfig/podconfig/volumes"
)

// The attack tests run the node's own host code (teardown, termination messages, volumes) as
// root against the real Linux backends, with a CRI runtime that has nothing to stop, and check
// that the mount table is as before.

func requireRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("skipping: the attack tests mount and need root (run the tests as root, as CI does)")
	}
}

// attackRoot returns a fresh directory and, when the test ends, detaches anything left mounted
// below it (reporting it) and requires /proc/self/mountinfo to be as it was.
func attackRoot(t *testing.T) string {
	t.Helper()
	before := mountTable(t, "")
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() {
		var left []string
		for _, line := range mountTable(t, "") {
			if mp := strings.Fields(line)[4]; strings.HasPrefix(mp+"/", dir+"/") {
				left = append(left, mp)
			}
		}
		sort.Sort(sort.Reverse(sort.StringSlice(left)))
		for _, mp := range left {
			_ = unix.Unmount(mp, unix.MNT_DETACH)
		}
		assert.Empty(t, left, "mounts left behind")
		assert.Equal(t, before, mountTable(t, dir), "/proc/self/mountinfo changed")
	})
	return dir
}

// mountTable is /proc/self/mountinfo without the mount ids, sorted; mounts below the system temp
// dir other than those below own are left out (other tests' on a shared host).
func mountTable(t *testing.T, own string) []string {
	t.Helper()
	f, err := os.Open("/proc/self/mountinfo")
	require.NoError(t, err)
	defer f.Close()
	tmp := filepath.Clean(os.TempDir()) + "/"
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if strings.HasPrefix(fields[4], tmp) && (own == "" || !strings.HasPrefix(fields[4]+"/", own+"/")) {
			continue
		}
		lines = append(lines, strings.Join(fields[2:], " "))
	}
	require.NoError(t, sc.Err())
	sort.Strings(lines)
	return lines
}

// busyMounter is a host whose process holds every mount: unmounting fails with EBUSY.
type busyMounter struct{}

func (busyMounter) IsMountPoint(file string) (bool, error) { return true, nil }
func (busyMounter) Unmount(target string) error {
	return &os.PathError{Op: "umount", Path: target, Err: unix.EBUSY}
}

func TestAttackTeardownThroughSymlinkedRootKeepsHostFiles(t *testing.T) {
	// Finding: with -root-dir behind a symlink, a subPath bind of a hostPath volume that could not
	// be unmounted (EBUSY) was walked by the pod directory's removal, deleting the host's files.
	requireRoot(t)
	root := attackRoot(t)
	realRoot, linkedRoot, host := filepath.Join(root, "data", "kubelet"), filepath.Join(root, "kubelet"), filepath.Join(root, "host")
	require.NoError(t, os.MkdirAll(realRoot, 0o755))
	require.NoError(t, os.Symlink(realRoot, linkedRoot))
	require.NoError(t, os.MkdirAll(host, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(host, "precious"), []byte("host data"), 0o644))

	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default", UID: "uid-1"},
		Spec: v1.PodSpec{Volumes: []v1.Volume{{Name: "host", VolumeSource: v1.VolumeSource{HostPath: &v1.HostPathVolumeSource{Path: host}}}}}}
	podDir := filepath.Join(linkedRoot, "pods", string(pod.UID))
	target := filepath.Join(podDir, "volume-subpaths", "host", "app", "0")
	require.NoError(t, os.MkdirAll(target, 0o750))
	require.NoError(t, unix.Mount(host, target, "", unix.MS_BIND, ""))
	t.Cleanup(func() { _ = unix.Unmount(target, unix.MNT_DETACH) })

	r := newPodRun(&Node{rt: testManager(t, &podruntimetest.Runtime{}), sub: subpath.New(subpath.WithMounter(busyMounter{}))}, pod)
	r.podDir = podDir
	err := r.teardown(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "pod directory "+podDir+" kept")
	assert.FileExists(t, filepath.Join(host, "precious"), "the hostPath volume's files survive")
	assert.DirExists(t, podDir)
}

// within fails the test if fn does not return in time: a FIFO opened for reading would hang.
func within(t *testing.T, d time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("did not return within %v", d)
	}
}

func TestAttackTerminationMessageFromSpecialFiles(t *testing.T) {
	// Finding: a container that mounts a FIFO or a device at its termination-message path made
	// the node block forever in open, or read the device without end.
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, unix.Mkfifo(fifo, 0o644))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink("/etc/hostname", link))
	for _, tc := range []struct{ name, hostPath string }{
		{"a FIFO is not opened", fifo},
		{"a character device is not read", "/dev/zero"},
		{"a symlink is not followed", link},
		{"a directory is not read", dir},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &runtimeapi.ContainerStatus{State: runtimeapi.ContainerState_CONTAINER_EXITED, ExitCode: 1, LogPath: filepath.Join(dir, "missing.log"),
				Mounts: []*runtimeapi.Mount{{ContainerPath: "/dev/termination-log", HostPath: tc.hostPath}}}
			var msg string
			within(t, 5*time.Second, func() {
				msg = logs.ContainerStatusMessage(st, v1.TerminationMessageFallbackToLogsOnError, "/dev/termination-log")
			})
			assert.True(t, strings.HasPrefix(msg, "Error on reading termination log "+tc.hostPath+": "), "got %q", msg)
			assert.Contains(t, msg, "not a regular file")
		})
	}
}

// isTmpfs reports whether dir is the root of a tmpfs, and its size in bytes.
func isTmpfs(t *testing.T, dir string) (bool, int64) {
	t.Helper()
	var fs unix.Statfs_t
	require.NoError(t, unix.Statfs(dir, &fs))
	return fs.Type == unix.TMPFS_MAGIC, int64(fs.Blocks) * fs.Bsize
}

func TestAttackSecretsNeverReachTheDisk(t *testing.T) {
	// Finding: secret, downwardAPI and projected volumes were written to the root directory's
	// disk; kubelet writes them on a memory-backed emptyDir, and a tmpfs sizeLimit was not capped
	// at the node's memory.
	requireRoot(t)
	root := attackRoot(t)
	const allocatable = 256 << 20
	optional := true
	expiration := int64(3607)
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default", UID: "uid-mem"},
		Spec: v1.PodSpec{Volumes: []v1.Volume{
			{Name: "token", VolumeSource: v1.VolumeSource{Secret: &v1.SecretVolumeSource{SecretName: "s"}}},
			{Name: "info", VolumeSource: v1.VolumeSource{DownwardAPI: &v1.DownwardAPIVolumeSource{Items: []v1.DownwardAPIVolumeFile{
				{Path: "labels", FieldRef: &v1.ObjectFieldSelector{FieldPath: "metadata.labels"}}}}}},
			{Name: "all", VolumeSource: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{Sources: []v1.VolumeProjection{
				{Secret: &v1.SecretProjection{LocalObjectReference: v1.LocalObjectReference{Name: "s"}, Items: []v1.KeyToPath{{Key: "k", Path: "./key"}}}},
				{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "missing"}, Optional: &optional}},
				{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: &expiration}}}}}},
			{Name: "cfg", VolumeSource: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "missing"}, Optional: &optional}}},
			{Name: "huge", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Medium: v1.StorageMediumMemory, SizeLimit: resource.NewQuantity(1<<60, resource.BinarySI)}}},
		}}}
	applyDefaults(pod, "node") // as node.Load does: the API server's defaults (defaultMode)
	cfg := Config{RootDir: root, Objects: offline.NewObjects(
		&v1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s", Namespace: "default"}, Data: map[string][]byte{"k": []byte("secret")}})}
	node := configgen.NodeGetterFunc(func(context.Context) (*v1.Node, error) {
		return &v1.Node{Status: v1.NodeStatus{Allocatable: v1.ResourceList{v1.ResourceMemory: *resource.NewQuantity(allocatable, resource.BinarySI)}}}, nil
	})
	n := &Node{cfg: cfg, rt: testManager(t, &podruntimetest.Runtime{}), sub: subpath.New(), vols: newVolumeManager(cfg, node, volumes.PlaceholderTokens{})}
	r := newPodRun(n, pod)
	r.podDir = filepath.Join(root, "pods", string(pod.UID))
	require.NoError(t, os.MkdirAll(filepath.Join(r.podDir, "volumes"), 0o750))
	vm, err := r.setUpVolumes(context.Background())
	require.NoError(t, err)
	for name, memory := range map[string]bool{"token": true, "info": true, "all": true, "cfg": false, "huge": true} {
		tmpfs, size := isTmpfs(t, vm[name].HostPath)
		assert.Equal(t, memory, tmpfs, "volume %s on a tmpfs", name)
		if tmpfs {
			assert.LessOrEqual(t, size, int64(allocatable), "volume %s no larger than the node's memory", name)
		}
	}
	data, err := os.ReadFile(filepath.Join(vm["all"].HostPath, "key"))
	require.NoError(t, err, "the projected path ./key is written as key")
	assert.Equal(t, "secret", string(data))
	token, err := os.ReadFile(filepath.Join(vm["all"].HostPath, "token"))
	require.NoError(t, err, "the service-account token is written")
	assert.Equal(t, volumes.PlaceholderToken, string(token))
	fi, err := os.Stat(filepath.Join(vm["all"].HostPath, "token"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), fi.Mode().Perm(), "the defaultMode: kubelet makes a token 0600 only for an fsUser or fsGroup")

	require.NoError(t, r.teardown(context.Background()))
	assert.NoDirExists(t, r.podDir)
}
