//go:build linux

package configgen_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/mounts"
)

func TestFileKeyRefFIFODoesNotHang(t *testing.T) {
	_, vol := envFileVolume(t)
	require.NoError(t, unix.Mkfifo(filepath.Join(vol, "pipe.env"), 0o644))
	in := envInput(testPod(fileEnv("V", "vol", "pipe.env", "A", false)))
	in.Volumes = mounts.VolumeMap{"vol": {HostPath: vol}}

	done := make(chan error, 1)
	var warnings []configgen.Warning
	go func() {
		var err error
		_, warnings, err = configgen.MakeEnvironmentVariables(context.Background(), in)
		done <- err
	}()
	select {
	case err := <-done:
		require.EqualError(t, err, "couldn't parse env file")
		assert.Equal(t, []string{configgen.ReasonFailedToParseEnvFile}, reasons(warnings))
		assert.Equal(t, []string{`pod ns/web-0 container "app": env var "V": failed to parse env file: failed to open environment variable file "` +
			filepath.Join(vol, "pipe.env") + `": not a regular file (p---------)`}, messages(warnings))
	case <-time.After(5 * time.Second):
		t.Fatal("MakeEnvironmentVariables blocked on a FIFO")
	}
}
