package subpath

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

func TestMakeDirAtExistingFile(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x"), nil, 0o644))
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY, 0)
	require.NoError(t, err)
	defer unix.Close(fd)

	_, err = makeDirAt(fd, "x", filepath.Join(dir, "x"), 0o755)
	require.ErrorIs(t, err, os.ErrExist, "callers tell an existing path apart with errors.Is")
	assert.Equal(t, "cannot create directory "+filepath.Join(dir, "x")+": file exists", err.Error())
}

func TestMakeDirAtConcurrentDirectory(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "x"), 0o700))
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY, 0)
	require.NoError(t, err)
	defer unix.Close(fd)

	child, err := makeDirAt(fd, "x", filepath.Join(dir, "x"), 0o755)
	require.NoError(t, err, "a directory made meanwhile by someone else is used as is")
	defer unix.Close(child)
	fi, err := os.Stat(filepath.Join(dir, "x"))
	require.NoError(t, err)
	assert.Equal(t, os.ModeDir|0o700, fi.Mode(), "and its mode is not changed")
}

func TestIsCorruptedMount(t *testing.T) {
	for _, e := range []unix.Errno{unix.ENOTCONN, unix.ESTALE, unix.EIO, unix.EACCES, unix.EHOSTDOWN, unix.EWOULDBLOCK} {
		assert.True(t, isCorruptedMount(&os.PathError{Op: "statx", Path: "/x", Err: e}), e.Error())
	}
	assert.False(t, isCorruptedMount(&os.PathError{Op: "statx", Path: "/x", Err: unix.ENOENT}))
	assert.False(t, isCorruptedMount(nil))
}

func TestUndoRemovesOnlyWhatItCreated(t *testing.T) {
	dir := t.TempDir()
	created := []string{filepath.Join(dir, "volume-subpaths"), filepath.Join(dir, "volume-subpaths", "v"), filepath.Join(dir, "volume-subpaths", "v", "c")}
	for _, d := range created {
		require.NoError(t, os.Mkdir(d, 0o750))
	}
	target := filepath.Join(created[2], "0")
	require.NoError(t, os.Mkdir(target, 0o750))
	require.NoError(t, os.Mkdir(filepath.Join(created[1], "other-container"), 0o750))

	New().undo(dir, target, append(created, target), false)
	assert.NoDirExists(t, target)
	assert.NoDirExists(t, created[2])
	assert.DirExists(t, created[1], "a directory another container still uses stays")
	assert.DirExists(t, filepath.Join(created[1], "other-container"))
}

func TestUndoKeepsNonEmptyTargetFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "0")
	require.NoError(t, os.WriteFile(target, []byte("data"), 0o640))
	New().undo(dir, target, []string{target}, false)
	assert.FileExists(t, target, "a file with content is never a placeholder we made")
}
