//go:build linux

package volumes

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
)

// mountinfo returns the lines of /proc/self/mountinfo that name a path below root (other tests
// on the machine mount elsewhere at the same time).
func mountinfo(t *testing.T, root string) string {
	t.Helper()
	data, err := os.ReadFile("/proc/self/mountinfo")
	require.NoError(t, err)
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, root) {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

func rootManager(t *testing.T) (*Manager, *v1.Pod) {
	if os.Getuid() != 0 {
		t.Skip("volume set-up mounts tmpfs: run as root")
	}
	root := t.TempDir()
	m := &Manager{RootDir: root, Sources: testSources(), Host: NewLinuxHost()}
	pod := managerPod()
	pod.Spec.Volumes[5].HostPath.Path = filepath.Join(root, "host", "data")
	require.NoError(t, os.MkdirAll(m.PodDir(pod), 0o750))
	before := mountinfo(t, root)
	t.Cleanup(func() {
		assert.Equal(t, before, mountinfo(t, root), "no mount is left behind")
	})
	return m, pod
}

func TestManagerOnLinux(t *testing.T) {
	m, pod := rootManager(t)
	vm, err := m.SetUpPod(context.Background(), pod)
	require.NoError(t, err)
	info := mountinfo(t, m.RootDir)
	for _, name := range []string{"creds", "info", "cache"} {
		assert.Contains(t, info, " "+vm[name].HostPath+" ", "%s is a mount", name)
	}
	assert.NotContains(t, info, " "+vm["cfg"].HostPath+" ", "a configMap volume is on the node's disk, as in kubelet")

	data, err := os.ReadFile(filepath.Join(vm["creds"].HostPath, "user"))
	require.NoError(t, err)
	assert.Equal(t, "u", string(data))
	fi, err := os.Stat(filepath.Join(vm["creds"].HostPath, "pass"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o440), fi.Mode().Perm(), "0400 with the fsGroup pass's group read")
	fi, err = os.Stat(vm["scratch"].HostPath)
	require.NoError(t, err)
	assert.Equal(t, os.ModeDir|os.ModeSetgid|0o777, fi.Mode(), "emptyDir is 0777 and setgid for the fsGroup")

	// A ConfigMap update appears through ..data.
	api := m.Sources.ConfigMaps.(*fakeAPI)
	api.cms["shop/cfg"] = &v1.ConfigMap{Data: map[string]string{"a.conf": "A2"}}
	_, err = m.SetUp(context.Background(), pod, &pod.Spec.Volumes[0])
	require.NoError(t, err)
	data, err = os.ReadFile(filepath.Join(vm["cfg"].HostPath, "a.conf"))
	require.NoError(t, err)
	assert.Equal(t, "A2", string(data))
	_, err = os.Lstat(filepath.Join(vm["cfg"].HostPath, "b.conf"))
	assert.True(t, os.IsNotExist(err), "a key that left the ConfigMap leaves the volume")

	require.NoError(t, m.TearDownPod(pod))
	for name, v := range vm {
		if name == "host" {
			continue
		}
		_, err := os.Lstat(v.HostPath)
		assert.True(t, os.IsNotExist(err), "%s removed", name)
	}
	_, err = os.Stat(vm["host"].HostPath)
	assert.NoError(t, err, "the hostPath stays")
}

func TestManagerTearDownDoesNotFollowSymlinks(t *testing.T) {
	m, pod := rootManager(t)
	victim := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(victim, "precious"), []byte("x"), 0o644))
	vm, err := m.SetUpPod(context.Background(), pod)
	require.NoError(t, err)

	// A container with the emptyDir mounted plants a symlink to a host directory in it.
	require.NoError(t, os.Symlink(victim, filepath.Join(vm["scratch"].HostPath, "link")))
	require.NoError(t, os.Symlink(victim, filepath.Join(vm["cache"].HostPath, "link")))
	require.NoError(t, m.TearDownPod(pod))
	_, err = os.Stat(filepath.Join(victim, "precious"))
	assert.NoError(t, err, "the link is removed, never followed")
}

func TestManagerRefusesSymlinkedPluginDir(t *testing.T) {
	m, pod := rootManager(t)
	outside := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(m.PodDir(pod), "volumes"), 0o750))
	require.NoError(t, os.Symlink(outside, filepath.Join(m.PodDir(pod), "volumes", "kubernetes.io~empty-dir")))
	_, err := m.SetUp(context.Background(), pod, &pod.Spec.Volumes[3])
	require.Error(t, err)
	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing is made through the planted symlink")
	assert.Empty(t, mountinfo(t, outside), "nothing is mounted through the planted symlink")
}

// A secret volume whose write fails after its tmpfs was mounted (another volume's mount point at
// ..data) is unmounted and removed again.
func TestManagerUndoesFailedSetUpOnLinux(t *testing.T) {
	m, pod := rootManager(t)
	pod.Spec.Containers[0].VolumeMounts = []v1.VolumeMount{{Name: "creds", MountPath: "/s"}, {Name: "cache", MountPath: "/s/..data"}}
	before := mountinfo(t, m.RootDir)
	_, err := m.SetUp(context.Background(), pod, &pod.Spec.Volumes[1])
	require.Error(t, err)
	assert.Contains(t, err.Error(), "..data")
	assert.Equal(t, before, mountinfo(t, m.RootDir), "the tmpfs is unmounted")
	_, err = os.Lstat(filepath.Join(m.PodDir(pod), "volumes", "kubernetes.io~secret", "creds"))
	assert.True(t, os.IsNotExist(err), "the volume directory is removed")
	_, err = os.Lstat(filepath.Join(m.PodDir(pod), "plugins", "kubernetes.io~empty-dir", "wrapped_creds"))
	assert.True(t, os.IsNotExist(err), "the ready marker is removed")
}
