package hostfs_test

import (
	"io"
	"io/fs"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/hostfs/hostfstest"
)

// TestOpenBeneath holds both backends to one rule: a path opened beneath a root is resolved as if
// the root were "/", so no symlink or ".." can reach a file outside it.
func TestOpenBeneath(t *testing.T) {
	layout := []step{
		dir("vol/sub"), dir("vol/etc"), file("vol/app.env", "inside"), file("vol/etc/passwd", "volume's passwd"),
		file("secret", "host file"), dir("etc"), file("etc/passwd", "host passwd"),
		link("../app.env", "vol/sub/rel"),
		link("ROOT/secret", "vol/abs"),
		link("/etc/passwd", "vol/rooted"),
		link("../../../secret", "vol/sub/up"),
		link("loop", "vol/loop"),
		link("sub", "vol/dirlink"),
	}
	tests := []struct {
		name, path, want string
		wantErr          error
	}{
		{name: "a plain file", path: "app.env", want: "inside"},
		{name: "a relative symlink inside the root", path: "sub/rel", want: "inside"},
		{name: "a symlink through a directory symlink", path: "dirlink/rel", want: "inside"},
		{name: "an absolute symlink resolves inside the root", path: "rooted", want: "volume's passwd"},
		{name: "an absolute symlink to a host path that is not inside fails", path: "abs", wantErr: fs.ErrNotExist},
		{name: "a relative symlink climbing out stops at the root", path: "sub/up", wantErr: fs.ErrNotExist},
		{name: ".. in the path stops at the root", path: "../../etc/passwd", want: "volume's passwd"},
		{name: "an absolute path is taken inside the root", path: "/app.env", want: "inside"},
		{name: "a symlink loop", path: "loop", wantErr: syscall.ELOOP},
		{name: "a missing file", path: "none", wantErr: fs.ErrNotExist},
	}
	withBackends(t, func(t *testing.T, fsys backend, root string) {
		build(t, fsys, root, layout)
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				f, err := fsys.OpenBeneath(root+"/vol", tc.path)
				if tc.wantErr != nil {
					require.ErrorIs(t, err, tc.wantErr)
					return
				}
				require.NoError(t, err)
				defer func() { _ = f.Close() }()
				b, err := io.ReadAll(f)
				require.NoError(t, err)
				assert.Equal(t, tc.want, string(b))
			})
		}
		t.Run("a directory can be opened", func(t *testing.T) {
			f, err := fsys.OpenBeneath(root+"/vol", "sub")
			require.NoError(t, err)
			fi, err := f.Stat()
			require.NoError(t, err)
			assert.True(t, fi.IsDir())
			require.NoError(t, f.Close())
		})
		t.Run("a root that is not a directory fails", func(t *testing.T) {
			_, err := fsys.OpenBeneath(root+"/secret", "x")
			require.Error(t, err)
		})
	})
}

// TestOpenBeneathThroughWrappers: a wrapper forwards OpenBeneath, so it keeps the backend's rule.
func TestOpenBeneathThroughWrappers(t *testing.T) {
	withBackends(t, func(t *testing.T, fsys backend, root string) {
		build(t, fsys, root, []step{dir("vol"), file("secret", "host"), link("ROOT/secret", "vol/abs")})
		wrapped := hostfstest.Wrap(fsys, hostfstest.Funcs{})
		_, err := wrapped.OpenBeneath(root+"/vol", "abs")
		require.ErrorIs(t, err, fs.ErrNotExist)
		assert.Equal(t, 1, wrapped.Calls())
	})
	var _ interface {
		OpenBeneath(root, path string) (fs.File, error)
	} = &hostfs.OS{}
}

// TestRemove holds both backends to os.Remove's rules: one file, symlink or empty directory.
func TestRemove(t *testing.T) {
	withBackends(t, func(t *testing.T, fsys backend, root string) {
		build(t, fsys, root, []step{dir("empty"), dir("full/sub"), file("f", "x"), link("full", "link")})
		require.NoError(t, fsys.Remove(root+"/f"))
		require.NoError(t, fsys.Remove(root+"/empty"))
		require.NoError(t, fsys.Remove(root+"/link"), "a symlink is removed, not followed")
		_, err := fsys.Stat(root + "/full/sub")
		require.NoError(t, err, "the link's target stays")
		require.ErrorIs(t, fsys.Remove(root+"/full"), syscall.ENOTEMPTY)
		require.ErrorIs(t, fsys.Remove(root+"/none"), fs.ErrNotExist)
		for _, p := range []string{"/f", "/empty", "/link"} {
			_, err := fsys.Lstat(root + p)
			require.ErrorIs(t, err, fs.ErrNotExist, p)
		}
	})
}
