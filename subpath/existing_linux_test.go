package subpath_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/subpath"
)

// funcMounter is a subpath.Mounter whose methods can be replaced one by one; unset ones use the
// real system calls.
type funcMounter struct {
	isMountPoint func(file string) (bool, error)
	unmount      func(target string) error
	unmounts     int
}

func (m *funcMounter) IsMountPoint(file string) (bool, error) {
	if m.isMountPoint != nil {
		return m.isMountPoint(file)
	}
	var st unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, file, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_TYPE, &st); err != nil {
		return false, &os.PathError{Op: "statx", Path: file, Err: err}
	}
	return st.Attributes&unix.STATX_ATTR_MOUNT_ROOT != 0, nil
}

func (m *funcMounter) Unmount(target string) error {
	m.unmounts++
	if m.unmount != nil {
		return m.unmount(target)
	}
	return unix.Unmount(target, 0)
}

func TestPrepareSafeSubpathExistingTargets(t *testing.T) {
	t.Run("a target already mounted from the same file is reused", func(t *testing.T) {
		f := newPodFixture(t)
		l := subpath.New()
		first, cleanup1, err := l.PrepareSafeSubpath(f.subpath("dir", 0))
		require.NoError(t, err)
		second, cleanup2, err := l.PrepareSafeSubpath(f.subpath("dir", 0))
		require.NoError(t, err)
		assert.Equal(t, first, second)
		assert.Equal(t, 1, mountCount(t, first))
		cleanup2()
		assert.Equal(t, 1, mountCount(t, first), "the reusing call's cleanup leaves the mount alone")
		cleanup1()
		assert.Equal(t, 0, mountCount(t, first))
		assert.NoFileExists(t, filepath.Join(f.podDir, "volume-subpaths"))
	})
	t.Run("a stale target mounted from another file is lazily unmounted and replaced", func(t *testing.T) {
		f := newPodFixture(t)
		writeFile(t, filepath.Join(f.vol, "other", "marker"), "in other")
		l := subpath.New()
		_, cleanupOld, err := l.PrepareSafeSubpath(f.subpath("dir", 0))
		require.NoError(t, err)
		got, cleanup, err := l.PrepareSafeSubpath(f.subpath("other", 0))
		require.NoError(t, err)
		assert.Equal(t, 1, mountCount(t, got))
		data, err := os.ReadFile(filepath.Join(got, "marker"))
		require.NoError(t, err)
		assert.Equal(t, "in other", string(data))
		cleanupOld()
		assert.Equal(t, 1, mountCount(t, got), "the replaced preparation's cleanup leaves the new mount alone")
		cleanup()
		assert.Equal(t, 0, mountCount(t, got))
	})
	t.Run("a stale directory target is replaced by a file target for a file source", func(t *testing.T) {
		f := newPodFixture(t)
		l := subpath.New()
		_, _, err := l.PrepareSafeSubpath(f.subpath("dir", 0))
		require.NoError(t, err)
		got, cleanup, err := l.PrepareSafeSubpath(f.subpath("file", 0))
		require.NoError(t, err)
		defer cleanup()
		data, err := os.ReadFile(got)
		require.NoError(t, err)
		assert.Equal(t, "in file", string(data))
	})
	t.Run("an existing unmounted target is used, and kept by the cleanup since this call did not make it", func(t *testing.T) {
		f := newPodFixture(t)
		mkdirs(t, f.target("0"))
		got, cleanup, err := subpath.New().PrepareSafeSubpath(f.subpath("dir", 0))
		require.NoError(t, err)
		assert.Equal(t, f.target("0"), got)
		assert.FileExists(t, filepath.Join(got, "marker"))
		cleanup()
		assert.Equal(t, 0, mountCount(t, got))
		assert.DirExists(t, got)
	})
	t.Run("a corrupted target is unmounted and mounted afresh", func(t *testing.T) {
		f := newPodFixture(t)
		m := &funcMounter{}
		m.isMountPoint = func(string) (bool, error) {
			m.isMountPoint = nil
			return false, &os.PathError{Op: "statx", Path: f.target("0"), Err: unix.ENOTCONN}
		}
		m.unmount = func(string) error { m.unmount = nil; return nil }
		got, cleanup, err := subpath.New(subpath.WithMounter(m)).PrepareSafeSubpath(f.subpath("dir", 0))
		require.NoError(t, err)
		assert.Equal(t, 1, m.unmounts)
		assert.FileExists(t, filepath.Join(got, "marker"))
		cleanup()
		assert.Equal(t, 0, mountCount(t, got))
	})
	t.Run("a corrupted target that cannot be unmounted is an error", func(t *testing.T) {
		f := newPodFixture(t)
		m := &funcMounter{
			isMountPoint: func(string) (bool, error) { return false, &os.PathError{Op: "statx", Path: "x", Err: unix.ESTALE} },
			unmount:      func(string) error { return unix.EBUSY },
		}
		_, _, err := subpath.New(subpath.WithMounter(m)).PrepareSafeSubpath(f.subpath("dir", 0))
		require.ErrorIs(t, err, unix.EBUSY)
		assert.Equal(t, "error unmounting corrupted mount "+f.target("0")+": device or resource busy", err.Error())
	})
	t.Run("an error checking the target is reported", func(t *testing.T) {
		f := newPodFixture(t)
		m := &funcMounter{isMountPoint: func(string) (bool, error) { return false, unix.EINVAL }}
		_, _, err := subpath.New(subpath.WithMounter(m)).PrepareSafeSubpath(f.subpath("dir", 0))
		require.ErrorIs(t, err, unix.EINVAL)
		assert.Equal(t, "error checking path "+f.target("0")+" for mount: invalid argument", err.Error())
	})
}

func TestPrepareSafeSubpathCleanupFailure(t *testing.T) {
	t.Run("a cleanup whose unmount fails deletes nothing", func(t *testing.T) {
		f := newPodFixture(t)
		m := &funcMounter{unmount: func(string) error { return errors.New("umount failed") }}
		got, cleanup, err := subpath.New(subpath.WithMounter(m)).PrepareSafeSubpath(f.subpath("dir", 0))
		require.NoError(t, err)
		cleanup()
		assert.Equal(t, 1, m.unmounts)
		assert.Equal(t, 1, mountCount(t, got))
		assert.FileExists(t, filepath.Join(got, "marker"))
		assert.FileExists(t, filepath.Join(f.vol, "dir", "marker"))
		require.NoError(t, unix.Unmount(got, 0))
	})
	t.Run("a cleanup whose unmount leaves the target mounted deletes nothing", func(t *testing.T) {
		f := newPodFixture(t)
		m := &funcMounter{unmount: func(string) error { return nil }}
		got, cleanup, err := subpath.New(subpath.WithMounter(m)).PrepareSafeSubpath(f.subpath("dir", 0))
		require.NoError(t, err)
		cleanup()
		assert.Equal(t, 1, mountCount(t, got))
		assert.FileExists(t, filepath.Join(f.vol, "dir", "marker"))
		require.NoError(t, unix.Unmount(got, 0))
	})
	t.Run("a cleanup keeps directories that another preparation still uses", func(t *testing.T) {
		f := newPodFixture(t)
		l := subpath.New()
		first, cleanup1, err := l.PrepareSafeSubpath(f.subpath("dir", 0))
		require.NoError(t, err)
		_, cleanup2, err := l.PrepareSafeSubpath(f.subpath("file", 1))
		require.NoError(t, err)
		cleanup1()
		assert.NoFileExists(t, first)
		assert.FileExists(t, f.target("1"))
		cleanup2()
		assert.NoFileExists(t, filepath.Join(f.podDir, "volume-subpaths"))
		assert.DirExists(t, f.podDir)
	})
	t.Run("a missing pod directory is created and removed again", func(t *testing.T) {
		f := newPodFixture(t)
		sp := f.subpath("dir", 0)
		sp.PodDir = filepath.Join(f.root, "pods", "new-uid")
		_, cleanup, err := subpath.New().PrepareSafeSubpath(sp)
		require.NoError(t, err)
		assert.Equal(t, os.ModeDir|0o750, mode(t, sp.PodDir))
		cleanup()
		assert.NoFileExists(t, sp.PodDir)
	})
}
