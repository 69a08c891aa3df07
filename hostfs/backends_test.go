package hostfs_test

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/hostfs/hostfstest"
)

// backend is the whole method set both implementations promise.
type backend = hostfstest.FS

// step builds part of a case's starting tree. Paths are relative to the case's root; a symlink
// target starting with "ROOT/" is made absolute under that root.
type step struct {
	kind       byte // 'd' directory, 'f' file, 'l' symlink
	path, data string
	perm       fs.FileMode
	target     string
}

func dir(p string) step          { return step{kind: 'd', path: p, perm: 0o755} }
func file(p, data string) step   { return step{kind: 'f', path: p, data: data, perm: 0o644} }
func link(target, p string) step { return step{kind: 'l', path: p, target: target} }
func fileMode(p, data string, m fs.FileMode) step {
	return step{kind: 'f', path: p, data: data, perm: m}
}

// build creates the steps with exact modes (chmod after creating, so the umask does not matter).
func build(t *testing.T, fsys backend, root string, steps []step) {
	t.Helper()
	for _, s := range steps {
		p := root + "/" + s.path
		switch s.kind {
		case 'd':
			require.NoError(t, fsys.MkdirAll(p, s.perm))
			require.NoError(t, fsys.Chmod(p, s.perm))
		case 'f':
			require.NoError(t, fsys.WriteFile(p, []byte(s.data), s.perm))
			require.NoError(t, fsys.Chmod(p, s.perm))
		case 'l':
			require.NoError(t, fsys.Symlink(strings.Replace(s.target, "ROOT", root, 1), p))
		}
	}
}

// withBackends runs f against the OS backend in a temporary directory and against a Memory with the
// same layout, so the two can be held to the same expectations.
func withBackends(t *testing.T, f func(t *testing.T, fsys backend, root string)) {
	t.Run("OS", func(t *testing.T) { f(t, hostfs.OS{}, t.TempDir()) })
	t.Run("Memory", func(t *testing.T) {
		m := hostfs.NewMemory()
		require.NoError(t, m.MkdirAll("/tmp/case", 0o755))
		f(t, m, "/tmp/case")
	})
}

func describe(fi fs.FileInfo) string {
	return fmt.Sprintf("%s %s %d", fi.Name(), fi.Mode(), fi.Size())
}

func inode(t *testing.T, fsys backend, p string) uint64 {
	t.Helper()
	fi, err := fsys.Lstat(p)
	require.NoError(t, err)
	ino, ok := hostfs.Inode(fi)
	require.True(t, ok, "no inode in %T", fi.Sys())
	return ino
}

func chain(n int) []step {
	steps := []step{file("f", "end")}
	prev := "f"
	for i := range n {
		name := fmt.Sprintf("l%d", i)
		steps = append(steps, link(prev, name))
		prev = name
	}
	return steps
}

func TestBackendsAgree(t *testing.T) {
	tests := []struct {
		name    string
		setup   []step
		do      func(t *testing.T, fsys backend, root string) (string, error)
		want    string
		wantErr error
	}{
		{
			name:  "ReadFile follows a relative symlink",
			setup: []step{dir("a"), file("a/f", "hello"), link("a/f", "l")},
			do:    readFile("l"),
			want:  "hello",
		},
		{
			name:  "ReadFile follows an absolute symlink",
			setup: []step{dir("a"), file("a/f", "abs"), link("ROOT/a/f", "l")},
			do:    readFile("l"),
			want:  "abs",
		},
		{
			name:  "a relative symlink resolves from the link's directory",
			setup: []step{dir("a/b"), file("a/f", "up"), link("../f", "a/b/l")},
			do:    readFile("a/b/l"),
			want:  "up",
		},
		{
			name:  "a symlinked directory in the middle is followed",
			setup: []step{dir("a/b"), file("a/b/f", "deep"), link("a/b", "l")},
			do:    readFile("l/f"),
			want:  "deep",
		},
		{
			name:  "dot-dot after a symlinked directory is taken physically",
			setup: []step{dir("a/b"), file("a/f", "physical"), file("f", "lexical"), link("a/b", "l")},
			do:    readFile("l/../f"),
			want:  "physical",
		},
		{
			name:    "a missing file is ErrNotExist",
			do:      readFile("nope"),
			wantErr: fs.ErrNotExist,
		},
		{
			name:    "a missing directory in the middle is ErrNotExist",
			do:      readFile("nope/f"),
			wantErr: fs.ErrNotExist,
		},
		{
			name:    "a file in the middle is ENOTDIR",
			setup:   []step{file("f", "x")},
			do:      readFile("f/g"),
			wantErr: syscall.ENOTDIR,
		},
		{
			name:    "a trailing slash on a file is ENOTDIR",
			setup:   []step{file("f", "x")},
			do:      stat("f/"),
			wantErr: syscall.ENOTDIR,
		},
		{
			name:    "ReadFile of a directory is EISDIR",
			setup:   []step{dir("d")},
			do:      readFile("d"),
			wantErr: syscall.EISDIR,
		},
		{
			name:    "Stat of a dangling symlink is ErrNotExist",
			setup:   []step{link("nowhere", "l")},
			do:      stat("l"),
			wantErr: fs.ErrNotExist,
		},
		{
			name:  "Lstat of a dangling symlink describes the link",
			setup: []step{link("nowhere", "l")},
			do:    lstat("l"),
			want:  "l Lrwxrwxrwx 7",
		},
		{
			name:  "Stat follows a symlink and names the path given",
			setup: []step{fileMode("f", "12345", 0o600), link("f", "l")},
			do:    stat("l"),
			want:  "l -rw------- 5",
		},
		{
			name:  "Lstat with a trailing slash follows the link to a directory",
			setup: []step{dir("d"), link("d", "l")},
			do:    lstat("l/"),
			want:  "l drwxr-xr-x",
		},
		{
			name:    "a symlink loop is ELOOP",
			setup:   []step{link("l2", "l1"), link("l1", "l2")},
			do:      stat("l1"),
			wantErr: syscall.ELOOP,
		},
		{
			name:  "a chain of 40 symlinks resolves",
			setup: chain(40),
			do:    readFile("l39"),
			want:  "end",
		},
		{
			name:    "a chain of 41 symlinks is ELOOP",
			setup:   chain(41),
			do:      readFile("l40"),
			wantErr: syscall.ELOOP,
		},
		{
			name:  "Readlink returns the target as stored",
			setup: []step{link("../x/./y", "l")},
			do: func(t *testing.T, fsys backend, root string) (string, error) {
				return fsys.Readlink(root + "/l")
			},
			want: "../x/./y",
		},
		{
			name:  "Readlink of a regular file is EINVAL",
			setup: []step{file("f", "")},
			do: func(t *testing.T, fsys backend, root string) (string, error) {
				return fsys.Readlink(root + "/f")
			},
			wantErr: syscall.EINVAL,
		},
		{
			name: "WriteFile creates a file with perm",
			do: func(t *testing.T, fsys backend, root string) (string, error) {
				if err := fsys.WriteFile(root+"/new", []byte("abc"), 0o600); err != nil {
					return "", err
				}
				return statDesc(fsys, root+"/new")
			},
			want: "new -rw------- 3",
		},
		{
			name:  "WriteFile rewrites in place, keeping identity and mode",
			setup: []step{fileMode("f", "old contents", 0o640)},
			do: func(t *testing.T, fsys backend, root string) (string, error) {
				before := inode(t, fsys, root+"/f")
				if err := fsys.WriteFile(root+"/f", []byte("new"), 0o600); err != nil {
					return "", err
				}
				desc, err := statDesc(fsys, root+"/f")
				return fmt.Sprintf("%s same inode %t", desc, before == inode(t, fsys, root+"/f")), err
			},
			want: "f -rw-r----- 3 same inode true",
		},
		{
			name:  "WriteFile through a dangling symlink creates its target",
			setup: []step{dir("d"), link("d/target", "l")},
			do: func(t *testing.T, fsys backend, root string) (string, error) {
				if err := fsys.WriteFile(root+"/l", []byte("via link"), 0o600); err != nil {
					return "", err
				}
				return readFile("d/target")(t, fsys, root)
			},
			want: "via link",
		},
		{
			name:    "WriteFile on a directory is EISDIR",
			setup:   []step{dir("d")},
			do:      writeFile("d"),
			wantErr: syscall.EISDIR,
		},
		{
			name:    "WriteFile in a missing directory is ErrNotExist",
			do:      writeFile("nope/f"),
			wantErr: fs.ErrNotExist,
		},
		{
			name:    "WriteFile under a regular file is ENOTDIR",
			setup:   []step{file("f", "")},
			do:      writeFile("f/g"),
			wantErr: syscall.ENOTDIR,
		},
		{
			name:  "Create truncates an existing file in place",
			setup: []step{fileMode("f", "data", 0o600)},
			do: func(t *testing.T, fsys backend, root string) (string, error) {
				before := inode(t, fsys, root+"/f")
				if err := fsys.Create(root + "/f"); err != nil {
					return "", err
				}
				desc, err := statDesc(fsys, root+"/f")
				return fmt.Sprintf("%s same inode %t", desc, before == inode(t, fsys, root+"/f")), err
			},
			want: "f -rw------- 0 same inode true",
		},
		{
			name:    "Create on a directory is EISDIR",
			setup:   []step{dir("d")},
			do:      func(t *testing.T, fsys backend, root string) (string, error) { return "", fsys.Create(root + "/d") },
			wantErr: syscall.EISDIR,
		},
		{
			name:  "Chmod sets the exact mode",
			setup: []step{fileMode("f", "", 0o600)},
			do:    chmodThenLstat("f", "f", 0o755),
			want:  "f -rwxr-xr-x 0",
		},
		{
			name:  "Chmod follows a symlink and leaves the link alone",
			setup: []step{fileMode("f", "", 0o600), link("f", "l")},
			do: func(t *testing.T, fsys backend, root string) (string, error) {
				target, err := chmodThenLstat("l", "f", 0o644)(t, fsys, root)
				if err != nil {
					return "", err
				}
				l, err := lstat("l")(t, fsys, root)
				return target + ", " + l, err
			},
			want: "f -rw-r--r-- 0, l Lrwxrwxrwx 1",
		},
		{
			name:    "Chmod of a missing file is ErrNotExist",
			do:      chmodThenLstat("nope", "nope", 0o644),
			wantErr: fs.ErrNotExist,
		},
		{
			name: "MkdirAll creates every missing level with perm",
			do: func(t *testing.T, fsys backend, root string) (string, error) {
				if err := fsys.MkdirAll(root+"/a/b/c", 0o700); err != nil {
					return "", err
				}
				a, _ := lstat("a")(t, fsys, root)
				c, err := lstat("a/b/c")(t, fsys, root)
				return a[:len("a drwx------")] + ", " + c[:len("c drwx------")], err
			},
			want: "a drwx------, c drwx------",
		},
		{
			name:  "MkdirAll of an existing directory succeeds and keeps its mode",
			setup: []step{dir("d")},
			do:    mkdirAllThenLstat("d", "d"),
			want:  "d drwxr-xr-x",
		},
		{
			name:  "MkdirAll goes through a symlinked directory",
			setup: []step{dir("real"), link("real", "l")},
			do:    mkdirAllThenLstat("l/x/y", "real/x/y"),
			want:  "y drwx------",
		},
		{
			name:    "MkdirAll over a regular file is ENOTDIR",
			setup:   []step{file("f", "")},
			do:      mkdirAllThenLstat("f", "f"),
			wantErr: syscall.ENOTDIR,
		},
		{
			name:    "MkdirAll under a regular file is ENOTDIR",
			setup:   []step{file("f", "")},
			do:      mkdirAllThenLstat("f/x/y", "f"),
			wantErr: syscall.ENOTDIR,
		},
		{
			name:    "MkdirAll over a dangling symlink is ErrExist",
			setup:   []step{link("nowhere", "l")},
			do:      mkdirAllThenLstat("l", "l"),
			wantErr: fs.ErrExist,
		},
		{
			name:  "ReadDir lists sorted by name without following links",
			setup: []step{dir("d/sub"), file("d/b", "x"), link("sub", "d/a"), file("d/c.log", "")},
			do: func(t *testing.T, fsys backend, root string) (string, error) {
				entries, err := fsys.ReadDir(root + "/d")
				return describeEntries(entries), err
			},
			want: "a L---------, b ----------, c.log ----------, sub d---------",
		},
		{
			name:  "ReadDir follows a symlink to a directory",
			setup: []step{dir("d"), file("d/x", ""), link("d", "l")},
			do: func(t *testing.T, fsys backend, root string) (string, error) {
				entries, err := fsys.ReadDir(root + "/l")
				return describeEntries(entries), err
			},
			want: "x ----------",
		},
		{
			name:  "ReadDir of a regular file is ENOTDIR",
			setup: []step{file("f", "")},
			do: func(t *testing.T, fsys backend, root string) (string, error) {
				_, err := fsys.ReadDir(root + "/f")
				return "", err
			},
			wantErr: syscall.ENOTDIR,
		},
		{
			name:  "Open reads a file through a symlink",
			setup: []step{file("f", "opened"), link("f", "l")},
			do: func(t *testing.T, fsys backend, root string) (string, error) {
				f, err := fsys.Open(root + "/l")
				if err != nil {
					return "", err
				}
				defer f.Close()
				b, err := io.ReadAll(f)
				fi, serr := f.Stat()
				require.NoError(t, serr)
				return string(b) + " " + describe(fi), err
			},
			want: "opened l -rw-r--r-- 6",
		},
		{
			name:  "Open of a directory can list it",
			setup: []step{dir("d/e"), file("d/f", "")},
			do: func(t *testing.T, fsys backend, root string) (string, error) {
				f, err := fsys.Open(root + "/d")
				if err != nil {
					return "", err
				}
				defer f.Close()
				rd, ok := f.(fs.ReadDirFile)
				require.True(t, ok)
				first, err := rd.ReadDir(1)
				require.NoError(t, err)
				rest, err := rd.ReadDir(-1)
				require.NoError(t, err)
				_, eof := rd.ReadDir(1)
				return fmt.Sprintf("%d+%d %v", len(first), len(rest), eof), nil
			},
			want: "1+1 EOF",
		},
		{
			name: "Open of a missing file is ErrNotExist",
			do: func(t *testing.T, fsys backend, root string) (string, error) {
				_, err := fsys.Open(root + "/nope")
				return "", err
			},
			wantErr: fs.ErrNotExist,
		},
		{
			name:    "Symlink over an existing name is ErrExist",
			setup:   []step{file("f", "")},
			do:      func(t *testing.T, fsys backend, root string) (string, error) { return "", fsys.Symlink("x", root+"/f") },
			wantErr: fs.ErrExist,
		},
		{
			name:    "Symlink over a dangling symlink is ErrExist",
			setup:   []step{link("a", "l")},
			do:      func(t *testing.T, fsys backend, root string) (string, error) { return "", fsys.Symlink("x", root+"/l") },
			wantErr: fs.ErrExist,
		},
		{
			name:    "a NUL byte in a path is EINVAL",
			do:      readFile("a\x00b"),
			wantErr: syscall.EINVAL,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			withBackends(t, func(t *testing.T, fsys backend, root string) {
				build(t, fsys, root, tt.setup)
				got, err := tt.do(t, fsys, root)
				if tt.wantErr != nil {
					require.ErrorIs(t, err, tt.wantErr)
					var pe *fs.PathError
					var le *os.LinkError
					assert.True(t, errors.As(err, &pe) || errors.As(err, &le), "error type %T", err)
					return
				}
				require.NoError(t, err)
				assert.Equal(t, tt.want, got)
			})
		})
	}
}

func readFile(p string) func(*testing.T, backend, string) (string, error) {
	return func(_ *testing.T, fsys backend, root string) (string, error) {
		b, err := fsys.ReadFile(root + "/" + p)
		return string(b), err
	}
}

func writeFile(p string) func(*testing.T, backend, string) (string, error) {
	return func(_ *testing.T, fsys backend, root string) (string, error) {
		return "", fsys.WriteFile(root+"/"+p, []byte("x"), 0o600)
	}
}

func statDesc(fsys backend, p string) (string, error) {
	fi, err := fsys.Stat(p)
	if err != nil {
		return "", err
	}
	return describe(fi), nil
}

func stat(p string) func(*testing.T, backend, string) (string, error) {
	return func(_ *testing.T, fsys backend, root string) (string, error) {
		return statDesc(fsys, root+"/"+p)
	}
}

// lstat describes a path; directories leave out their size, which differs between backends.
func lstat(p string) func(*testing.T, backend, string) (string, error) {
	return func(_ *testing.T, fsys backend, root string) (string, error) {
		fi, err := fsys.Lstat(root + "/" + p)
		if err != nil {
			return "", err
		}
		if fi.IsDir() {
			return fmt.Sprintf("%s %s", fi.Name(), fi.Mode()), nil
		}
		return describe(fi), nil
	}
}

func chmodThenLstat(p, check string, perm fs.FileMode) func(*testing.T, backend, string) (string, error) {
	return func(t *testing.T, fsys backend, root string) (string, error) {
		if err := fsys.Chmod(root+"/"+p, perm); err != nil {
			return "", err
		}
		return lstat(check)(t, fsys, root)
	}
}

func mkdirAllThenLstat(p, check string) func(*testing.T, backend, string) (string, error) {
	return func(t *testing.T, fsys backend, root string) (string, error) {
		if err := fsys.MkdirAll(root+"/"+p, 0o700); err != nil {
			return "", err
		}
		return lstat(check)(t, fsys, root)
	}
}

func describeEntries(entries []fs.DirEntry) string {
	parts := make([]string, len(entries))
	for i, e := range entries {
		parts[i] = fmt.Sprintf("%s %s", e.Name(), e.Type())
	}
	return strings.Join(parts, ", ")
}
