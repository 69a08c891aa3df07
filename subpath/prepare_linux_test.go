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

// podFixture is a pod directory and a volume with some content:
//
//	vol/dir/marker  "in dir"
//	vol/file        "in file"
//	outside/secret  "outside"
type podFixture struct {
	root, podDir, vol, outside string
}

func newPodFixture(t *testing.T) podFixture {
	requireRoot(t)
	root := testRoot(t)
	f := podFixture{
		root:    root,
		podDir:  filepath.Join(root, "pods", "uid"),
		vol:     filepath.Join(root, "vol"),
		outside: filepath.Join(root, "outside"),
	}
	mkdirs(t, f.podDir, f.vol, f.outside)
	writeFile(t, filepath.Join(f.vol, "dir", "marker"), "in dir")
	writeFile(t, filepath.Join(f.vol, "file"), "in file")
	writeFile(t, filepath.Join(f.outside, "secret"), "outside")
	return f
}

func (f podFixture) subpath(rel string, index int) mounts.Subpath {
	return mounts.Subpath{
		VolumeMountIndex: index,
		Path:             filepath.Join(f.vol, rel),
		VolumeName:       "data",
		VolumePath:       f.vol,
		PodDir:           f.podDir,
		ContainerName:    "app",
	}
}

func (f podFixture) target(index string) string {
	return filepath.Join(f.podDir, "volume-subpaths", "data", "app", index)
}

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	require.NoError(t, err)
	return fi.Mode()
}

func TestPrepareSafeSubpathBinds(t *testing.T) {
	for backend, opts := range backends() {
		t.Run(backend+"/a directory is bound at volume-subpaths/<volume>/<container>/<index> and cleaned up", func(t *testing.T) {
			f := newPodFixture(t)
			got, cleanup, err := subpath.New(opts...).PrepareSafeSubpath(f.subpath("dir", 3))
			require.NoError(t, err)
			require.NotNil(t, cleanup)
			assert.Equal(t, f.target("3"), got)
			assert.Equal(t, 1, mountCount(t, got))
			data, err := os.ReadFile(filepath.Join(got, "marker"))
			require.NoError(t, err)
			assert.Equal(t, "in dir", string(data))
			assert.Equal(t, os.ModeDir|0o750, mode(t, filepath.Join(f.podDir, "volume-subpaths")))
			assert.Equal(t, os.ModeDir|0o750, mode(t, filepath.Join(f.podDir, "volume-subpaths", "data")))
			assert.Equal(t, os.ModeDir|0o750, mode(t, filepath.Join(f.podDir, "volume-subpaths", "data", "app")))

			cleanup()
			cleanup()
			assert.NoFileExists(t, filepath.Join(f.podDir, "volume-subpaths"))
			assert.FileExists(t, filepath.Join(f.vol, "dir", "marker"))
		})
		t.Run(backend+"/a file is bound onto an empty 0640 file", func(t *testing.T) {
			f := newPodFixture(t)
			require.NoError(t, unix.Mount(f.outside, f.outside, "", unix.MS_BIND, "")) // unrelated mount stays
			t.Cleanup(func() { _ = unix.Unmount(f.outside, 0) })
			got, cleanup, err := subpath.New(opts...).PrepareSafeSubpath(f.subpath("file", 0))
			require.NoError(t, err)
			defer cleanup()
			assert.Equal(t, f.target("0"), got)
			data, err := os.ReadFile(got)
			require.NoError(t, err)
			assert.Equal(t, "in file", string(data))
			require.NoError(t, unix.Unmount(got, 0))
			assert.Equal(t, os.FileMode(0o640), mode(t, got))
			require.NoError(t, unix.Mount(filepath.Join(f.vol, "file"), got, "", unix.MS_BIND, ""))
		})
		t.Run(backend+"/the volume root itself can be the subPath", func(t *testing.T) {
			f := newPodFixture(t)
			sp := f.subpath("", 1)
			got, cleanup, err := subpath.New(opts...).PrepareSafeSubpath(sp)
			require.NoError(t, err)
			defer cleanup()
			assert.FileExists(t, filepath.Join(got, "dir", "marker"))
		})
		t.Run(backend+"/absolute symlink back inside the volume keeps working", func(t *testing.T) {
			f := newPodFixture(t)
			symlink(t, filepath.Join(f.vol, "dir"), filepath.Join(f.vol, "link"))
			got, cleanup, err := subpath.New(opts...).PrepareSafeSubpath(f.subpath("link", 0))
			require.NoError(t, err)
			defer cleanup()
			assert.FileExists(t, filepath.Join(got, "marker"))
		})
		t.Run(backend+"/a FIFO at the end is bound without being opened", func(t *testing.T) {
			f := newPodFixture(t)
			mkfifo(t, filepath.Join(f.vol, "fifo"))
			var (
				got     string
				cleanup func()
				err     error
			)
			within(t, 10*time.Second, func() { got, cleanup, err = subpath.New(opts...).PrepareSafeSubpath(f.subpath("fifo", 0)) })
			require.NoError(t, err)
			defer cleanup()
			assert.Equal(t, os.ModeNamedPipe, mode(t, got)&os.ModeType)
		})
		t.Run(backend+"/a socket at the end is bound", func(t *testing.T) {
			f := newPodFixture(t)
			mksock(t, filepath.Join(f.vol, "sock"))
			got, cleanup, err := subpath.New(opts...).PrepareSafeSubpath(f.subpath("sock", 0))
			require.NoError(t, err)
			defer cleanup()
			assert.Equal(t, os.ModeSocket, mode(t, got)&os.ModeType)
		})
	}
}

func TestPrepareSafeSubpathRejects(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, f podFixture)
		rel   string
		kind  error
		msg   string
	}{
		{
			name:  "absolute symlink out of the volume at the end is rejected",
			setup: func(t *testing.T, f podFixture) { symlink(t, f.outside, filepath.Join(f.vol, "link")) },
			rel:   "link",
			kind:  subpath.ErrOutsideBase,
			msg:   `subpath "${R}/outside" not within volume path "${R}/vol"`,
		},
		{
			name:  "absolute symlink to / in the middle is rejected",
			setup: func(t *testing.T, f podFixture) { symlink(t, "/", filepath.Join(f.vol, "link")) },
			rel:   "link/etc",
			kind:  subpath.ErrOutsideBase,
			msg:   `subpath "/etc" not within volume path "${R}/vol"`,
		},
		{
			name:  "relative symlink out of the volume in the middle is rejected",
			setup: func(t *testing.T, f podFixture) { symlink(t, "../../outside", filepath.Join(f.vol, "dir", "link")) },
			rel:   "dir/link/secret",
			kind:  subpath.ErrOutsideBase,
			msg:   `subpath "${R}/outside/secret" not within volume path "${R}/vol"`,
		},
		{
			name: "symlink loop is rejected",
			setup: func(t *testing.T, f podFixture) {
				symlink(t, "b", filepath.Join(f.vol, "a"))
				symlink(t, "a", filepath.Join(f.vol, "b"))
			},
			rel: "a",
			msg: `error resolving symlinks in "${R}/vol/a": EvalSymlinks: too many links`,
		},
		{
			name:  "dangling symlink is rejected",
			setup: func(t *testing.T, f podFixture) { symlink(t, "missing", filepath.Join(f.vol, "link")) },
			rel:   "link",
			kind:  fs.ErrNotExist,
			msg:   `error resolving symlinks in "${R}/vol/link": lstat ${R}/vol/missing: no such file or directory`,
		},
		{
			name: "regular file in the middle is rejected",
			rel:  "file/x",
			kind: unix.ENOTDIR,
			msg:  `error resolving symlinks in "${R}/vol/file/x": not a directory`,
		},
		{
			name:  "FIFO in the middle is rejected",
			setup: func(t *testing.T, f podFixture) { mkfifo(t, filepath.Join(f.vol, "fifo")) },
			rel:   "fifo/x",
			kind:  unix.ENOTDIR,
			msg:   `error resolving symlinks in "${R}/vol/fifo/x": not a directory`,
		},
		{
			name: "missing subPath is rejected",
			rel:  "nothing",
			kind: fs.ErrNotExist,
			msg:  `error resolving symlinks in "${R}/vol/nothing": lstat ${R}/vol/nothing: no such file or directory`,
		},
	}
	for backend, opts := range backends() {
		for _, tt := range tests {
			t.Run(backend+"/"+tt.name, func(t *testing.T) {
				f := newPodFixture(t)
				if tt.setup != nil {
					tt.setup(t, f)
				}
				var (
					got     string
					cleanup func()
					err     error
				)
				within(t, 10*time.Second, func() { got, cleanup, err = subpath.New(opts...).PrepareSafeSubpath(f.subpath(tt.rel, 0)) })
				require.Error(t, err)
				require.NotNil(t, cleanup)
				cleanup()
				assert.Empty(t, got)
				if tt.kind != nil {
					assert.ErrorIs(t, err, tt.kind)
				}
				assert.Equal(t, os.Expand(tt.msg, func(string) string { return f.root }), err.Error())
				assert.NoFileExists(t, filepath.Join(f.podDir, "volume-subpaths"))
			})
		}
	}
}

func TestPrepareSafeSubpathHostileNames(t *testing.T) {
	tests := []struct {
		name string
		edit func(sp *mounts.Subpath)
		msg  string
	}{
		{"empty volume name is rejected", func(sp *mounts.Subpath) { sp.VolumeName = "" }, `invalid volume name "": must not be empty`},
		{"volume name . is rejected", func(sp *mounts.Subpath) { sp.VolumeName = "." }, `invalid volume name ".": must not be '.' or '..'`},
		{"volume name .. is rejected", func(sp *mounts.Subpath) { sp.VolumeName = ".." }, `invalid volume name "..": must not be '.' or '..'`},
		{"volume name with / is rejected", func(sp *mounts.Subpath) { sp.VolumeName = "../../etc" }, `invalid volume name "../../etc": must not contain '/'`},
		{"volume name with NUL is rejected", func(sp *mounts.Subpath) { sp.VolumeName = "a\x00b" }, `invalid volume name "a\x00b": must not contain a NUL byte`},
		{"empty container name is rejected", func(sp *mounts.Subpath) { sp.ContainerName = "" }, `invalid container name "": must not be empty`},
		{"container name .. is rejected", func(sp *mounts.Subpath) { sp.ContainerName = ".." }, `invalid container name "..": must not be '.' or '..'`},
		{"container name with / is rejected", func(sp *mounts.Subpath) { sp.ContainerName = "a/b" }, `invalid container name "a/b": must not contain '/'`},
		{"negative volume mount index is rejected", func(sp *mounts.Subpath) { sp.VolumeMountIndex = -1 }, "volume mount index -1 must not be negative"},
		{"empty pod directory is rejected", func(sp *mounts.Subpath) { sp.PodDir = "" }, "pod directory must not be empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newPodFixture(t)
			sp := f.subpath("dir", 0)
			tt.edit(&sp)
			got, cleanup, err := subpath.New().PrepareSafeSubpath(sp)
			require.ErrorIs(t, err, subpath.ErrInvalidName)
			assert.Equal(t, tt.msg, err.Error())
			assert.Empty(t, got)
			cleanup()
			assert.Empty(t, listTree(t, f.podDir))
		})
	}
}
