package subpath_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/subpath"
)

const testGID = 4321

type localFixture struct {
	root, global, dir, outside string
}

// newLocalFixture is a volume with a file, a subdirectory, a FIFO and a symlink out of it, and a
// pod volume directory that does not exist yet.
func newLocalFixture(t *testing.T) localFixture {
	requireRoot(t)
	root := testRoot(t)
	f := localFixture{
		root:    root,
		global:  filepath.Join(root, "disks", "vol1"),
		dir:     filepath.Join(root, "pods", "uid", "volumes", "kubernetes.io~local-volume", "pv1"),
		outside: filepath.Join(root, "outside-file"),
	}
	writeFile(t, filepath.Join(f.global, "file"), "data")
	require.NoError(t, os.Chmod(filepath.Join(f.global, "file"), 0o600))
	mkdirs(t, filepath.Join(f.global, "sub"))
	require.NoError(t, os.Chmod(filepath.Join(f.global, "sub"), 0o700))
	mkfifo(t, filepath.Join(f.global, "sub", "fifo"))
	writeFile(t, f.outside, "outside")
	require.NoError(t, os.Chmod(f.outside, 0o600))
	symlink(t, f.outside, filepath.Join(f.global, "link"))
	t.Cleanup(func() {
		for _, mp := range mountPointsUnder(t, f.dir) {
			_ = unix.Unmount(mp, 0)
		}
	})
	return f
}

func (f localFixture) volume() subpath.LocalVolume {
	return subpath.LocalVolume{Name: "pv1", GlobalPath: f.global, Dir: f.dir}
}

func owner(t *testing.T, path string) (gid uint32, mode os.FileMode) {
	t.Helper()
	fi, err := os.Lstat(path)
	require.NoError(t, err)
	return fi.Sys().(*syscall.Stat_t).Gid, fi.Mode()
}

func TestSetUpLocalVolumeRejects(t *testing.T) {
	tests := []struct {
		name string
		edit func(v *subpath.LocalVolume)
		msg  string
	}{
		{"an empty global path is rejected", func(v *subpath.LocalVolume) { v.GlobalPath = "" }, `LocalVolume volume "pv1" path is empty`},
		{"a global path with .. is rejected", func(v *subpath.LocalVolume) { v.GlobalPath = "/mnt/disks/../../etc" }, "invalid path: /mnt/disks/../../etc must not contain '..'"},
		{"a trailing .. is rejected", func(v *subpath.LocalVolume) { v.GlobalPath = "/mnt/.." }, "invalid path: /mnt/.. must not contain '..'"},
		{"an empty target is rejected", func(v *subpath.LocalVolume) { v.Dir = "" }, `LocalVolume volume "pv1" target directory is empty`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := subpath.LocalVolume{Name: "pv1", GlobalPath: "/mnt/disks/vol1", Dir: "/nonexistent/pv1"}
			tt.edit(&v)
			_, err := subpath.New().SetUpLocalVolume(v)
			require.Error(t, err)
			assert.Equal(t, tt.msg, err.Error())
		})
	}
}

func TestSetUpLocalVolume(t *testing.T) {
	t.Run("the global path is bound onto a new 0750 directory, and set-up is idempotent", func(t *testing.T) {
		f := newLocalFixture(t)
		l := subpath.New()
		warnings, err := l.SetUpLocalVolume(f.volume())
		require.NoError(t, err)
		assert.Empty(t, warnings)
		assert.Equal(t, 1, mountCount(t, f.dir))
		assert.FileExists(t, filepath.Join(f.dir, "file"))
		require.NoError(t, unix.Unmount(f.dir, 0))
		assert.Equal(t, os.ModeDir|0o750, mode(t, f.dir))
		require.NoError(t, unix.Mount(f.global, f.dir, "", unix.MS_BIND, ""))

		_, err = l.SetUpLocalVolume(f.volume())
		require.NoError(t, err)
		assert.Equal(t, 1, mountCount(t, f.dir), "an existing mount point is left alone")
	})
	t.Run("a read-only volume is remounted read-only", func(t *testing.T) {
		f := newLocalFixture(t)
		v := f.volume()
		v.ReadOnly = true
		gid := int64(testGID)
		v.FSGroup = &gid
		_, err := subpath.New().SetUpLocalVolume(v)
		require.NoError(t, err)
		err = os.WriteFile(filepath.Join(f.dir, "new"), nil, 0o644)
		require.ErrorIs(t, err, unix.EROFS)
		g, _ := owner(t, filepath.Join(f.global, "file"))
		assert.NotEqual(t, uint32(testGID), g, "a read-only volume's ownership is left alone")
	})
	t.Run("a missing global path fails and removes the directories it made", func(t *testing.T) {
		f := newLocalFixture(t)
		v := f.volume()
		v.GlobalPath = filepath.Join(f.root, "missing")
		_, err := subpath.New().SetUpLocalVolume(v)
		require.ErrorIs(t, err, os.ErrNotExist)
		assert.NoDirExists(t, filepath.Join(f.root, "pods"))
	})
	t.Run("fsGroup gives every file the group and group access, and never follows symlinks", func(t *testing.T) {
		f := newLocalFixture(t)
		v := f.volume()
		gid := int64(testGID)
		v.FSGroup = &gid
		var (
			warnings []string
			err      error
		)
		within(t, 10*time.Second, func() { warnings, err = subpath.New().SetUpLocalVolume(v) })
		require.NoError(t, err)
		assert.Empty(t, warnings)
		for path, want := range map[string]os.FileMode{
			"":         os.ModeDir | os.ModeSetgid | 0o775,
			"file":     0o660,
			"sub":      os.ModeDir | os.ModeSetgid | 0o770,
			"sub/fifo": os.ModeNamedPipe | 0o664,
		} {
			g, m := owner(t, filepath.Join(f.global, path))
			assert.Equal(t, uint32(testGID), g, path)
			assert.Equal(t, want, m, path)
		}
		g, _ := owner(t, filepath.Join(f.global, "link"))
		assert.Equal(t, uint32(testGID), g, "the symlink itself gets the group")
		g, m := owner(t, f.outside)
		assert.NotEqual(t, uint32(testGID), g, "the symlink's target outside the volume is untouched")
		assert.Equal(t, os.FileMode(0o600), m)
	})
	t.Run("OnRootMismatch skips the walk when the root already matches", func(t *testing.T) {
		f := newLocalFixture(t)
		require.NoError(t, os.Chown(f.global, -1, testGID))
		require.NoError(t, os.Chmod(f.global, os.ModeSetgid|0o770))
		v := f.volume()
		gid := int64(testGID)
		v.FSGroup, v.OnRootMismatch = &gid, true
		_, err := subpath.New().SetUpLocalVolume(v)
		require.NoError(t, err)
		g, m := owner(t, filepath.Join(f.global, "file"))
		assert.NotEqual(t, uint32(testGID), g)
		assert.Equal(t, os.FileMode(0o600), m)
	})
	t.Run("OnRootMismatch walks when the root lacks the setgid bit", func(t *testing.T) {
		f := newLocalFixture(t)
		require.NoError(t, os.Chown(f.global, -1, testGID))
		require.NoError(t, os.Chmod(f.global, 0o770))
		v := f.volume()
		gid := int64(testGID)
		v.FSGroup, v.OnRootMismatch = &gid, true
		_, err := subpath.New().SetUpLocalVolume(v)
		require.NoError(t, err)
		g, m := owner(t, filepath.Join(f.global, "file"))
		assert.Equal(t, uint32(testGID), g)
		assert.Equal(t, os.FileMode(0o660), m)
	})
}
