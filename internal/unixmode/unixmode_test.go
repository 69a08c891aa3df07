//go:build unix

package unixmode_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/internal/unixmode"
)

func TestModesMatchTheOSPackage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		make func(path string) error
	}{
		{"a regular file with setuid and setgid", func(p string) error {
			if err := os.WriteFile(p, nil, 0o600); err != nil {
				return err
			}
			return os.Chmod(p, 0o755|fs.ModeSetuid|fs.ModeSetgid)
		}},
		{"a sticky directory", func(p string) error {
			if err := os.Mkdir(p, 0o700); err != nil {
				return err
			}
			return os.Chmod(p, 0o1777|fs.ModeSticky)
		}},
		{"a symlink", func(p string) error { return os.Symlink("target", p) }},
		{"a named pipe", func(p string) error { return syscall.Mkfifo(p, 0o640) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			require.NoError(t, tc.make(p))
			fi, err := os.Lstat(p)
			require.NoError(t, err)
			st := fi.Sys().(*syscall.Stat_t)
			assert.Equal(t, fi.Mode(), unixmode.ToFileMode(uint32(st.Mode)), "stat's mode as os reports it")
			assert.Equal(t, uint32(st.Mode)&0o7777, unixmode.FromFileMode(fi.Mode()), "the chmod bits round-trip")
		})
	}
}
