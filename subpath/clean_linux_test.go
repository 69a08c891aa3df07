package subpath_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/subpath"
)

func TestCleanSubPaths(t *testing.T) {
	t.Run("only the named volume's targets are unmounted and removed", func(t *testing.T) {
		f := newPodFixture(t)
		l := subpath.New()
		prepare := func(volume, container, rel string, index int) string {
			sp := f.subpath(rel, index)
			sp.VolumeName, sp.ContainerName = volume, container
			got, _, err := l.PrepareSafeSubpath(sp)
			require.NoError(t, err)
			return got
		}
		prepare("data", "app", "dir", 0)
		prepare("data", "sidecar", "file", 2)
		kept := prepare("logs", "app", "dir", 1)

		require.NoError(t, l.CleanSubPaths(f.podDir, "data"))
		assert.NoFileExists(t, filepath.Join(f.podDir, "volume-subpaths", "data"))
		assert.Equal(t, 1, mountCount(t, kept))
		assert.FileExists(t, filepath.Join(f.vol, "dir", "marker"))
		assert.FileExists(t, filepath.Join(f.vol, "file"))

		require.NoError(t, l.CleanSubPaths(f.podDir, "logs"))
		assert.NoFileExists(t, filepath.Join(f.podDir, "volume-subpaths"))
		assert.FileExists(t, filepath.Join(f.vol, "dir", "marker"))
	})
	t.Run("a volume without subpaths is not an error", func(t *testing.T) {
		f := newPodFixture(t)
		require.NoError(t, subpath.New().CleanSubPaths(f.podDir, "data"))
	})
	t.Run("a target still mounted after the unmount is an error and stays", func(t *testing.T) {
		f := newPodFixture(t)
		got, _, err := subpath.New().PrepareSafeSubpath(f.subpath("dir", 0))
		require.NoError(t, err)
		m := &funcMounter{unmount: func(string) error { return nil }}
		err = subpath.New(subpath.WithMounter(m)).CleanSubPaths(f.podDir, "data")
		require.Error(t, err)
		assert.Equal(t, "error cleaning subpath mount "+got+": failed to cleanup mount point "+got, err.Error())
		assert.Equal(t, 1, mountCount(t, got))
		assert.FileExists(t, filepath.Join(f.vol, "dir", "marker"))
		require.NoError(t, subpath.New().CleanSubPaths(f.podDir, "data"))
	})
	t.Run("a failed unmount is an error and deletes nothing", func(t *testing.T) {
		f := newPodFixture(t)
		got, _, err := subpath.New().PrepareSafeSubpath(f.subpath("dir", 0))
		require.NoError(t, err)
		m := &funcMounter{unmount: func(string) error { return unix.EBUSY }}
		err = subpath.New(subpath.WithMounter(m)).CleanSubPaths(f.podDir, "data")
		require.ErrorIs(t, err, unix.EBUSY)
		assert.FileExists(t, filepath.Join(got, "marker"))
		require.NoError(t, subpath.New().CleanSubPaths(f.podDir, "data"))
	})
	t.Run("an unmounted directory that is not empty is never deleted", func(t *testing.T) {
		f := newPodFixture(t)
		target := f.target("0")
		writeFile(t, filepath.Join(target, "precious"), "data")
		err := subpath.New().CleanSubPaths(f.podDir, "data")
		require.ErrorIs(t, err, unix.ENOTEMPTY)
		assert.FileExists(t, filepath.Join(target, "precious"))
	})
	t.Run("an unmounted file that is not empty is never deleted", func(t *testing.T) {
		f := newPodFixture(t)
		writeFile(t, f.target("0"), "data")
		err := subpath.New().CleanSubPaths(f.podDir, "data")
		require.ErrorIs(t, err, unix.EEXIST)
		assert.FileExists(t, f.target("0"))
	})
	t.Run("a symlink entry is removed without being followed", func(t *testing.T) {
		f := newPodFixture(t)
		mkdirs(t, filepath.Dir(f.target("0")))
		symlink(t, f.outside, f.target("0"))
		require.NoError(t, subpath.New().CleanSubPaths(f.podDir, "data"))
		assert.FileExists(t, filepath.Join(f.outside, "secret"))
		assert.NoFileExists(t, filepath.Join(f.podDir, "volume-subpaths"))
	})
	t.Run("a volume directory that is a symlink is not followed", func(t *testing.T) {
		f := newPodFixture(t)
		mkdirs(t, filepath.Join(f.podDir, "volume-subpaths"))
		symlink(t, f.root, filepath.Join(f.podDir, "volume-subpaths", "data"))
		err := subpath.New().CleanSubPaths(f.podDir, "data")
		require.ErrorIs(t, err, subpath.ErrUnexpectedFile)
		assert.FileExists(t, filepath.Join(f.outside, "secret"))
	})
	t.Run("a file in place of a container directory is left and reported", func(t *testing.T) {
		f := newPodFixture(t)
		mkdirs(t, filepath.Dir(f.target("0")))
		writeFile(t, filepath.Join(f.podDir, "volume-subpaths", "data", "stray"), "")
		err := subpath.New().CleanSubPaths(f.podDir, "data")
		require.ErrorIs(t, err, unix.ENOTEMPTY)
		assert.NoDirExists(t, filepath.Dir(f.target("0")), "the container directories are still cleaned")
		assert.FileExists(t, filepath.Join(f.podDir, "volume-subpaths", "data", "stray"))
	})
	t.Run("an unmounted empty file target is removed", func(t *testing.T) {
		f := newPodFixture(t)
		writeFile(t, f.target("0"), "")
		require.NoError(t, subpath.New().CleanSubPaths(f.podDir, "data"))
		assert.NoFileExists(t, filepath.Join(f.podDir, "volume-subpaths"))
	})
	t.Run("other volumes keep volume-subpaths in place", func(t *testing.T) {
		f := newPodFixture(t)
		mkdirs(t, filepath.Join(f.podDir, "volume-subpaths", "other"), filepath.Dir(f.target("0")))
		require.NoError(t, subpath.New().CleanSubPaths(f.podDir, "data"))
		assert.DirExists(t, filepath.Join(f.podDir, "volume-subpaths", "other"))
	})
}

func TestCleanSubPathsHostileNames(t *testing.T) {
	for _, name := range []string{"", ".", "..", "/", "../..", "a/../../x", "a\x00"} {
		t.Run("volume name "+name+" is rejected before anything is touched", func(t *testing.T) {
			f := newPodFixture(t)
			mkdirs(t, filepath.Join(f.podDir, "volume-subpaths", "x", "app", "0"))
			err := subpath.New().CleanSubPaths(f.podDir, name)
			require.ErrorIs(t, err, subpath.ErrInvalidName)
			assert.Equal(t, []string{"volume-subpaths", "volume-subpaths/x", "volume-subpaths/x/app", "volume-subpaths/x/app/0"}, listTree(t, f.podDir))
		})
	}
	t.Run("an empty pod directory is rejected", func(t *testing.T) {
		err := subpath.New().CleanSubPaths("", "data")
		require.ErrorIs(t, err, subpath.ErrInvalidName)
		assert.Equal(t, "pod directory must not be empty", err.Error())
	})
}
