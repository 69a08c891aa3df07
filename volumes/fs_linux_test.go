//go:build linux

package volumes

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

func TestLinuxFSRewriteFile(t *testing.T) {
	for _, tc := range []struct {
		name    string
		plant   func(t *testing.T, dir, outside string)
		file    string
		wantErr string
	}{
		{"a missing file is created with exactly the mode, not less the umask", nil, "d/f", ""},
		{"an existing file is rewritten in place, cut to the new length", func(t *testing.T, dir, _ string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "d", "f"), []byte("a much longer old content"), 0o600))
		}, "d/f", ""},
		{"a symlink at the name is not followed", func(t *testing.T, dir, outside string) {
			require.NoError(t, os.Symlink(filepath.Join(outside, "host"), filepath.Join(dir, "d", "f")))
		}, "d/f", "open DIR/d/f: too many levels of symbolic links"},
		{"a symlink in the middle is not followed", func(t *testing.T, dir, outside string) {
			require.NoError(t, os.Symlink(outside, filepath.Join(dir, "link")))
		}, "link/host", "open DIR/link/host: too many levels of symbolic links"},
		{"a FIFO at the name is never opened", func(t *testing.T, dir, _ string) {
			require.NoError(t, unix.Mkfifo(filepath.Join(dir, "d", "f"), 0o644))
		}, "d/f", "open DIR/d/f: invalid argument"},
		{"a device at the name is never opened", func(t *testing.T, dir, _ string) {
			require.NoError(t, unix.Mknod(filepath.Join(dir, "d", "f"), unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))))
		}, "d/f", "open DIR/d/f: invalid argument"},
		{"a directory at the name is an error", func(t *testing.T, dir, _ string) {
			require.NoError(t, os.Mkdir(filepath.Join(dir, "d", "f"), 0o755))
		}, "d/f", "open DIR/d/f: is a directory"},
		{"a hard link to a file outside is not written through", func(t *testing.T, dir, outside string) {
			require.NoError(t, os.Link(filepath.Join(outside, "host"), filepath.Join(dir, "d", "f")))
		}, "d/f", "open DIR/d/f: too many links"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if os.Getuid() != 0 {
				t.Skip("making a device node needs root")
			}
			root := t.TempDir()
			dir, outside := filepath.Join(root, "dir"), filepath.Join(root, "outside")
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "d"), 0o755))
			require.NoError(t, os.MkdirAll(outside, 0o755))
			host := filepath.Join(outside, "host")
			require.NoError(t, os.WriteFile(host, []byte("host data"), 0o644))
			var before syscall.Stat_t
			if tc.plant != nil {
				tc.plant(t, dir, outside)
				require.NoError(t, syscall.Lstat(filepath.Join(dir, tc.file), &before))
			}
			l, err := OpenLinuxFS(dir)
			require.NoError(t, err)
			defer l.Close()
			done := make(chan error, 1)
			go func() { done <- l.RewriteFile(tc.file, []byte("new"), 0o666) }()
			select {
			case err = <-done:
			case <-time.After(time.Minute):
				t.Fatal("RewriteFile blocked (a FIFO was opened)")
			}

			data, rerr := os.ReadFile(host)
			require.NoError(t, rerr)
			assert.Equal(t, "host data", string(data), "nothing outside is written")
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Equal(t, tc.wantErr, strings.ReplaceAll(err.Error(), dir, "DIR"))
				return
			}
			require.NoError(t, err)
			p := filepath.Join(dir, tc.file)
			data, err = os.ReadFile(p)
			require.NoError(t, err)
			assert.Equal(t, "new", string(data))
			fi, err := os.Lstat(p)
			require.NoError(t, err)
			assert.Equal(t, fs.FileMode(0o666), fi.Mode())
			if tc.plant != nil {
				assert.Equal(t, before.Ino, fi.Sys().(*syscall.Stat_t).Ino, "the file keeps its inode")
			}
		})
	}
}

// Chmod and Lchown change no file that has another name: that name may be outside the
// directory (a hard link a container made to a host file). A single-linked file, a symlink
// itself and a directory are changed.
func TestLinuxFSChangesNoHardLinkedFile(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("changing a file's group needs root")
	}
	for _, tc := range []struct {
		name    string
		plant   func(t *testing.T, dir, outside string)
		wantErr string
		// want is the mode and group of the name after the calls.
		want string
	}{
		{"a hard link to a file outside is neither chmod'ed nor chown'ed", func(t *testing.T, dir, outside string) {
			require.NoError(t, os.Link(filepath.Join(outside, "host"), filepath.Join(dir, "f")))
		}, "chmod DIR/f: too many links; lchown DIR/f: too many links", "-rw------- 0"},
		{"a file with one name is chmod'ed and chown'ed", func(t *testing.T, dir, _ string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "f"), nil, 0o600))
		}, "", "-rw-r----- 4242"},
		{"a directory is chmod'ed and chown'ed", func(t *testing.T, dir, _ string) {
			require.NoError(t, os.Mkdir(filepath.Join(dir, "f"), 0o700))
		}, "", "drwxr-x--- 4242"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			dir, outside := filepath.Join(root, "dir"), filepath.Join(root, "outside")
			require.NoError(t, os.Mkdir(dir, 0o755))
			require.NoError(t, os.Mkdir(outside, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(outside, "host"), nil, 0o600))
			tc.plant(t, dir, outside)
			fsys, err := OpenLinuxFS(dir)
			require.NoError(t, err)
			defer fsys.Close()

			mode := fs.FileMode(0o640)
			if fi, err := os.Lstat(filepath.Join(dir, "f")); err == nil && fi.IsDir() {
				mode = 0o750
			}
			var errs []string
			for _, err := range []error{fsys.Chmod("f", mode), fsys.Lchown("f", -1, 4242)} {
				if err != nil {
					errs = append(errs, strings.ReplaceAll(err.Error(), dir, "DIR"))
				}
			}
			assert.Equal(t, tc.wantErr, strings.Join(errs, "; "))
			fi, err := os.Lstat(filepath.Join(dir, "f"))
			require.NoError(t, err)
			assert.Equal(t, tc.want, fmt.Sprintf("%v %d", fi.Mode(), fi.Sys().(*syscall.Stat_t).Gid))
			host, err := os.Lstat(filepath.Join(outside, "host"))
			require.NoError(t, err)
			assert.Equal(t, "-rw------- 0", fmt.Sprintf("%v %d", host.Mode(), host.Sys().(*syscall.Stat_t).Gid), "the file outside is unchanged")
		})
	}
}

// ReadFile opens a regular file only: a FIFO, a directory or a symlink is refused on a
// descriptor that opens nothing, so a writer blocked opening the FIFO stays blocked.
func TestLinuxFSReadFileOpensOnlyARegularFile(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "file"), []byte("data"), 0o600))
	require.NoError(t, unix.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "dir"), 0o755))
	require.NoError(t, os.Symlink("file", filepath.Join(dir, "link")))
	opened := make(chan struct{})
	go func() {
		if f, err := os.OpenFile(filepath.Join(dir, "fifo"), os.O_WRONLY, 0); err == nil {
			_ = f.Close()
		}
		close(opened)
	}()
	time.Sleep(100 * time.Millisecond) // the writer is blocked in open
	fsys, err := OpenLinuxFS(dir)
	require.NoError(t, err)
	defer fsys.Close()
	for _, tc := range []struct{ name, file, want, wantErr string }{
		{"a regular file is read", "file", "data", ""},
		{"a FIFO is refused, not opened", "fifo", "", "read DIR/fifo: invalid argument"},
		{"a directory is refused", "dir", "", "read DIR/dir: is a directory"},
		{"a symlink is not followed", "link", "", "open DIR/link: too many levels of symbolic links"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := fsys.ReadFile(tc.file)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Equal(t, tc.wantErr, strings.ReplaceAll(err.Error(), dir, "DIR"))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(data))
		})
	}
	select {
	case <-opened:
		t.Error("the FIFO was opened for reading")
	default:
		f, err := os.OpenFile(filepath.Join(dir, "fifo"), os.O_RDONLY|unix.O_NONBLOCK, 0)
		require.NoError(t, err)
		<-opened
		_ = f.Close()
	}
}

// A tree deeper than PATH_MAX, which a container can make in a volume with mkdir and chdir, is
// not walked: each level is resolved from the volume's root, so walking it cost the square of
// its depth in time and in the names held (20 s and 590 MB for 1,000 levels of 200 bytes). A
// name whose path would be PATH_MAX or longer fails as a path-based call (kubelet's) does.
func TestLinuxFSRefusesNamesPastPathMax(t *testing.T) {
	dir := t.TempDir()
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	require.NoError(t, err)
	elem := strings.Repeat("d", 200)
	for i := 0; i < 30; i++ {
		require.NoError(t, unix.Mkdirat(fd, elem, 0o755))
		next, err := unix.Openat(fd, elem, unix.O_RDONLY|unix.O_DIRECTORY, 0)
		require.NoError(t, err)
		require.NoError(t, unix.Close(fd))
		fd = next
	}
	require.NoError(t, unix.Close(fd))
	fsys, err := OpenLinuxFS(dir)
	require.NoError(t, err)
	defer fsys.Close()

	deep := strings.TrimSuffix(strings.Repeat(elem+"/", 30), "/")
	_, err = fsys.Lstat(deep)
	assert.ErrorIs(t, err, unix.ENAMETOOLONG, "a name past PATH_MAX")
	short := strings.TrimSuffix(strings.Repeat(elem+"/", (4096-len(dir)-1)/201), "/")
	_, err = fsys.Lstat(short)
	assert.NoError(t, err, "a name short of it")
	fsGroup := int64(4242)
	err = ChangeOwnership(fsys, &fsGroup, false)
	assert.ErrorIs(t, err, unix.ENAMETOOLONG, "the walk stops at PATH_MAX")
}
