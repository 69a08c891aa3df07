package volumes

import (
	"io/fs"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countingFS counts the calls that change the volume.
type countingFS struct {
	FS
	writes atomic.Int64
}

func (c *countingFS) Mkdir(name string, perm fs.FileMode) error {
	c.writes.Add(1)
	return c.FS.Mkdir(name, perm)
}
func (c *countingFS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	c.writes.Add(1)
	return c.FS.WriteFile(name, data, perm)
}
func (c *countingFS) Symlink(target, name string) error {
	c.writes.Add(1)
	return c.FS.Symlink(target, name)
}
func (c *countingFS) Rename(o, n string) error {
	c.writes.Add(1)
	return c.FS.Rename(o, n)
}
func (c *countingFS) Remove(name string) error {
	c.writes.Add(1)
	return c.FS.Remove(name)
}
func (c *countingFS) Lchown(name string, uid, gid int) error {
	c.writes.Add(1)
	return c.FS.Lchown(name, uid, gid)
}
func (c *countingFS) Chmod(name string, mode fs.FileMode) error {
	c.writes.Add(1)
	return c.FS.Chmod(name, mode)
}

// backends runs f on the in-memory FS and, as root on Linux, on a real directory.
func backends(t *testing.T, f func(t *testing.T, fsys FS)) {
	t.Run("memory", func(t *testing.T) { f(t, NewMemoryFS()) })
	t.Run("linux", func(t *testing.T) {
		fsys := linuxFS(t)
		if fsys == nil {
			t.Skip("the Linux FS needs Linux")
		}
		f(t, fsys)
	})
}

// tree lists the volume: "name mode [-> target] [data]", timestamped directories shown as ..TS.
func tree(t *testing.T, fsys FS) []string {
	t.Helper()
	var out []string
	var ts string
	if target, err := fsys.Readlink(dataDirName); err == nil {
		ts = target
	}
	var walk func(dir string)
	walk = func(dir string) {
		entries, err := fsys.ReadDir(dir)
		require.NoError(t, err)
		for _, e := range entries {
			name := e.Name()
			if dir != "." {
				name = dir + "/" + name
			}
			fi, err := fsys.Lstat(name)
			require.NoError(t, err)
			shown := name
			if ts != "" {
				shown = strings.ReplaceAll(name, ts, "..TS")
			}
			line := shown + " " + fi.Mode().String()
			switch {
			case fi.Mode()&fs.ModeSymlink != 0:
				target, err := fsys.Readlink(name)
				require.NoError(t, err)
				if ts != "" {
					target = strings.ReplaceAll(target, ts, "..TS")
				}
				line = shown + " -> " + target
			case fi.IsDir():
				out = append(out, line)
				walk(name)
				continue
			default:
				data, err := fsys.ReadFile(name)
				require.NoError(t, err)
				line += " " + string(data)
			}
			out = append(out, line)
		}
	}
	walk(".")
	sort.Strings(out)
	return out
}

func files(kv ...string) Payload {
	var p Payload
	for i := 0; i < len(kv); i += 2 {
		p = append(p, File{Path: kv[i], Data: []byte(kv[i+1]), Mode: 0o644})
	}
	return p
}

func TestAtomicWriterWrites(t *testing.T) {
	backends(t, func(t *testing.T, fsys FS) {
		w := NewAtomicWriter(fsys)
		w.now = func() time.Time { return time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC) }
		require.NoError(t, w.Write(files("token", "T1", "ca.crt", "CA", "sub/dir/f", "F"), nil))
		assert.Equal(t, []string{
			"..TS drwxr-xr-x",
			"..TS/ca.crt -rw-r--r-- CA",
			"..TS/sub drwxr-xr-x",
			"..TS/sub/dir drwxr-xr-x",
			"..TS/sub/dir/f -rw-r--r-- F",
			"..TS/token -rw-r--r-- T1",
			"..data -> ..TS",
			"ca.crt -> ..data/ca.crt",
			"sub -> ..data/sub",
			"token -> ..data/token",
		}, tree(t, fsys), "the first write makes the timestamped directory, ..data and one visible link per top-level name")
		ts, err := fsys.Readlink(dataDirName)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(ts, "..2026_03_14_09_26_53."), ts)

		counted := &countingFS{FS: fsys}
		require.NoError(t, NewAtomicWriter(counted).Write(files("token", "T1", "ca.crt", "CA", "sub/dir/f", "F"), func(string) error {
			t.Fatal("setPerms runs only when something is written")
			return nil
		}))
		assert.Zero(t, counted.writes.Load(), "an unchanged payload is not written")

		require.NoError(t, w.Write(files("token", "T2", "ca.crt", "CA"), nil))
		assert.Equal(t, []string{
			"..TS drwxr-xr-x",
			"..TS/ca.crt -rw-r--r-- CA",
			"..TS/token -rw-r--r-- T2",
			"..data -> ..TS",
			"ca.crt -> ..data/ca.crt",
			"token -> ..data/token",
		}, tree(t, fsys), "a change makes a new directory; names that left the payload and the old directory are removed")

		require.NoError(t, w.Write(nil, nil))
		assert.Equal(t, []string{"..TS drwxr-xr-x", "..data -> ..TS"}, tree(t, fsys), "an empty payload empties the volume")
	})
}

func TestAtomicWriterModesAndOwners(t *testing.T) {
	backends(t, func(t *testing.T, fsys FS) {
		p := Payload{{Path: "a", Data: []byte("x"), Mode: 0o400, Owner: i64(1234)}, {Path: "b", Data: []byte("y"), Mode: 0o777}}
		require.NoError(t, NewAtomicWriter(fsys).Write(p, func(string) error { return ChangeOwnership(fsys, i64(2000), true) }))
		assert.Equal(t, []string{"..TS dgrwxr-xr-x", "..TS/a -r--r----- x", "..TS/b -rwxrwxrwx y", "..data -> ..TS", "a -> ..data/a", "b -> ..data/b"}, tree(t, fsys))
		ts, err := fsys.Readlink(dataDirName)
		require.NoError(t, err)
		uid, gid := owner(t, fsys, ts+"/a")
		assert.Equal(t, []int{1234, 2000}, []int{uid, gid}, "the file's owner is its FsUser, its group the fsGroup")
		uid, _ = owner(t, fsys, "a")
		assert.Equal(t, 1234, uid, "the visible link is chowned to the file's owner too")
	})
}

func TestAtomicWriterRefusesTamperedVolume(t *testing.T) {
	backends(t, func(t *testing.T, fsys FS) {
		w := NewAtomicWriter(fsys)
		require.NoError(t, w.Write(files("a", "1"), nil))
		ts, err := fsys.Readlink(dataDirName)
		require.NoError(t, err)

		// A planted symlink in place of a directory inside the timestamped directory.
		require.NoError(t, fsys.Symlink("/", ts+"/evil"))
		require.NoError(t, w.Write(files("a", "1", "evil/x", "2"), nil), "a new timestamped directory never reuses the planted link")
		assert.Contains(t, tree(t, fsys), "..TS/evil/x -rw-r--r-- 2")

		// ..data pointed outside the volume is refused, never read or removed.
		require.NoError(t, fsys.Remove(dataDirName))
		require.NoError(t, fsys.Symlink("../../etc", dataDirName))
		err = w.Write(files("a", "2"), nil)
		require.Error(t, err)
		assert.Contains(t, err.Error(), `..data links to "../../etc"`)
	})
}

func TestAtomicWriterRefusesReservedNames(t *testing.T) {
	for _, path := range []string{"..data", "./..data", "..data_tmp", "..2026_01_01_00_00_00.1", "/abs", "a/../../b"} {
		t.Run(path, func(t *testing.T) {
			fsys := NewMemoryFS()
			err := NewAtomicWriter(fsys).Write(files(path, "x"), nil)
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), "invalid path: "), err.Error())
			entries, err := fsys.ReadDir(".")
			require.NoError(t, err)
			assert.Empty(t, entries, "nothing is written")
		})
	}
}

func TestAtomicWriterLeavesNothingOnFailure(t *testing.T) {
	fsys := &failingFS{FS: NewMemoryFS(), failWrite: "b"}
	err := NewAtomicWriter(fsys).Write(files("a", "1", "b", "2"), nil)
	require.ErrorIs(t, err, syscall.EIO)
	entries, err := fsys.ReadDir(".")
	require.NoError(t, err)
	assert.Empty(t, entries, "the new timestamped directory is removed")
}

type failingFS struct {
	FS
	failWrite string
}

func (f *failingFS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	if strings.HasSuffix(name, "/"+f.failWrite) {
		return &fs.PathError{Op: "write", Path: name, Err: syscall.EIO}
	}
	return f.FS.WriteFile(name, data, perm)
}
