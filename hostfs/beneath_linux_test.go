//go:build linux

package hostfs_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/hostfs"
)

// TestOpenBeneathFIFO: a FIFO is refused without being opened for reading, so it cannot block.
func TestOpenBeneathFIFO(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, unix.Mkfifo(filepath.Join(root, "pipe"), 0o644))
	done := make(chan error, 1)
	go func() {
		_, err := hostfs.OS{}.OpenBeneath(root, "pipe")
		done <- err
	}()
	select {
	case err := <-done:
		require.ErrorIs(t, err, hostfs.ErrNotRegular)
		require.EqualError(t, err, "open pipe: not a regular file (p---------)")
	case <-time.After(5 * time.Second):
		t.Fatal("OpenBeneath blocked on a FIFO")
	}
}
