package blockdevtest_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/blockdev/blockdevtest"
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

	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			links.Add("/dev/d")
			_, _ = links.IsSymlinkExist("/dev/d")
		})
	}
	wg.Wait()
}
