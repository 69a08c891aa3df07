//go:build linux

package configgen_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/hostfs/hostfstest"
	"github.com/podconfig/podconfig/mounts"
)

// TestFileKeyRefSymlinkSwapRace swaps a directory of the volume for a symlink to a host
// directory while the env file is read, over and over: no read may ever return the host file's
// value (kubelet's SecureJoin-then-open can). The safe open belongs to the file interface, so it
// holds for every backend that wraps the OS one: the default, a pointer to it and a test wrapper.
func TestFileKeyRefSymlinkSwapRace(t *testing.T) {
	backends := []struct {
		name  string
		files configgen.EnvFileFS
		calls int
	}{
		{"default backend", nil, 2000},
		{"pointer to hostfs.OS", &hostfs.OS{}, 2000},
		{"hostfstest wrapper around hostfs.OS", hostfstest.Wrap(hostfs.OS{}, hostfstest.Funcs{}), 20000},
	}
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			inside, outside := symlinkSwapRace(t, be.files, be.calls)
			require.Zero(t, outside, "reads of a file outside the volume in %d calls", be.calls)
			require.NotZero(t, inside, "the race never let a read through; the test proves nothing")
			t.Logf("%d calls: %d read inside the volume, %d outside", be.calls, inside, outside)
		})
	}
}

// symlinkSwapRace runs calls reads of vol/d/app.env through files while another goroutine swaps
// vol/d for a symlink to a host directory holding a file of the same name, and counts the values
// read from inside and from outside the volume.
func symlinkSwapRace(t *testing.T, files configgen.EnvFileFS, calls int) (inside, outside int) {
	root := t.TempDir()
	vol := filepath.Join(root, "vol")
	host := filepath.Join(root, "host")
	for dir, value := range map[string]string{filepath.Join(vol, "d"): "inside", filepath.Join(host, "d"): "outside"} {
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "app.env"), []byte("K='"+value+"'\n"), 0o644))
	}
	in := envInput(testPod(fileEnv("K", "vol", "d/app.env", "K", true)))
	in.Volumes = mounts.VolumeMap{"vol": {HostPath: vol}}
	in.Files = files
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
				_ = os.Symlink(filepath.Join(host, "d"), d)
				_ = os.Remove(d)
				_ = os.Rename(hidden, d)
			}
			// Leave the reader a moment with the real directory in place, so that some reads
			// succeed and show the test is not refusing everything.
			runtime.Gosched()
		}
	}()
	// On a busy machine the swapper may win every time; keep reading (up to twice as long)
	// until a read has come through.
	for i := 0; i < calls || (inside == 0 && i < 2*calls); i++ {
		got, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
		if err != nil {
			continue
		}
		for _, e := range got {
			switch e.Value {
			case "outside":
				outside++
			case "inside":
				inside++
			}
		}
	}
	close(stop)
	wg.Wait()
	if inside == 0 {
		// The swapper won every racing read (a loaded machine); with the directory back in
		// place, one read shows the reader is not refusing everything.
		got, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
		require.NoError(t, err)
		for _, e := range got {
			if e.Value == "inside" {
				inside++
			}
		}
	}
	return inside, outside
}
