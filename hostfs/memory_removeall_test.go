package hostfs_test

import (
	"io/fs"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/hostfs"
)

func TestMemoryRemoveAll(t *testing.T) {
	tests := []struct {
		name    string
		remove  string
		wantErr error
		gone    []string
		kept    []string
	}{
		{name: "a tree", remove: "/pod", gone: []string{"/pod", "/pod/a/b/file", "/pod/link"}, kept: []string{"/outside/secret"}},
		{name: "a missing path is no error", remove: "/nothing/here", kept: []string{"/pod/a/b/file", "/outside/secret"}},
		{name: "a final symlink is removed, not followed", remove: "/pod/link", gone: []string{"/pod/link"}, kept: []string{"/outside/secret", "/pod/a/b/file"}},
		{name: "a symlink among the parents is followed, as by os.RemoveAll", remove: "/pod/link/secret", gone: []string{"/outside/secret"}, kept: []string{"/pod/link", "/outside"}},
		{name: "the root itself is refused after its contents", remove: "/", wantErr: syscall.EBUSY, gone: []string{"/pod", "/outside"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := hostfs.NewMemory()
			require.NoError(t, m.MkdirAll("/pod/a/b", 0o755))
			require.NoError(t, m.MkdirAll("/outside", 0o755))
			require.NoError(t, m.WriteFile("/pod/a/b/file", []byte("x"), 0o644))
			require.NoError(t, m.WriteFile("/outside/secret", []byte("s"), 0o600))
			require.NoError(t, m.Symlink("/outside", "/pod/link"))

			err := m.RemoveAll(tt.remove)
			if tt.wantErr != nil {
				assert.ErrorIs(t, err, tt.wantErr)
			} else {
				assert.NoError(t, err)
			}
			for _, p := range tt.gone {
				_, err := m.Lstat(p)
				assert.ErrorIs(t, err, fs.ErrNotExist, p)
			}
			for _, p := range tt.kept {
				_, err := m.Lstat(p)
				assert.NoError(t, err, p)
			}
		})
	}
}
