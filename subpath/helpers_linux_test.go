package subpath_test

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/subpath"
)

// requireRoot skips tests that mount when they cannot.
func requireRoot(t testing.TB) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("skipping: bind mounts need root (run the tests as root, as CI does)")
	}
}

// backends lists the two path resolvers every behaviour test runs against.
func backends() map[string][]subpath.Option {
	return map[string][]subpath.Option{
		"openat2": nil,
		"walk":    {subpath.WithoutOpenat2()},
	}
}

// testRoot returns a fresh symlink-free temporary directory for one test and guards the mount
// table: when the test ends, any mount left below the directory is detached (so removing the
// directory can never reach through a bind mount into someone's data) and reported, and
// /proc/self/mountinfo must be as it was. Mounts below the system temp dir that belong to other
// tests running on the host at the same time are ignored.
func testRoot(t testing.TB) string {
	t.Helper()
	before := mountinfo(t, "")
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() {
		var leaked []string
		for _, mp := range mountPointsUnder(t, dir) {
			leaked = append(leaked, mp)
			_ = unix.Unmount(mp, unix.MNT_DETACH)
		}
		if len(leaked) > 0 {
			t.Errorf("mounts left behind: %v", leaked)
		}
		require.Equal(t, before, mountinfo(t, dir), "/proc/self/mountinfo changed")
	})
	return dir
}

// mountinfo returns the mount table, one line per mount, sorted, without mount points below the
// system temp dir other than those below own.
func mountinfo(t testing.TB, own string) []string {
	t.Helper()
	f, err := os.Open("/proc/self/mountinfo")
	require.NoError(t, err)
	defer f.Close()
	tmp := filepath.Clean(os.TempDir()) + "/"
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		mp := fields[4]
		if strings.HasPrefix(mp, tmp) && (own == "" || !strings.HasPrefix(mp+"/", own+"/")) {
			continue
		}
		lines = append(lines, sc.Text())
	}
	require.NoError(t, sc.Err())
	sort.Strings(lines)
	return lines
}

// mountPointsUnder lists mount points at or below dir, deepest first.
func mountPointsUnder(t testing.TB, dir string) []string {
	t.Helper()
	data, err := os.ReadFile("/proc/self/mountinfo")
	require.NoError(t, err)
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		if len(fields) > 4 && strings.HasPrefix(fields[4]+"/", dir+"/") {
			out = append(out, fields[4])
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(out)))
	return out
}

// mountCount returns how many mounts sit exactly on path.
func mountCount(t testing.TB, path string) int {
	t.Helper()
	n := 0
	for _, mp := range mountPointsUnder(t, path) {
		if mp == path {
			n++
		}
	}
	return n
}

// within fails the test if fn does not return in time: a FIFO opened for reading would hang.
func within(t testing.TB, d time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("call did not return within %v (a FIFO was opened?)", d)
	}
}

func mkdirs(t testing.TB, paths ...string) {
	t.Helper()
	for _, p := range paths {
		require.NoError(t, os.MkdirAll(p, 0o755))
	}
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

func symlink(t testing.TB, target, link string) {
	t.Helper()
	require.NoError(t, os.Symlink(target, link))
}

func mkfifo(t testing.TB, path string) {
	t.Helper()
	require.NoError(t, unix.Mkfifo(path, 0o644))
}

// mksock creates a bound unix socket file at path.
func mksock(t testing.TB, path string) {
	t.Helper()
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	require.NoError(t, err)
	defer unix.Close(fd)
	require.NoError(t, unix.Bind(fd, &unix.SockaddrUnix{Name: path}))
}

// listTree returns every path below dir, relative to it, sorted.
func listTree(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	require.NoError(t, err)
	return out
}
