package blockdevtest_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/blockdev/blockdevtest"
	"github.com/podconfig/podconfig/offline"
)

func TestSymlinks(t *testing.T) {
	links := blockdevtest.NewSymlinks("/dev/a")
	links.Add("/dev/b")
	broken := errors.New("input/output error")
	links.Fail("/dev/c", broken)

	for path, want := range map[string]bool{"/dev/a": true, "/dev/b": true, "/dev/missing": false} {
		got, err := links.IsSymlinkExist(path)
		require.NoError(t, err)
		assert.Equal(t, want, got, path)
	}
	_, err := links.IsSymlinkExist("/dev/c")
	assert.ErrorIs(t, err, broken, "an injected error is returned")

	shared := offline.NewBlockDevices()
	blockdevtest.WrapBlockDevices(shared).Add("/dev/e")
	got, err := shared.IsSymlinkExist("/dev/e")
	require.NoError(t, err)
	assert.True(t, got, "a wrapped offline BlockDevices shares its symlinks")

	var zero blockdevtest.Symlinks
	zero.Add("/dev/z")
	got, _ = zero.IsSymlinkExist("/dev/z")
	assert.True(t, got, "the zero value is ready to use")

	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			links.Add("/dev/d")
			_, _ = links.IsSymlinkExist("/dev/d")
		})
	}
	wg.Wait()
}
