package subpath_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/subpath"
)

// safeMakeDirFixture builds <root>/vol (the base) and <root>/outside (a sentinel that must stay
// empty) and returns them.
func safeMakeDirFixture(t *testing.T) (root, vol, outside string) {
	root = testRoot(t)
	vol = filepath.Join(root, "vol")
	outside = filepath.Join(root, "outside")
	mkdirs(t, vol, outside, filepath.Join(vol, "real"))
	return root, vol, outside
}

func TestSafeMakeDir(t *testing.T) {
	type check func(t *testing.T, root, vol string, err error)
	created := func(rel string) check {
		return func(t *testing.T, _, vol string, err error) {
			require.NoError(t, err)
			fi, err := os.Lstat(filepath.Join(vol, rel))
			require.NoError(t, err)
			assert.True(t, fi.IsDir())
		}
	}
	fails := func(kind error, msg string) check {
		return func(t *testing.T, root, _ string, err error) {
			require.Error(t, err)
			if kind != nil {
				assert.ErrorIs(t, err, kind)
			}
			if msg != "" {
				assert.Equal(t, os.Expand(msg, func(string) string { return root }), err.Error())
			}
		}
	}
	tests := []struct {
		name   string
		setup  func(t *testing.T, root, vol string)
		subdir string
		check  check
	}{
		{
			name:   "missing levels are created",
			subdir: "a/b/c",
			check:  created("a/b/c"),
		},
		{
			name:   "an existing directory is accepted",
			subdir: "real",
			check:  created("real"),
		},
		{
			name:   "subdir escaping with .. is rejected as a subPath",
			subdir: "../outside/x",
			check:  fails(mounts.ErrInvalidSubPath, "unable to provision SubPath `../outside/x`: must not contain '..'"),
		},
		{
			name: "absolute symlink out of the volume in the middle is rejected",
			setup: func(t *testing.T, root, vol string) {
				symlink(t, filepath.Join(root, "outside"), filepath.Join(vol, "link"))
			},
			subdir: "link/x",
			check:  fails(subpath.ErrOutsideBase, "path ${R}/outside is outside of allowed base ${R}/vol"),
		},
		{
			name:   "absolute symlink to / at the end is rejected",
			setup:  func(t *testing.T, _, vol string) { symlink(t, "/", filepath.Join(vol, "link")) },
			subdir: "link",
			check:  fails(subpath.ErrOutsideBase, "path / is outside of allowed base ${R}/vol"),
		},
		{
			name:   "relative symlink out of the volume at the end is rejected",
			setup:  func(t *testing.T, _, vol string) { symlink(t, "../outside", filepath.Join(vol, "link")) },
			subdir: "link",
			check:  fails(subpath.ErrOutsideBase, "path ${R} is outside of allowed base ${R}/vol"),
		},
		{
			name: "relative symlink out of the volume in the middle is rejected",
			setup: func(t *testing.T, _, vol string) {
				symlink(t, "../../outside", filepath.Join(vol, "real", "link"))
			},
			subdir: "real/link/x",
			check:  fails(subpath.ErrOutsideBase, "path ${R} is outside of allowed base ${R}/vol"),
		},
		{
			name: "symlink loop is rejected",
			setup: func(t *testing.T, _, vol string) {
				symlink(t, "b", filepath.Join(vol, "a"))
				symlink(t, "a", filepath.Join(vol, "b"))
			},
			subdir: "a/x",
			check:  fails(unix.ELOOP, "error resolving symlinks in ${R}/vol/a/x: too many levels of symbolic links"),
		},
		{
			name:   "dangling symlink is rejected and its target not created",
			setup:  func(t *testing.T, _, vol string) { symlink(t, "missing", filepath.Join(vol, "link")) },
			subdir: "link",
			check: func(t *testing.T, root, vol string, err error) {
				fails(fs.ErrNotExist, "error resolving symlinks in ${R}/vol/link: dangling symlink: lstat ${R}/vol/missing: no such file or directory")(t, root, vol, err)
				assert.NoDirExists(t, filepath.Join(vol, "missing"))
			},
		},
		{
			name:   "absolute symlink back inside the volume keeps working",
			setup:  func(t *testing.T, _, vol string) { symlink(t, filepath.Join(vol, "real"), filepath.Join(vol, "link")) },
			subdir: "link/new",
			check:  created("real/new"),
		},
		{
			name: "absolute symlinks bouncing inside the volume are followed",
			setup: func(t *testing.T, _, vol string) {
				mkdirs(t, filepath.Join(vol, "t1"), filepath.Join(vol, "t2"))
				symlink(t, filepath.Join(vol, "t2"), filepath.Join(vol, "t1", "dir"))
				symlink(t, filepath.Join(vol, "t1"), filepath.Join(vol, "t2", "dir"))
			},
			subdir: "t1/dir/dir/dir/dir/dir/dir/dir/foo",
			check:  created("t2/foo"),
		},
		{
			name: "relative symlink up and back into the volume keeps working",
			setup: func(t *testing.T, _, vol string) {
				symlink(t, "../real", filepath.Join(vol, "real", "up"))
			},
			subdir: "real/up/x",
			check:  created("real/x"),
		},
		{
			name:   "the base itself is accepted",
			subdir: "",
			check:  created("."),
		},
		{
			name:   "relative symlink inside the volume keeps working",
			setup:  func(t *testing.T, _, vol string) { symlink(t, "real", filepath.Join(vol, "link")) },
			subdir: "link/new/deeper",
			check:  created("real/new/deeper"),
		},
		{
			name:   "regular file in the middle is rejected",
			setup:  func(t *testing.T, _, vol string) { writeFile(t, filepath.Join(vol, "file"), "data") },
			subdir: "file/x",
			check:  fails(subpath.ErrUnexpectedFile, "cannot create directory ${R}/vol/file/x: ${R}/vol/file is not a directory"),
		},
		{
			name:   "regular file at the end is ENOTDIR",
			setup:  func(t *testing.T, _, vol string) { writeFile(t, filepath.Join(vol, "file"), "data") },
			subdir: "file",
			check:  fails(unix.ENOTDIR, "mkdir ${R}/vol/file: not a directory"),
		},
		{
			name:   "FIFO in the middle is rejected",
			setup:  func(t *testing.T, _, vol string) { mkfifo(t, filepath.Join(vol, "fifo")) },
			subdir: "fifo/x",
			check:  fails(subpath.ErrUnexpectedFile, "cannot create directory ${R}/vol/fifo/x: ${R}/vol/fifo is not a directory"),
		},
		{
			name:   "FIFO at the end is ENOTDIR",
			setup:  func(t *testing.T, _, vol string) { mkfifo(t, filepath.Join(vol, "fifo")) },
			subdir: "fifo",
			check:  fails(unix.ENOTDIR, "mkdir ${R}/vol/fifo: not a directory"),
		},
		{
			name:   "socket in the middle is rejected",
			setup:  func(t *testing.T, _, vol string) { mksock(t, filepath.Join(vol, "sock")) },
			subdir: "sock/x",
			check:  fails(subpath.ErrUnexpectedFile, "cannot create directory ${R}/vol/sock/x: ${R}/vol/sock is not a directory"),
		},
		{
			name:   "subdir with NUL is rejected",
			subdir: "a\x00b",
			check:  fails(mounts.ErrInvalidSubPath, ""),
		},
	}
	for backend, opts := range backends() {
		for _, tt := range tests {
			t.Run(backend+"/"+tt.name, func(t *testing.T) {
				root, vol, outside := safeMakeDirFixture(t)
				if tt.setup != nil {
					tt.setup(t, root, vol)
				}
				var err error
				within(t, 10*time.Second, func() { err = subpath.New(opts...).SafeMakeDir(tt.subdir, vol, 0o755) })
				tt.check(t, root, vol, err)
				assert.Empty(t, listTree(t, outside), "nothing may be created outside the volume")
			})
		}
	}
}

func TestSafeMakeDirModes(t *testing.T) {
	for backend, opts := range backends() {
		t.Run(backend+"/every created level gets perm with setgid, umask undone", func(t *testing.T) {
			_, vol, _ := safeMakeDirFixture(t)
			old := unix.Umask(0o077)
			defer unix.Umask(old)
			perm := os.FileMode(0o775) | os.ModeSetgid
			require.NoError(t, subpath.New(opts...).SafeMakeDir("a/b", vol, perm))
			for _, p := range []string{"a", "a/b"} {
				fi, err := os.Stat(filepath.Join(vol, p))
				require.NoError(t, err)
				assert.Equal(t, os.ModeDir|perm, fi.Mode(), p)
			}
		})
		t.Run(backend+"/setuid and sticky bits are kept, existing levels untouched", func(t *testing.T) {
			_, vol, _ := safeMakeDirFixture(t)
			perm := os.FileMode(0o700) | os.ModeSetuid | os.ModeSticky
			require.NoError(t, subpath.New(opts...).SafeMakeDir("real/x", vol, perm))
			fi, err := os.Stat(filepath.Join(vol, "real/x"))
			require.NoError(t, err)
			assert.Equal(t, os.ModeDir|perm, fi.Mode())
			fi, err = os.Stat(filepath.Join(vol, "real"))
			require.NoError(t, err)
			assert.Equal(t, os.ModeDir|0o755, fi.Mode())
		})
	}
}

func TestSafeMakeDirBase(t *testing.T) {
	t.Run("a base that is a symlink is resolved first", func(t *testing.T) {
		root, vol, _ := safeMakeDirFixture(t)
		alias := filepath.Join(root, "alias")
		symlink(t, vol, alias)
		symlink(t, filepath.Join(alias, "real"), filepath.Join(vol, "viaalias"))
		require.NoError(t, subpath.New().SafeMakeDir("viaalias/x", alias, 0o755))
		assert.DirExists(t, filepath.Join(vol, "real", "x"))
	})
	t.Run("a missing base is an error", func(t *testing.T) {
		root := testRoot(t)
		err := subpath.New().SafeMakeDir("x", filepath.Join(root, "missing"), 0o755)
		require.ErrorIs(t, err, fs.ErrNotExist)
		assert.Equal(t, "error resolving symlinks in "+root+"/missing: lstat "+root+"/missing: no such file or directory", err.Error())
	})
}
