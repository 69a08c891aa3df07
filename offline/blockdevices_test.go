package offline_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/offline"
)

func TestBlockDevices(t *testing.T) {
	devices := offline.NewBlockDevices("/dev/a")
	devices.Add("/dev/b")
	for _, tc := range []struct {
		name, path string
		want       bool
	}{
		{"a path given to NewBlockDevices exists", "/dev/a", true},
		{"an added path exists", "/dev/b", true},
		{"any other path does not, without an error", "/dev/missing", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := devices.IsSymlinkExist(tc.path)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	t.Run("the zero value holds none and takes additions", func(t *testing.T) {
		var zero offline.BlockDevices
		got, err := zero.IsSymlinkExist("/dev/a")
		require.NoError(t, err)
		assert.False(t, got)
		zero.Add("/dev/a")
		got, _ = zero.IsSymlinkExist("/dev/a")
		assert.True(t, got)
	})
	t.Run("concurrent additions and checks are safe", func(t *testing.T) {
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				devices.Add("/dev/d")
				_, _ = devices.IsSymlinkExist("/dev/d")
			})
		}
		wg.Wait()
		got, _ := devices.IsSymlinkExist("/dev/d")
		assert.True(t, got)
	})
}
