package subpath_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/subpath"
)

// Race tests make at least raceIterations calls and keep going until the path was swapped at
// least raceIterations times and some call succeeded, up to raceMaxIterations calls.
const (
	raceIterations    = 1000
	raceMaxIterations = 50000
)

// raceDone reports whether a race test has run long enough.
func raceDone(calls, successes int, s *swapper) bool {
	if calls >= raceMaxIterations {
		return true
	}
	return calls >= raceIterations && successes > 0 && s.swaps.Load() >= raceIterations
}

// swapper exchanges dir and link (a symlink) with renameat2(RENAME_EXCHANGE) in a loop until
// stopped, so the path element dir is, at any moment, the real directory or a symlink out of
// the volume. It pauses a random moment after each swap so that windows of every length occur.
// stop leaves the real directory at dir and returns the number of swaps.
type swapper struct {
	dir, link string
	done      chan struct{}
	wg        sync.WaitGroup
	swaps     atomic.Int64
}

func startSwapper(t *testing.T, dir, link string) *swapper {
	s := &swapper{dir: dir, link: link, done: make(chan struct{})}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			select {
			case <-s.done:
				return
			default:
			}
			if err := unix.Renameat2(unix.AT_FDCWD, dir, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE); err != nil {
				t.Errorf("swap: %v", err)
				return
			}
			s.swaps.Add(1)
			for range rand.IntN(64) {
				runtime.Gosched()
			}
		}
	}()
	return s
}

func (s *swapper) stop(t *testing.T) int64 {
	close(s.done)
	s.wg.Wait()
	fi, err := os.Lstat(s.dir)
	require.NoError(t, err)
	if !fi.IsDir() {
		require.NoError(t, unix.Renameat2(unix.AT_FDCWD, s.dir, unix.AT_FDCWD, s.link, unix.RENAME_EXCHANGE))
	}
	return s.swaps.Load()
}

// raceTargets are the symlink targets swapped in: the host root and a sentinel directory
// outside the volume.
func raceTargets(root string) map[string]string {
	return map[string]string{"root": "/", "sentinel": filepath.Join(root, "outside")}
}

func TestSafeMakeDirRaceWithSymlinkSwap(t *testing.T) {
	for backend, opts := range backends() {
		for targetName := range raceTargets("") {
			t.Run(backend+"/swapping a path element for a symlink to "+targetName+" never creates outside the volume", func(t *testing.T) {
				root, vol, outside := safeMakeDirFixture(t)
				linkTarget := raceTargets(root)[targetName]
				unique := fmt.Sprintf("podconfig-race-%d", rand.Uint64())
				dir := filepath.Join(vol, "a")
				mkdirs(t, dir)
				symlink(t, linkTarget, filepath.Join(vol, "a.swap"))
				hostPath := filepath.Join("/", unique)
				t.Cleanup(func() { _ = os.RemoveAll(hostPath) })

				l := subpath.New(opts...)
				s := startSwapper(t, dir, filepath.Join(vol, "a.swap"))
				var ok []string
				calls := 0
				for ; !raceDone(calls, len(ok), s); calls++ {
					sub := filepath.Join("a", unique, fmt.Sprintf("d%d", calls))
					if l.SafeMakeDir(sub, vol, 0o755) == nil {
						ok = append(ok, sub)
					}
				}
				swaps := s.stop(t)
				t.Logf("%d of %d calls succeeded during %d swaps", len(ok), calls, swaps)
				assert.GreaterOrEqual(t, swaps, int64(raceIterations), "the swapper must actually race")
				assert.NotEmpty(t, ok, "some calls must succeed for the check to mean anything")

				for _, sub := range ok {
					real, err := filepath.EvalSymlinks(filepath.Join(vol, sub))
					require.NoError(t, err, "a success must have created its directory inside the volume")
					assert.True(t, filepath.Dir(filepath.Dir(real)) == dir, "%s resolved to %s", sub, real)
				}
				assert.NoDirExists(t, hostPath, "nothing may be created below /")
				assert.Empty(t, listTree(t, outside), "nothing may be created in the sentinel directory")
			})
		}
	}
}

func TestPrepareSafeSubpathRaceWithSymlinkSwap(t *testing.T) {
	for backend, opts := range backends() {
		for targetName := range raceTargets("") {
			t.Run(backend+"/swapping a path element for a symlink to "+targetName+" never binds outside the volume", func(t *testing.T) {
				f := newPodFixture(t)
				linkTarget := raceTargets(f.root)[targetName]
				dir := filepath.Join(f.vol, "a")
				writeFile(t, filepath.Join(dir, "etc", "marker"), "inside")
				writeFile(t, filepath.Join(f.outside, "etc", "marker"), "outside")
				symlink(t, linkTarget, filepath.Join(f.vol, "a.swap"))
				var want unix.Stat_t
				require.NoError(t, unix.Stat(filepath.Join(dir, "etc"), &want))

				l := subpath.New(opts...)
				s := startSwapper(t, dir, filepath.Join(f.vol, "a.swap"))
				succeeded, calls := 0, 0
				for ; !raceDone(calls, succeeded, s); calls++ {
					got, cleanup, err := l.PrepareSafeSubpath(f.subpath("a/etc", 0))
					if err != nil {
						continue
					}
					succeeded++
					var st unix.Stat_t
					require.NoError(t, unix.Stat(got, &st))
					if !assert.True(t, st.Dev == want.Dev && st.Ino == want.Ino, "bound something other than the volume's a/etc") {
						cleanup()
						break
					}
					cleanup()
				}
				swaps := s.stop(t)
				t.Logf("%d of %d calls succeeded during %d swaps", succeeded, calls, swaps)
				assert.GreaterOrEqual(t, swaps, int64(raceIterations), "the swapper must actually race")
				assert.Positive(t, succeeded, "some calls must succeed for the check to mean anything")
				assert.Empty(t, mountPointsUnder(t, f.podDir))
				assert.NoFileExists(t, filepath.Join(f.podDir, "volume-subpaths"))
			})
		}
	}
}
