package subpath_test

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/subpath"
)

// TestSafeMakeDirValidatesItsInputs: used on its own, SafeMakeDir applies the subPath rules of
// mounts.ValidateSubPath, with the same texts and category, before touching anything.
func TestSafeMakeDirValidatesItsInputs(t *testing.T) {
	tests := []struct {
		name, subdir, base, wantErr string
		wantIs                      error
	}{
		{name: "an absolute subdir", subdir: "/etc/x", wantErr: "error SubPath `/etc/x` must not be an absolute path", wantIs: mounts.ErrInvalidSubPath},
		{name: "a subdir with ..", subdir: "a/../b", wantErr: "unable to provision SubPath `a/../b`: must not contain '..'", wantIs: mounts.ErrInvalidSubPath},
		{name: "a subdir that is ..", subdir: "..", wantErr: "unable to provision SubPath `..`: must not contain '..'", wantIs: mounts.ErrInvalidSubPath},
		{name: "a subdir with NUL", subdir: "a\x00b", wantErr: `unable to provision SubPath "a\x00b": must not contain a NUL byte`, wantIs: mounts.ErrInvalidSubPath},
		{name: "an empty base", subdir: "a", base: "-", wantErr: `base "" must be an absolute path`, wantIs: mounts.ErrInvalidSubPath},
		{name: "a relative base", subdir: "a", base: "rel/vol", wantErr: `base "rel/vol" must be an absolute path`, wantIs: mounts.ErrInvalidSubPath},
	}
	for name, opts := range backends() {
		for _, tc := range tests {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				f := newPodFixture(t)
				base := f.vol
				switch tc.base {
				case "-":
					base = ""
				case "":
				default:
					base = tc.base
				}
				before := listTree(t, f.root)
				err := subpath.New(opts...).SafeMakeDir(tc.subdir, base, 0o755)
				require.ErrorIs(t, err, tc.wantIs)
				assert.EqualError(t, err, tc.wantErr)
				assert.Equal(t, before, listTree(t, f.root), "SafeMakeDir made something")
			})
		}
	}
}

// TestPrepareSafeSubpathValidatesItsInputs: a path that is not absolute, not clean (so that text
// normalisation and resolution could disagree: l/../f with l a symlink) or not in the volume is
// refused before anything is made.
func TestPrepareSafeSubpathValidatesItsInputs(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(f podFixture, sp *mounts.Subpath)
		wantErr string
	}{
		{"a path through a symlink and ..", func(f podFixture, sp *mounts.Subpath) {
			mkdirs(t, filepath.Join(f.vol, "deep", "er"))
			symlink(t, "deep/er", filepath.Join(f.vol, "l"))
			sp.Path = f.vol + "/l/../file"
		}, "must be a clean path"},
		{"a path with a dot element", func(f podFixture, sp *mounts.Subpath) { sp.Path = f.vol + "/./file" }, "must be a clean path"},
		{"a relative path", func(f podFixture, sp *mounts.Subpath) { sp.Path = "vol/file" }, "must be an absolute path"},
		{"an empty path", func(f podFixture, sp *mounts.Subpath) { sp.Path = "" }, "must be an absolute path"},
		{"an empty volume path", func(f podFixture, sp *mounts.Subpath) { sp.VolumePath = "" }, "must be an absolute path"},
		{"a NUL in the path", func(f podFixture, sp *mounts.Subpath) { sp.Path = f.vol + "/fi\x00le" }, "must not contain a NUL byte"},
		{"a path outside the volume", func(f podFixture, sp *mounts.Subpath) { sp.Path = f.outside }, "is not inside volume path"},
	}
	for name, opts := range backends() {
		for _, tc := range tests {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				f := newPodFixture(t)
				sp := f.subpath("file", 0)
				tc.edit(f, &sp)
				got, cleanup, err := subpath.New(opts...).PrepareSafeSubpath(sp)
				require.ErrorIs(t, err, mounts.ErrInvalidSubPath)
				assert.ErrorContains(t, err, tc.wantErr)
				assert.Empty(t, got)
				cleanup()
				assert.Empty(t, listTree(t, f.podDir))
			})
		}
	}
}

// TestPrepareSafeSubpathLocksByIdentity: two spellings of one pod directory (one through a
// symlinked root) prepare the same targets concurrently; each target ends with one mount.
func TestPrepareSafeSubpathLocksByIdentity(t *testing.T) {
	f := newPodFixture(t)
	alias := filepath.Join(f.root, "alias")
	symlink(t, f.root, alias)
	l := subpath.New()
	const targets, rounds = 8, 20
	for round := 0; round < rounds; round++ {
		var wg sync.WaitGroup
		for i := 0; i < targets; i++ {
			for _, podDir := range []string{f.podDir, filepath.Join(alias, "pods", "uid"), f.podDir + "//"} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					sp := f.subpath("dir", i)
					sp.PodDir = podDir
					_, _, err := l.PrepareSafeSubpath(sp)
					assert.NoError(t, err)
				}()
			}
		}
		wg.Wait()
		for i := 0; i < targets; i++ {
			require.Equal(t, 1, mountCount(t, f.target(itoa(i))), "round %d: mounts stacked on target %d", round, i)
		}
		require.NoError(t, l.CleanSubPaths(f.podDir, "data"))
	}
}

func itoa(i int) string { return string(rune('0' + i)) }

// TestPrepareSafeSubpathLongPath: a subPath 4096 levels deep, longer than PATH_MAX, is prepared the
// same way whether the kernel's openat2 or the O_NOFOLLOW walk resolves it. The deep tree lives
// on a tmpfs mounted for the test, which makes building it and throwing it away cheap.
func TestPrepareSafeSubpathLongPath(t *testing.T) {
	for name, opts := range backends() {
		t.Run(name, func(t *testing.T) {
			f := newPodFixture(t)
			deep := filepath.Join(f.vol, "deep")
			mkdirs(t, deep)
			require.NoError(t, unix.Mount("tmpfs", deep, "tmpfs", 0, "size=64m"))
			t.Cleanup(func() { _ = unix.Unmount(deep, unix.MNT_DETACH) })
			fd, err := unix.Open(deep, unix.O_PATH|unix.O_DIRECTORY, 0)
			require.NoError(t, err)
			for range 4096 {
				require.NoError(t, unix.Mkdirat(fd, "a", 0o755))
				next, err := unix.Openat(fd, "a", unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW, 0)
				require.NoError(t, err)
				_ = unix.Close(fd)
				fd = next
			}
			_ = unix.Close(fd)
			sp := f.subpath("deep/"+strings.TrimSuffix(strings.Repeat("a/", 4096), "/"), 0)
			got, cleanup, err := subpath.New(opts...).PrepareSafeSubpath(sp)
			require.NoError(t, err)
			assert.Equal(t, 1, mountCount(t, got))
			cleanup()
			assert.Equal(t, 0, mountCount(t, got))
		})
	}
}
