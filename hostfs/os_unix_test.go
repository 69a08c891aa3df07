//go:build unix

package hostfs_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/hostfs"
)

// TestOSWriteFileUnchanged: writing what a file already holds leaves it untouched (its change
// time stays), while a different content of any length rewrites it in place.
func TestOSWriteFileUnchanged(t *testing.T) {
	p := filepath.Join(t.TempDir(), "etc-hosts")
	require.NoError(t, hostfs.OS{}.WriteFile(p, []byte("127.0.0.1\tlocalhost\n"), 0o644))
	ctime := func() syscall.Timespec {
		fi, err := os.Stat(p)
		require.NoError(t, err)
		return fi.Sys().(*syscall.Stat_t).Ctim
	}
	before := ctime()
	time.Sleep(10 * time.Millisecond)
	require.NoError(t, hostfs.OS{}.WriteFile(p, []byte("127.0.0.1\tlocalhost\n"), 0o600))
	require.Equal(t, before, ctime(), "an unchanged file was written")

	for _, content := range []string{"127.0.0.1\tlocalhost\n10.0.0.1\tweb\n", "short\n", "", "127.0.0.1\tlocalhosT\n"} {
		require.NoError(t, hostfs.OS{}.WriteFile(p, []byte(content), 0o600))
		got, err := os.ReadFile(p)
		require.NoError(t, err)
		require.Equal(t, content, string(got))
	}
	fi, err := os.Stat(p)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o644), fi.Mode().Perm(), "perm applies only when the file is created")
}
