//go:build unix

package hosts_test

import (
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/hosts"
)

// TestEnsureHostsFileUnderUmask changes the process umask, so it must not run in parallel.
func TestEnsureHostsFileUnderUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	t.Cleanup(func() { syscall.Umask(old) })

	dir := t.TempDir()
	p := filepath.Join(dir, "etc-hosts")
	fsys := hostfs.OS{}

	require.NoError(t, hosts.EnsureHostsFile(fsys, p, []byte("first\n")))
	ino, mode := inodeOf(t, fsys, p)
	assert.Equal(t, fs.FileMode(0o644), mode, "a new file is 0644 even under umask 0077")

	require.NoError(t, fsys.Chmod(p, 0o600))
	require.NoError(t, hosts.EnsureHostsFile(fsys, p, []byte("second, longer\n")))
	ino2, mode2 := inodeOf(t, fsys, p)
	assert.Equal(t, ino, ino2, "the file is rewritten in place")
	assert.Equal(t, fs.FileMode(0o644), mode2, "an existing file's mode is reset to 0644")

	require.NoError(t, hosts.EnsureHostsFile(fsys, p, []byte("s\n")))
	got, err := fsys.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "s\n", string(got), "a shorter rewrite truncates")
}
