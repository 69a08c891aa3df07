//go:build linux

package subpath_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/subpath"
)

func makeMountsInput(dir string, vms ...v1.VolumeMount) mounts.Input {
	return mounts.Input{
		Pod:       &v1.Pod{},
		Container: &v1.Container{Name: "ctr", VolumeMounts: vms},
		PodDir:    filepath.Join(dir, "pod"),
		Volumes:   mounts.VolumeMap{"data": {HostPath: filepath.Join(dir, "vol")}},
		HostUtils: mounts.OSHostUtils{},
		Subpather: subpath.New(),
	}
}

func makeMountsVolume(t *testing.T, dir string) {
	t.Helper()
	vol := filepath.Join(dir, "vol")
	require.NoError(t, os.MkdirAll(filepath.Join(vol, "conf"), 0o755))
	require.NoError(t, os.Chmod(vol, os.ModeSetgid|0o775))
	require.NoError(t, os.WriteFile(filepath.Join(vol, "conf", "app.ini"), []byte("x=1\n"), 0o644))
	require.NoError(t, os.Symlink("/", filepath.Join(vol, "escape")))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "pod"), 0o750))
}

func TestMakeMountsLinuxBindsAndCleanup(t *testing.T) {
	requireRoot(t)
	dir := testRoot(t)
	makeMountsVolume(t, dir)
	in := makeMountsInput(dir,
		v1.VolumeMount{Name: "data", MountPath: "/etc/app", SubPath: "conf"},
		v1.VolumeMount{Name: "data", MountPath: "/new", SubPath: "made/here"},
	)
	ms, cleanup, warnings, err := mounts.MakeMounts(in)
	require.NoError(t, err)
	assert.Empty(t, warnings)
	require.Len(t, ms, 2)
	assert.Equal(t, filepath.Join(dir, "pod/volume-subpaths/data/ctr/0"), ms[0].HostPath)
	assert.Equal(t, filepath.Join(dir, "pod/volume-subpaths/data/ctr/1"), ms[1].HostPath)

	data, err := os.ReadFile(filepath.Join(ms[0].HostPath, "app.ini"))
	require.NoError(t, err)
	assert.Equal(t, "x=1\n", string(data), "the bind target shows the subPath")
	fi, err := os.Stat(filepath.Join(dir, "vol/made/here"))
	require.NoError(t, err)
	assert.Equal(t, os.ModeDir|os.ModeSetgid|0o775, fi.Mode(), "a missing subPath gets the volume root's mode")

	cleanup()
	_, err = os.Stat(filepath.Join(dir, "pod/volume-subpaths"))
	assert.ErrorIs(t, err, os.ErrNotExist, "cleanup removes the targets and the directories made for them")
	data, err = os.ReadFile(filepath.Join(dir, "vol/conf/app.ini"))
	require.NoError(t, err)
	assert.Equal(t, "x=1\n", string(data), "cleanup never touches the volume's contents")
}

func TestMakeMountsLinuxUndoesOnError(t *testing.T) {
	requireRoot(t)
	dir := testRoot(t)
	makeMountsVolume(t, dir)
	in := makeMountsInput(dir,
		v1.VolumeMount{Name: "data", MountPath: "/etc/app", SubPath: "conf"},
		v1.VolumeMount{Name: "data", MountPath: "/root", SubPath: "escape"},
	)
	_, cleanup, _, err := mounts.MakeMounts(in)
	require.EqualError(t, err, `failed to prepare subPath for volumeMount "data" of container "ctr"`)
	assert.ErrorIs(t, err, mounts.ErrSubPathSetup)
	require.NotNil(t, cleanup)
	_, err = os.Stat(filepath.Join(dir, "pod/volume-subpaths"))
	assert.ErrorIs(t, err, os.ErrNotExist, "the first subPath's bind and directories are undone")
	_, err = os.Stat(filepath.Join(dir, "vol/conf/app.ini"))
	assert.NoError(t, err, "the volume's contents stay")
}
