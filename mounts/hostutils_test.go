package mounts_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/mounts"
)

func TestOSHostUtils(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	require.NoError(t, os.Chmod(sub, fs.ModeSetgid|0o775))
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	require.NoError(t, os.Symlink(sub, filepath.Join(dir, "link")))
	require.NoError(t, os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "dangling")))
	hu := mounts.OSHostUtils{}

	cases := []struct {
		name    string
		path    string
		want    bool
		wantErr error
	}{
		{"directory exists", "sub", true, nil},
		{"symlink to a directory exists", "link", true, nil},
		{"dangling symlink does not exist", "dangling", false, nil},
		{"missing path does not exist", "missing", false, nil},
		{"path through a regular file is an error", "file/x", false, syscall.ENOTDIR},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := hu.PathExists(filepath.Join(dir, tc.path))
			if tc.wantErr != nil {
				assert.ErrorIs(t, err, tc.wantErr)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tc.want, got)
		})
	}

	t.Run("mode of the volume root keeps setgid, followed through a symlink", func(t *testing.T) {
		mode, err := hu.GetMode(filepath.Join(dir, "link"))
		require.NoError(t, err)
		assert.Equal(t, fs.ModeDir|fs.ModeSetgid|0o775, mode)
	})
	t.Run("mode of a missing path is an error", func(t *testing.T) {
		_, err := hu.GetMode(filepath.Join(dir, "missing"))
		assert.ErrorIs(t, err, fs.ErrNotExist)
	})
}
