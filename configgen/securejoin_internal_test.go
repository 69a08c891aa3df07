package configgen

import (
	"testing"

	securejoin "github.com/cyphar/filepath-securejoin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/hostfs"
)

// secureJoin's shortcut gives SecureJoinVFS's result and error for every kind of path: plain,
// missing, through files, through symlinks inside and out of the root, with ".", "..", repeated
// and trailing slashes, absolute, and with roots that are not clean.
func TestSecureJoinIsSecureJoinVFS(t *testing.T) {
	fsys := hostfs.NewMemory()
	require.NoError(t, fsys.MkdirAll("/vol/env/deep", 0o755))
	require.NoError(t, fsys.MkdirAll("/etc", 0o755))
	require.NoError(t, fsys.WriteFile("/vol/env/app.env", []byte("A='1'\n"), 0o644))
	require.NoError(t, fsys.WriteFile("/etc/shadow", []byte("secret"), 0o600))
	require.NoError(t, fsys.Symlink("/etc", "/vol/abs"))
	require.NoError(t, fsys.Symlink("../../etc", "/vol/env/rel"))
	require.NoError(t, fsys.Symlink("env", "/vol/inside"))
	require.NoError(t, fsys.Symlink("loop", "/vol/loop"))

	roots := []string{"/vol", "/vol/", "/vol//", "/", "", ".", "vol", "/vol/env", "/missing", "/vol/../etc"}
	paths := []string{
		"", ".", "/", "env/app.env", "/env/app.env", "env//app.env", "env/./app.env", "env/app.env/",
		"env/missing", "missing/deeper/file", "env/app.env/below", "env/deep", "../etc/shadow",
		"env/../../etc/shadow", "abs/shadow", "env/rel/shadow", "inside/app.env", "loop/x", "a\x00b",
	}
	for _, root := range roots {
		for _, p := range paths {
			want, wantErr := securejoin.SecureJoinVFS(root, p, fsys)
			got, err := secureJoin(root, p, fsys)
			assert.Equal(t, want, got, "root %q, path %q", root, p)
			if wantErr == nil {
				assert.NoError(t, err, "root %q, path %q", root, p)
			} else {
				assert.EqualError(t, err, wantErr.Error(), "root %q, path %q", root, p)
			}
		}
	}
}
