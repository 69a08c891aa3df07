//go:build linux

package volumes

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A process with the volume's directory (a container with a writable view of it, or anything on
// the host) swaps the writer's directories for symlinks to a host directory while it writes, many
// hundreds of times: no write ever lands outside the volume.
func TestAtomicWriterSymlinkRace(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("run as root, as the writer runs")
	}
	dir := t.TempDir()
	outside := t.TempDir()
	fsys, err := OpenLinuxFS(dir)
	require.NoError(t, err)
	defer func() { _ = fsys.Close() }()

	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	var swaps atomic.Int64
	go func() {
		defer wg.Done()
		for !stop.Load() {
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				name := e.Name()
				if !strings.HasPrefix(name, "..2") || strings.HasSuffix(name, ".moved") {
					continue
				}
				ts := filepath.Join(dir, name)
				// Swap a directory inside the timestamped directory, and the directory itself.
				sub := filepath.Join(ts, "sub")
				if os.Rename(sub, sub+".moved") == nil && os.Symlink(outside, sub) == nil {
					swaps.Add(1)
				}
				if os.Rename(ts, ts+".moved") == nil && os.Symlink(outside, ts) == nil {
					swaps.Add(1)
				}
			}
			_ = os.Symlink(outside, filepath.Join(dir, "..data_tmp"))
		}
	}()

	w := NewAtomicWriter(fsys)
	for i := range 400 {
		p := Payload{
			{Path: "sub/deep/f", Data: []byte{byte(i)}, Mode: 0o644},
			{Path: "top", Data: []byte{byte(i)}, Mode: 0o644},
		}
		if err := w.Write(p, func(string) error { return ChangeOwnership(fsys, i64(4242), true) }); err != nil {
			// The write was refused; start over in an empty volume, as a teardown would.
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				_ = os.RemoveAll(filepath.Join(dir, e.Name()))
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("%d swaps", swaps.Load())
	assert.Greater(t, swaps.Load(), int64(50), "the race was run")

	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing was written through a planted symlink")
	fi, err := os.Stat(outside)
	require.NoError(t, err)
	assert.NotEqual(t, uint32(4242), fi.Sys().(*syscall.Stat_t).Gid, "the ownership pass never followed a link")
}
