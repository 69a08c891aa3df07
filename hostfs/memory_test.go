package hostfs_test

import (
	"fmt"
	"io"
	"io/fs"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/hostfs"
)

func TestMemoryZeroValueHasARoot(t *testing.T) {
	var m hostfs.Memory
	fi, err := m.Stat("/")
	require.NoError(t, err)
	assert.Equal(t, fs.ModeDir|0o755, fi.Mode())
	require.NoError(t, m.WriteFile("/f", []byte("x"), 0o644))
}

func TestMemoryUsesNoUmask(t *testing.T) {
	m := hostfs.NewMemory()
	require.NoError(t, m.Create("/created"))
	require.NoError(t, m.WriteFile("/written", nil, 0o777))
	require.NoError(t, m.MkdirAll("/dir", 0o777))
	for p, want := range map[string]fs.FileMode{"/created": 0o666, "/written": 0o777, "/dir": fs.ModeDir | 0o777} {
		fi, err := m.Stat(p)
		require.NoError(t, err)
		assert.Equal(t, want, fi.Mode(), p)
	}
}

func TestMemoryIdentity(t *testing.T) {
	m := hostfs.NewMemory()
	require.NoError(t, m.WriteFile("/a", []byte("1"), 0o644))
	require.NoError(t, m.WriteFile("/b", []byte("1"), 0o644))
	ino := func(p string) uint64 {
		fi, err := m.Stat(p)
		require.NoError(t, err)
		st, ok := fi.Sys().(*hostfs.MemoryStat)
		require.True(t, ok)
		return st.Ino
	}
	a, b := ino("/a"), ino("/b")
	assert.NotEqual(t, a, b, "distinct files have distinct identities")
	require.NoError(t, m.WriteFile("/a", []byte("rewritten"), 0o600))
	assert.Equal(t, a, ino("/a"), "a rewrite keeps the identity")
}

func TestMemoryFileInfoIsASnapshot(t *testing.T) {
	m := hostfs.NewMemory()
	require.NoError(t, m.WriteFile("/f", []byte("12"), 0o644))
	fi, err := m.Stat("/f")
	require.NoError(t, err)
	require.NoError(t, m.WriteFile("/f", []byte("12345"), 0o644))
	require.NoError(t, m.Chmod("/f", 0o600))
	assert.Equal(t, int64(2), fi.Size())
	assert.Equal(t, fs.FileMode(0o644), fi.Mode())
	assert.True(t, fi.ModTime().IsZero())
}

// A FileInfo may be shared between lookups of an unchanged file, but it stays a snapshot: a
// change to the file, or to what one caller's Sys returned, never shows in another's.
func TestMemoryFileInfoSharedStaysASnapshot(t *testing.T) {
	m := hostfs.NewMemory()
	require.NoError(t, m.WriteFile("/f", []byte("12"), 0o644))
	first, err := m.Lstat("/f")
	require.NoError(t, err)
	again, err := m.Stat("/f")
	require.NoError(t, err)
	first.Sys().(*hostfs.MemoryStat).Ino = 999
	ino, ok := hostfs.Inode(again)
	require.True(t, ok)
	assert.NotEqual(t, uint64(999), ino, "Sys returns a copy")
	require.NoError(t, m.Chmod("/f", 0o600))
	after, err := m.Lstat("/f")
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o600), after.Mode())
	require.NoError(t, m.WriteFile("/f", []byte("12345"), 0o644))
	after, err = m.Lstat("/f")
	require.NoError(t, err)
	assert.Equal(t, int64(5), after.Size())
	assert.Equal(t, fs.FileMode(0o600), after.Mode(), "a rewrite keeps the mode")
	require.NoError(t, m.Create("/f"))
	after, err = m.Lstat("/f")
	require.NoError(t, err)
	assert.Equal(t, int64(0), after.Size())
	assert.Equal(t, int64(2), first.Size())
	assert.Equal(t, fs.FileMode(0o644), again.Mode())
	named, err := m.Stat("/./f")
	require.NoError(t, err)
	assert.Equal(t, "f", named.Name())
	require.NoError(t, m.Symlink("f", "/link"))
	viaLink, err := m.Stat("/link")
	require.NoError(t, err)
	assert.Equal(t, "link", viaLink.Name(), "a FileInfo is named as it was looked up")
	assert.Equal(t, "f", after.Name())
}

func TestMemoryOpenFile(t *testing.T) {
	m := hostfs.NewMemory()
	require.NoError(t, m.WriteFile("/f", []byte("before"), 0o644))
	f, err := m.Open("/f")
	require.NoError(t, err)
	require.NoError(t, m.WriteFile("/f", []byte("after!"), 0o644))
	b, err := io.ReadAll(f)
	require.NoError(t, err)
	assert.Equal(t, "after!", string(b), "reads see the current contents, as with a real file")
	require.NoError(t, f.Close())
	_, err = f.Read(make([]byte, 1))
	require.ErrorIs(t, err, fs.ErrClosed)
	require.ErrorIs(t, f.Close(), fs.ErrClosed)
}

func TestMemoryConcurrentUse(t *testing.T) {
	m := hostfs.NewMemory()
	require.NoError(t, m.MkdirAll("/pods", 0o755))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dir := fmt.Sprintf("/pods/p%d", i)
			for j := range 50 {
				assert.NoError(t, m.MkdirAll(dir, 0o755))
				assert.NoError(t, m.WriteFile(dir+"/etc-hosts", []byte{byte(j)}, 0o644))
				assert.NoError(t, m.Chmod(dir+"/etc-hosts", 0o644))
				_, err := m.ReadDir("/pods")
				assert.NoError(t, err)
				_, err = m.ReadFile(dir + "/etc-hosts")
				assert.NoError(t, err)
				fi, err := m.Lstat(dir + "/etc-hosts")
				if assert.NoError(t, err) {
					assert.Equal(t, int64(1), fi.Size())
				}
				_, err = m.Stat("/pods")
				assert.NoError(t, err)
				// A removal between lookups of the same path, with other goroutines looking up.
				assert.NoError(t, m.WriteFile(dir+"/tmp", nil, 0o600))
				_, err = m.Lstat(dir + "/tmp")
				assert.NoError(t, err)
				assert.NoError(t, m.Remove(dir+"/tmp"))
				_, err = m.Lstat(dir + "/tmp")
				assert.ErrorIs(t, err, fs.ErrNotExist)
			}
		}()
	}
	wg.Wait()
	entries, err := m.ReadDir("/pods")
	require.NoError(t, err)
	assert.Len(t, entries, 8)
}

// A path looked up before is found again as the tree is now: removing and recreating anything on
// its way, or making it a symlink, shows in the next lookup; a lookup that follows a final symlink
// never answers one that must not.
func TestMemoryLookupsSeeTheTreeAsItIsNow(t *testing.T) {
	m := hostfs.NewMemory()
	require.NoError(t, m.MkdirAll("/d1/sub", 0o755))
	require.NoError(t, m.MkdirAll("/d2/sub", 0o700))
	require.NoError(t, m.WriteFile("/d1/f", []byte("one"), 0o644))
	require.NoError(t, m.WriteFile("/d2/f", []byte("two"), 0o644))
	require.NoError(t, m.Symlink("/d1", "/l"))

	read := func(p string) string {
		b, err := m.ReadFile(p)
		require.NoError(t, err, p)
		return string(b)
	}
	mode := func(p string, lstat bool) fs.FileMode {
		fi, err := m.Stat(p)
		if lstat {
			fi, err = m.Lstat(p)
		}
		require.NoError(t, err, p)
		return fi.Mode()
	}

	assert.Equal(t, "one", read("/l/f"))
	assert.Equal(t, fs.ModeDir|0o755, mode("/l", false))
	assert.Equal(t, fs.ModeSymlink|0o777, mode("/l", true), "a stat through the final link does not answer lstat")
	assert.Equal(t, fs.ModeDir|0o755, mode("/l/sub", true))

	require.NoError(t, m.Remove("/l"))
	require.NoError(t, m.Symlink("/d2", "/l"))
	assert.Equal(t, "two", read("/l/f"), "a symlink on the way replaced")
	assert.Equal(t, fs.ModeDir|0o700, mode("/l/sub", true))

	require.NoError(t, m.Remove("/d2/sub"))
	_, err := m.Lstat("/l/sub")
	require.ErrorIs(t, err, fs.ErrNotExist, "a removed directory")
	require.NoError(t, m.Symlink("/d1/sub", "/d2/sub"))
	assert.Equal(t, fs.ModeSymlink|0o777, mode("/l/sub", true), "a directory replaced by a symlink")
	require.NoError(t, m.MkdirAll("/l/sub", 0o700), "MkdirAll follows the new symlink to a directory")
	require.NoError(t, m.Remove("/d2/sub"))
	require.NoError(t, m.WriteFile("/d2/sub", []byte("file"), 0o600))
	require.ErrorIs(t, m.MkdirAll("/l/sub", 0o700), syscall.ENOTDIR, "a directory replaced by a file")
	require.ErrorIs(t, m.WriteFile("/l/sub/", nil, 0o600), syscall.EISDIR, "an open for writing with a trailing slash")

	require.NoError(t, m.MkdirAll("/e", 0o755))
	require.NoError(t, m.Chmod("/e/", 0o711))
	require.ErrorIs(t, m.WriteFile("/e", nil, 0o600), syscall.EISDIR)
	require.ErrorIs(t, m.WriteFile("/e/", nil, 0o600), syscall.EISDIR)
	assert.Equal(t, fs.ModeDir|0o711, mode("/e", true))
	_, err = m.Lstat("")
	require.ErrorIs(t, err, fs.ErrNotExist)
	require.ErrorIs(t, m.WriteFile("", nil, 0o600), fs.ErrNotExist)
}

// Remove follows os.Remove on Linux for paths that end in ".", ".." or a symlink and a "/".
func TestMemoryRemoveLikeLinux(t *testing.T) {
	m := hostfs.NewMemory()
	require.NoError(t, m.MkdirAll("/d/empty", 0o755))
	require.NoError(t, m.Symlink("/d/empty", "/link"))
	for _, tc := range []struct {
		path string
		want syscall.Errno
	}{
		{"/d/empty/.", syscall.EINVAL},
		{"/d/empty/..", syscall.ENOTEMPTY},
		{"/", syscall.EBUSY},
		{"/link/", syscall.ENOTDIR},
	} {
		err := m.Remove(tc.path)
		require.ErrorIs(t, err, tc.want, tc.path)
		assert.Equal(t, "remove "+tc.path+": "+tc.want.Error(), err.Error())
	}
	_, err := m.Lstat("/d/empty")
	require.NoError(t, err, "the link's target stays")
	require.NoError(t, m.Remove("/link"))
	require.NoError(t, m.Remove("/d/empty/"))
}

// Many paths are each found as they are, and rewrites and chmods show at once.
func TestMemoryManyPaths(t *testing.T) {
	m := hostfs.NewMemory()
	for i := range 700 {
		require.NoError(t, m.WriteFile(fmt.Sprintf("/f%d", i), make([]byte, i), 0o644))
	}
	for range 2 {
		for i := range 700 {
			fi, err := m.Lstat(fmt.Sprintf("/f%d", i))
			require.NoError(t, err)
			require.Equal(t, int64(i), fi.Size())
			require.Equal(t, fmt.Sprintf("f%d", i), fi.Name())
		}
	}
	require.NoError(t, m.Chmod("/f1", 0o644), "a chmod that changes nothing")
	require.NoError(t, m.WriteFile("/f1", []byte("y"), 0o600), "a rewrite of the same size")
	fi, err := m.Stat("/f1")
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o644), fi.Mode())
	assert.Equal(t, int64(1), fi.Size())
	require.NoError(t, m.Chmod("/f1", 0o600))
	fi, err = m.Stat("/f1")
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o600), fi.Mode())
}

// Directory entries read as fs.FileInfoToDirEntry's of the file's FileInfo.
func TestMemoryDirEntries(t *testing.T) {
	m := hostfs.NewMemory()
	require.NoError(t, m.MkdirAll("/d/sub", 0o750))
	require.NoError(t, m.WriteFile("/d/f", []byte("abc"), 0o640))
	require.NoError(t, m.Symlink("f", "/d/l"))
	entries, err := m.ReadDir("/d")
	require.NoError(t, err)
	var got []string
	for _, e := range entries {
		fi, err := e.Info()
		require.NoError(t, err)
		want := fs.FileInfoToDirEntry(fi)
		assert.Equal(t, want.Name(), e.Name())
		assert.Equal(t, want.IsDir(), e.IsDir())
		assert.Equal(t, want.Type(), e.Type())
		got = append(got, fmt.Sprint(e))
	}
	assert.Equal(t, []string{"- f", "L l", "d sub/"}, got)
}
