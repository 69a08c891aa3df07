//go:build linux

package hostfs_test

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/hostfs"
)

// TestOpenBeneathFIFO: a FIFO is refused without being opened for reading, so it cannot block.
func TestOpenBeneathFIFO(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, unix.Mkfifo(filepath.Join(root, "pipe"), 0o644))
	done := make(chan error, 1)
	go func() {
		_, err := hostfs.OS{}.OpenBeneath(root, "pipe")
		done <- err
	}()
	select {
	case err := <-done:
		require.ErrorIs(t, err, hostfs.ErrNotRegular)
		require.EqualError(t, err, "open pipe: not a regular file (p---------)")
	case <-time.After(5 * time.Second):
		t.Fatal("OpenBeneath blocked on a FIFO")
	}
}

// TestOpenBeneathFile: the file OpenBeneath returns reads the file's content, describes it as
// os.Stat does (from the open's own fstat), and refuses use after Close.
func TestOpenBeneathFile(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "d"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "d", "f.env"), []byte("A=1\n"), 0o640))
	require.NoError(t, os.Symlink("/d/f.env", filepath.Join(root, "link")))
	for _, p := range []string{"d/f.env", "link", "../../d/f.env"} {
		f, err := hostfs.OS{}.OpenBeneath(root, p)
		require.NoError(t, err, p)
		got, err := io.ReadAll(f)
		require.NoError(t, err)
		require.Equal(t, "A=1\n", string(got))
		fi, err := f.Stat()
		require.NoError(t, err)
		want, err := os.Stat(filepath.Join(root, "d", "f.env"))
		require.NoError(t, err)
		require.Equal(t, want.Mode(), fi.Mode())
		require.Equal(t, want.Size(), fi.Size())
		require.Equal(t, want.ModTime(), fi.ModTime())
		require.Equal(t, filepath.Base(p), fi.Name())
		wantIno, _ := hostfs.Inode(want)
		gotIno, ok := hostfs.Inode(fi)
		require.True(t, ok)
		require.Equal(t, wantIno, gotIno)
		require.NoError(t, f.Close())
		_, err = f.Read(make([]byte, 1))
		require.ErrorIs(t, err, fs.ErrClosed)
		require.ErrorIs(t, f.Close(), fs.ErrClosed)
	}
	d, err := hostfs.OS{}.OpenBeneath(root, "d")
	require.NoError(t, err)
	fi, err := d.Stat()
	require.NoError(t, err)
	require.True(t, fi.IsDir())
	require.NoError(t, d.Close())
}
