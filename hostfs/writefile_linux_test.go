//go:build linux

package hostfs_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/hostfs"
)

// TestOSWriteFileKeepsOldContentOnENOSPC rewrites a file on a full tmpfs with longer content:
// the write runs out of space, and the file must still hold its old content in full on the same
// inode, where a truncating write (os.WriteFile) frees the old content's pages, fills them with
// the start of the new and leaves the file cut short.
func TestOSWriteFileKeepsOldContentOnENOSPC(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: mounting a small tmpfs needs root (run the tests as root, as CI does)")
	}
	page := os.Getpagesize()
	old := bytes.Repeat([]byte("10.0.0.1\told\n"), 3*page/13)
	for _, tc := range []struct {
		name    string
		newSize int
	}{
		{"content one page longer than the space left", 4 * page},
		{"content much longer than the space left", 64 * page},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, unix.Mount("tmpfs", dir, "tmpfs", 0, "size=64k,mode=0755"))
			t.Cleanup(func() { require.NoError(t, unix.Unmount(dir, 0)) })
			path := filepath.Join(dir, "etc-hosts")
			require.NoError(t, os.WriteFile(path, old, 0o644))
			before, err := os.Stat(path)
			require.NoError(t, err)
			fillUp(t, filepath.Join(dir, "filler"))

			err = hostfs.OS{}.WriteFile(path, bytes.Repeat([]byte("x"), tc.newSize), 0o644)
			require.ErrorIs(t, err, syscall.ENOSPC)
			got, rerr := os.ReadFile(path)
			require.NoError(t, rerr)
			assert.True(t, bytes.Equal(old, got), "the old content is gone: %d bytes left of %d", len(got), len(old))
			after, err := os.Stat(path)
			require.NoError(t, err)
			assert.True(t, os.SameFile(before, after), "the file was replaced")
		})
	}
}

// fillUp writes to path until the file system is full.
func fillUp(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	chunk := make([]byte, 1024)
	for {
		if _, err := f.Write(chunk); err != nil {
			require.True(t, errors.Is(err, syscall.ENOSPC), "filling the file system: %v", err)
			return
		}
	}
}

// TestOSWriteFileInPlace holds WriteFile to a rewrite in place: shorter, longer and equal content
// replace the old in full, on the same inode, and a new file gets perm less the umask.
func TestOSWriteFileInPlace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	require.NoError(t, hostfs.OS{}.WriteFile(path, []byte("first content\n"), 0o600))
	first, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), first.Mode().Perm())
	for _, content := range []string{"short\n", "a much longer content than before\n", "equal length content here!!!!!!!!\n", ""} {
		require.NoError(t, hostfs.OS{}.WriteFile(path, []byte(content), 0o644))
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, content, string(got))
		fi, err := os.Stat(path)
		require.NoError(t, err)
		assert.True(t, os.SameFile(first, fi), "the file was replaced")
		assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "an existing file keeps its mode")
	}
}
