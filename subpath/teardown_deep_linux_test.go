package subpath_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/subpath"
)

// The tree a container builds with `mkdir d; cd d` 4,000 times, with 200-byte names, in an
// emptyDir: it takes it a quarter of a second, and its path is 800 KB long.
const (
	deepLevels  = 4000
	deepNameLen = 200
)

// makeDeepTree makes levels nested directories below dir, each named with nameLen bytes, and a
// file in the deepest, through descriptors as the container does (the path is far longer than
// PATH_MAX, so no call can take it whole).
func makeDeepTree(tb testing.TB, dir string, levels, nameLen int) {
	tb.Helper()
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	require.NoError(tb, err)
	name := strings.Repeat("d", nameLen)
	for range levels {
		require.NoError(tb, unix.Mkdirat(fd, name, 0o755))
		next, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		require.NoError(tb, err)
		require.NoError(tb, unix.Close(fd))
		fd = next
	}
	f, err := unix.Openat(fd, "file", unix.O_WRONLY|unix.O_CREAT|unix.O_CLOEXEC, 0o644)
	require.NoError(tb, err)
	require.NoError(tb, unix.Close(f))
	require.NoError(tb, unix.Close(fd))
}

// usage is the process's resource usage so far.
func usage(tb testing.TB) unix.Rusage {
	tb.Helper()
	var ru unix.Rusage
	require.NoError(tb, unix.Getrusage(unix.RUSAGE_SELF, &ru))
	return ru
}

// cpuTime is the processor time, user and system, from one usage to another: on a machine
// shared with other work, what the removal itself costs.
func cpuTime(from, to unix.Rusage) time.Duration {
	return time.Duration(to.Utime.Nano()-from.Utime.Nano()) + time.Duration(to.Stime.Nano()-from.Stime.Nano())
}

// BenchmarkRemoveDeepTree removes the 4,000-level tree of 200-byte names with
// RemoveAllOneFilesystem and, for comparison, os.RemoveAll (which crosses mounts and holds a
// descriptor per level). Besides the wall time it reports the processor time the removals took
// (cpu-ns/op: on a machine shared with other work, what the removal itself costs), and the
// process's peak RSS after them (maxrss-MiB), which includes the test binary's own.
func BenchmarkRemoveDeepTree(b *testing.B) {
	requireRoot(b)
	l := subpath.New()
	for _, bc := range []struct {
		name   string
		remove func(string) error
	}{
		{"RemoveAllOneFilesystem", l.RemoveAllOneFilesystem},
		{"os.RemoveAll", os.RemoveAll},
	} {
		b.Run(bc.name, func(b *testing.B) {
			root := testRoot(b)
			b.ReportAllocs()
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				vol := filepath.Join(root, "vol")
				mkdirs(b, vol)
				makeDeepTree(b, vol, deepLevels, deepNameLen)
				start := usage(b)
				b.StartTimer()
				require.NoError(b, bc.remove(vol))
				b.StopTimer()
				cpu += cpuTime(start, usage(b))
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(usage(b).Maxrss)/1024, "maxrss-MiB")
		})
	}
}

func TestRemoveAllOneFilesystemDeepTree(t *testing.T) {
	requireRoot(t)
	root := testRoot(t)
	vol := filepath.Join(root, "vol")
	mkdirs(t, vol)
	makeDeepTree(t, vol, deepLevels, deepNameLen)

	// A walk that kept a descriptor per level would run out of them: allow a few more than the
	// process has open now.
	var lim unix.Rlimit
	require.NoError(t, unix.Prlimit(0, unix.RLIMIT_NOFILE, nil, &lim))
	entries, err := filepath.Glob("/proc/self/fd/*")
	require.NoError(t, err)
	low := lim
	low.Cur = uint64(len(entries) + 16)
	require.NoError(t, unix.Prlimit(0, unix.RLIMIT_NOFILE, &low, nil))

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start, ruStart := time.Now(), usage(t)
	err = subpath.New().RemoveAllOneFilesystem(vol)
	took, cpu := time.Since(start), cpuTime(ruStart, usage(t))
	runtime.ReadMemStats(&after)
	require.NoError(t, unix.Prlimit(0, unix.RLIMIT_NOFILE, &lim, nil))

	require.NoError(t, err, "4,000 levels are removed with a bounded number of descriptors")
	assert.NoDirExists(t, vol)
	allocated := after.TotalAlloc - before.TotalAlloc
	// Each name passes through a few system calls as a C string; nothing is kept per level but
	// an inode number. A walk that kept each level's path allocated 400 KiB per level here.
	assert.Less(t, allocated, uint64(deepLevels*4<<10), "what the walk allocates grows with the directories, not with their depth times their path")
	t.Logf("removed %d levels of %d-byte names in %v (%v of processor time), allocating %d KiB", deepLevels, deepNameLen, took, cpu, allocated>>10)
}

func TestRemoveAllOneFilesystemNamesWhatItStopsAtBeyondPathMax(t *testing.T) {
	// Past PATH_MAX the kernel cannot name the directory the walk is in: the error names the
	// entry and its depth below the top instead.
	requireRoot(t)
	root := testRoot(t)
	vol := filepath.Join(root, "vol")
	mkdirs(t, vol)
	const levels = 25 // 25 times 201 bytes: beyond PATH_MAX (4096)
	makeDeepTree(t, vol, levels, deepNameLen)
	fd, err := unix.Open(vol, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	require.NoError(t, err)
	name := strings.Repeat("d", deepNameLen)
	for range levels {
		next, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		require.NoError(t, err)
		require.NoError(t, unix.Close(fd))
		fd = next
	}
	require.NoError(t, unix.Mkdirat(fd, "mnt", 0o755))
	mnt, err := unix.Openat(fd, "mnt", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	require.NoError(t, err)
	require.NoError(t, unix.Close(fd))
	// The path is too long for mount(2): mount on the descriptor.
	target := "/proc/self/fd/" + strconv.Itoa(mnt)
	require.NoError(t, unix.Mount("tmpfs", target, "tmpfs", 0, "size=1m"))
	t.Cleanup(func() {
		assert.NoError(t, unix.Unmount(target, unix.MNT_DETACH))
		assert.NoError(t, unix.Close(mnt))
		assert.NoError(t, os.RemoveAll(vol))
	})

	err = subpath.New().RemoveAllOneFilesystem(vol)
	require.ErrorIs(t, err, subpath.ErrMountPoint)
	assert.EqualError(t, err, "cannot delete mnt, 26 levels below "+vol+": it is a mount point")
}

func TestRemoveAllOneFilesystemDeepRaceWithMoves(t *testing.T) {
	// Below the first level the walk goes back up through "..": a container that swaps a
	// directory of a deep tree for a symlink to the host, and moves a deeper one up to the top
	// and back, while the tree is removed, never makes it remove anything outside the volume.
	root := testRoot(t)
	outside := filepath.Join(root, "outside")
	writeFile(t, filepath.Join(outside, "precious"), "host data")
	writeFile(t, filepath.Join(outside, "dir", "precious"), "host data")
	l := subpath.New()
	const rounds = 100
	var failed, moves int
	for i := range rounds {
		vol := filepath.Join(root, fmt.Sprintf("vol%d", i))
		deep := vol
		var levels []string
		for _, name := range strings.Split("a/b/c/d/e/f/g/h", "/") {
			deep = filepath.Join(deep, name)
			levels = append(levels, deep)
			writeFile(t, filepath.Join(deep, "file"), "x")
		}
		link := filepath.Join(vol, "swap")
		symlink(t, outside, link)
		stop, done := make(chan struct{}), make(chan int)
		go func() {
			n := 0
			defer func() { done <- n }()
			moved := filepath.Join(vol, "moved")
			for {
				select {
				case <-stop:
					return
				default:
				}
				// Each fails once the removal has taken a name away.
				ok := unix.Renameat2(unix.AT_FDCWD, levels[2], unix.AT_FDCWD, link, unix.RENAME_EXCHANGE) == nil
				ok = unix.Renameat2(unix.AT_FDCWD, link, unix.AT_FDCWD, levels[2], unix.RENAME_EXCHANGE) == nil || ok
				ok = unix.Rename(levels[5], moved) == nil || ok
				ok = unix.Rename(moved, levels[5]) == nil || ok
				if !ok {
					return
				}
				n++
			}
		}()
		if l.RemoveAllOneFilesystem(vol) != nil {
			failed++
		}
		close(stop)
		moves += <-done
		require.FileExists(t, filepath.Join(outside, "precious"), "round %d", i)
		require.FileExists(t, filepath.Join(outside, "dir", "precious"), "round %d", i)
	}
	t.Logf("%d rounds, %d rounds of moves, %d removals stopped", rounds, moves, failed)
	assert.Positive(t, moves, "the mover must actually race")
}
