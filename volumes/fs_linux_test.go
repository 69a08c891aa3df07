//go:build linux

package volumes

import (
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
