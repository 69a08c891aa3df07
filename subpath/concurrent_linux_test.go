package subpath_test

import (
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/subpath"
)

func TestConcurrentUse(t *testing.T) {
	t.Run("concurrent preparations of one pod's mounts all succeed and all clean up", func(t *testing.T) {
		f := newPodFixture(t)
		l := subpath.New()
		const workers = 8
		var wg sync.WaitGroup
		errs := make([]error, workers)
		for i := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 200 {
					got, cleanup, err := l.PrepareSafeSubpath(f.subpath("dir", i))
					if err != nil {
						errs[i] = err
						return
					}
					if got != f.target(strconv.Itoa(i)) {
						errs[i] = assert.AnError
					}
					cleanup()
				}
			}()
		}
		wg.Wait()
		for _, err := range errs {
			require.NoError(t, err)
		}
		assert.Empty(t, mountPointsUnder(t, f.podDir))
	})
	t.Run("concurrent preparations of the same target mount it once", func(t *testing.T) {
		f := newPodFixture(t)
		l := subpath.New()
		const workers = 8
		var wg sync.WaitGroup
		errs := make([]error, workers)
		for i := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _, errs[i] = l.PrepareSafeSubpath(f.subpath("dir", 0))
			}()
		}
		wg.Wait()
		for _, err := range errs {
			require.NoError(t, err)
		}
		assert.Equal(t, 1, mountCount(t, f.target("0")))
		require.NoError(t, l.CleanSubPaths(f.podDir, "data"))
		assert.NoFileExists(t, filepath.Join(f.podDir, "volume-subpaths"))
	})
}
