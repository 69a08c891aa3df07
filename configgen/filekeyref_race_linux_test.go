package configgen_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/mounts"
)

// TestFileKeyRefSymlinkSwapRace swaps a directory of the volume for a symlink to a host
// directory while the env file is read, over and over: no read may ever return the host file's
// value (kubelet's SecureJoin-then-open can).
func TestFileKeyRefSymlinkSwapRace(t *testing.T) {
	root := t.TempDir()
	vol := filepath.Join(root, "vol")
	outside := filepath.Join(root, "host")
	for dir, value := range map[string]string{filepath.Join(vol, "d"): "inside", filepath.Join(outside, "d"): "outside"} {
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "app.env"), []byte("K='"+value+"'\n"), 0o644))
	}
	in := envInput(testPod(fileEnv("K", "vol", "d/app.env", "K", true)))
	in.Volumes = mounts.VolumeMap{"vol": {HostPath: vol}}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		d, hidden := filepath.Join(vol, "d"), filepath.Join(vol, "d.real")
		for {
			select {
			case <-stop:
				return
			default:
			}
			if os.Rename(d, hidden) == nil {
				_ = os.Symlink(filepath.Join(outside, "d"), d)
				_ = os.Remove(d)
				_ = os.Rename(hidden, d)
			}
		}
	}()
	seenInside := false
	for range 2000 {
		got, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
		if err != nil {
			continue
		}
		for _, e := range got {
			require.NotEqual(t, "outside", e.Value, "read a file outside the volume")
			seenInside = seenInside || e.Value == "inside"
		}
	}
	close(stop)
	wg.Wait()
	require.True(t, seenInside, "the race never let a read through; the test proves nothing")
}
