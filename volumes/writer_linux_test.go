//go:build linux

package volumes

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

func linuxFS(t *testing.T) FS {
	if os.Getuid() != 0 {
		t.Skip("the Linux FS tests chown: run as root")
	}
	l, err := OpenLinuxFS(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { _ = l.Close() })
	return l
}

func owner(t *testing.T, fsys FS, name string) (int, int) {
	t.Helper()
	if m, ok := fsys.(*MemoryFS); ok {
		uid, gid, err := m.Owner(name)
		require.NoError(t, err)
		return uid, gid
	}
	l := fsys.(*LinuxFS)
	var st unix.Stat_t
	require.NoError(t, unix.Lstat(l.full(name), &st))
	return int(st.Uid), int(st.Gid)
}
