package subpath

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

func TestTreeRemovalStopsWhenADirectoryIsMovedFromItsParent(t *testing.T) {
	// The walk left a and entered b; a container moves b out of a: going back up through ".."
	// reaches the top, not a, and the walk stops there.
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	top := filepath.Join(dir, "top")
	require.NoError(t, os.MkdirAll(filepath.Join(top, "a", "b", "c"), 0o755))
	topFD, err := unix.Open(top, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	require.NoError(t, err)
	defer unix.Close(topFD)
	var st unix.Stat_t
	require.NoError(t, unix.Fstat(topFD, &st))
	w := &treeRemoval{l: New(), top: topFD, path: top, dev: uint64(st.Dev), cur: topFD, curIno: st.Ino}
	defer w.closeCur()
	for _, name := range []string{"a", "b"} {
		entered, err := w.down(name)
		require.NoError(t, err)
		require.True(t, entered)
	}

	require.NoError(t, os.Rename(filepath.Join(top, "a", "b"), filepath.Join(top, "b2")))
	err = w.up()
	require.ErrorIs(t, err, ErrUnexpectedFile)
	assert.EqualError(t, err, filepath.Join(top, "b2")+" was moved while it was removed: its parent is not the directory it was entered from")
	assert.DirExists(t, filepath.Join(top, "a"), "nothing is removed past the error")
}

func TestTreeRemovalDoesNotReenterADirectoryItFoundEmpty(t *testing.T) {
	// A directory whose listing was empty but that rmdir finds not empty (it was filled again
	// meanwhile, or its filesystem hides entries) is an error, not a directory to walk forever.
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "a"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a", "f"), nil, 0o644))
	topFD, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	require.NoError(t, err)
	defer unix.Close(topFD)
	var st, a unix.Stat_t
	require.NoError(t, unix.Fstat(topFD, &st))
	require.NoError(t, unix.Lstat(filepath.Join(dir, "a"), &a))
	w := &treeRemoval{l: New(), top: topFD, path: dir, dev: uint64(st.Dev), cur: topFD, curIno: st.Ino, left: a.Ino}
	defer w.closeCur()

	entered, err := w.remove("a")
	require.ErrorIs(t, err, unix.ENOTEMPTY)
	assert.False(t, entered)
	assert.EqualError(t, err, "remove "+filepath.Join(dir, "a")+": directory not empty")
}
