package subpath_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/subpath"
)

// teardownFixture is a kubelet root reached through a symlink, as on nodes whose
// /var/lib/kubelet links to a data disk, with a pod directory and a host directory outside it.
type teardownFixture struct {
	realRoot, linkedRoot string
	podDir               string // through the symlinked root
	host                 string // a hostPath volume's directory on the host
}

func newTeardownFixture(t *testing.T) teardownFixture {
	requireRoot(t)
	root := testRoot(t)
	f := teardownFixture{realRoot: filepath.Join(root, "data", "kubelet"), linkedRoot: filepath.Join(root, "kubelet"), host: filepath.Join(root, "host")}
	mkdirs(t, f.realRoot, f.host)
	symlink(t, f.realRoot, f.linkedRoot)
	f.podDir = filepath.Join(f.linkedRoot, "pods", "uid")
	mkdirs(t, f.podDir)
	writeFile(t, filepath.Join(f.host, "precious"), "host data")
	return f
}

func bind(t *testing.T, source, target string) {
	t.Helper()
	require.NoError(t, unix.Mount(source, target, "", unix.MS_BIND, ""))
	t.Cleanup(func() { _ = unix.Unmount(target, unix.MNT_DETACH) })
}

func TestRemoveAllOneFilesystem(t *testing.T) {
	t.Run("a tree of files, directories and symlinks is removed, symlinks not followed", func(t *testing.T) {
		f := newTeardownFixture(t)
		dir := filepath.Join(f.podDir, "etc")
		writeFile(t, filepath.Join(dir, "a", "b", "c", "file"), "x")
		symlink(t, f.host, filepath.Join(dir, "a", "to-host-dir"))
		symlink(t, filepath.Join(f.host, "precious"), filepath.Join(dir, "a", "b", "to-host-file"))
		mkfifo(t, filepath.Join(dir, "fifo"))
		within(t, 5e9, func() { require.NoError(t, subpath.New().RemoveAllOneFilesystem(dir)) })
		assert.NoDirExists(t, dir)
		assert.FileExists(t, filepath.Join(f.host, "precious"))
	})
	t.Run("a bind mount from the same filesystem stops the walk and is kept with its parents", func(t *testing.T) {
		f := newTeardownFixture(t)
		dir := filepath.Join(f.podDir, "data")
		target := filepath.Join(dir, "sub", "mnt")
		mkdirs(t, target)
		writeFile(t, filepath.Join(dir, "before"), "x")
		bind(t, f.host, target)
		err := subpath.New().RemoveAllOneFilesystem(dir)
		require.ErrorIs(t, err, subpath.ErrMountPoint)
		assert.Contains(t, err.Error(), "cannot delete "+target+": it is a mount point")
		assert.FileExists(t, filepath.Join(f.host, "precious"))
		assert.DirExists(t, target)
	})
	t.Run("a tmpfs below stops the walk", func(t *testing.T) {
		f := newTeardownFixture(t)
		dir := filepath.Join(f.podDir, "data")
		target := filepath.Join(dir, "tmp")
		mkdirs(t, target)
		require.NoError(t, unix.Mount("tmpfs", target, "tmpfs", 0, "size=1m"))
		t.Cleanup(func() { _ = unix.Unmount(target, unix.MNT_DETACH) })
		writeFile(t, filepath.Join(target, "kept"), "x")
		require.ErrorIs(t, subpath.New().RemoveAllOneFilesystem(dir), subpath.ErrMountPoint)
		assert.FileExists(t, filepath.Join(target, "kept"))
	})
	t.Run("a bind-mounted file fails to unlink and stays", func(t *testing.T) {
		f := newTeardownFixture(t)
		dir := filepath.Join(f.podDir, "containers")
		target := filepath.Join(dir, "app", "termination-log")
		writeFile(t, target, "")
		bind(t, filepath.Join(f.host, "precious"), target)
		require.ErrorIs(t, subpath.New().RemoveAllOneFilesystem(dir), subpath.ErrMountPoint)
		assert.FileExists(t, filepath.Join(f.host, "precious"))
	})
	t.Run("the top directory being a mount point is an error and it stays", func(t *testing.T) {
		f := newTeardownFixture(t)
		dir := filepath.Join(f.podDir, "mnt")
		mkdirs(t, dir)
		bind(t, f.host, dir)
		require.ErrorIs(t, subpath.New().RemoveAllOneFilesystem(dir), subpath.ErrMountPoint)
		assert.FileExists(t, filepath.Join(f.host, "precious"))
	})
	t.Run("a missing path is not an error", func(t *testing.T) {
		f := newTeardownFixture(t)
		require.NoError(t, subpath.New().RemoveAllOneFilesystem(filepath.Join(f.podDir, "missing")))
	})
	t.Run("a directory of many entries is removed in batches", func(t *testing.T) {
		f := newTeardownFixture(t)
		dir := filepath.Join(f.podDir, "many")
		mkdirs(t, dir)
		for i := range 1000 {
			writeFile(t, filepath.Join(dir, "f"+string(rune('a'+i%26))+string(rune('a'+i/26))), "")
		}
		require.NoError(t, subpath.New().RemoveAllOneFilesystem(dir))
		assert.NoDirExists(t, dir)
	})
}

func TestCleanupPodDir(t *testing.T) {
	t.Run("a torn-down pod's directory is removed through a symlinked root", func(t *testing.T) {
		f := newTeardownFixture(t)
		mkdirs(t, filepath.Join(f.podDir, "volumes", "kubernetes.io~empty-dir", "cache"),
			filepath.Join(f.podDir, "volume-subpaths", "data", "app"),
			filepath.Join(f.podDir, "plugins"))
		writeFile(t, filepath.Join(f.podDir, "etc-hosts"), "127.0.0.1 localhost\n")
		writeFile(t, filepath.Join(f.podDir, "containers", "app", "0123"), "bye")
		symlink(t, f.host, filepath.Join(f.podDir, "containers", "app", "link"))
		require.NoError(t, subpath.New().CleanupPodDir(f.podDir))
		assert.NoDirExists(t, filepath.Join(f.realRoot, "pods", "uid"))
		assert.FileExists(t, filepath.Join(f.host, "precious"))
	})
	t.Run("a subPath bind that could not be unmounted keeps the pod directory and the host's files", func(t *testing.T) {
		// The bind target is what a failed CleanSubPaths leaves (EBUSY: a host process holds it);
		// the root is reached through a symlink, so mountinfo's paths would not match podDir.
		f := newTeardownFixture(t)
		target := filepath.Join(f.podDir, "volume-subpaths", "host", "app", "0")
		mkdirs(t, target)
		bind(t, f.host, target)
		writeFile(t, filepath.Join(f.podDir, "etc-hosts"), "")
		err := subpath.New().CleanupPodDir(f.podDir)
		require.ErrorIs(t, err, subpath.ErrMountPoint)
		assert.Contains(t, err.Error(), "pod directory "+f.podDir+" kept")
		assert.FileExists(t, filepath.Join(f.host, "precious"))
		assert.FileExists(t, filepath.Join(f.podDir, "etc-hosts"), "nothing is removed past the first error")
	})
	t.Run("a volume still mounted keeps the pod directory and the volume's content", func(t *testing.T) {
		f := newTeardownFixture(t)
		vol := filepath.Join(f.podDir, "volumes", "kubernetes.io~empty-dir", "mem")
		mkdirs(t, vol)
		bind(t, f.host, vol)
		require.ErrorIs(t, subpath.New().CleanupPodDir(f.podDir), subpath.ErrMountPoint)
		assert.FileExists(t, filepath.Join(f.host, "precious"))
	})
	t.Run("a volume directory with content is not removed recursively", func(t *testing.T) {
		f := newTeardownFixture(t)
		writeFile(t, filepath.Join(f.podDir, "volumes", "kubernetes.io~empty-dir", "cache", "data"), "x")
		err := subpath.New().CleanupPodDir(f.podDir)
		require.ErrorIs(t, err, unix.ENOTEMPTY)
		assert.FileExists(t, filepath.Join(f.podDir, "volumes", "kubernetes.io~empty-dir", "cache", "data"))
	})
	t.Run("symlinks at volumes and volume-subpaths levels are not followed", func(t *testing.T) {
		for _, link := range []string{
			"volumes",
			"volumes/kubernetes.io~empty-dir",
			"volume-subpaths",
			"volume-subpaths/data",
		} {
			t.Run(link, func(t *testing.T) {
				f := newTeardownFixture(t)
				mkdirs(t, filepath.Join(f.host, "kubernetes.io~empty-dir", "v"), filepath.Join(f.host, "app", "0"), filepath.Join(f.host, "data"))
				mkdirs(t, filepath.Dir(filepath.Join(f.podDir, link)))
				symlink(t, f.host, filepath.Join(f.podDir, link))
				err := subpath.New().CleanupPodDir(f.podDir)
				require.ErrorIs(t, err, subpath.ErrUnexpectedFile)
				assert.FileExists(t, filepath.Join(f.host, "precious"))
				assert.DirExists(t, filepath.Join(f.host, "kubernetes.io~empty-dir", "v"))
				assert.DirExists(t, filepath.Join(f.host, "app", "0"))
			})
		}
	})
	t.Run("a missing pod directory is not an error", func(t *testing.T) {
		f := newTeardownFixture(t)
		require.NoError(t, subpath.New().CleanupPodDir(filepath.Join(f.podDir, "..", "other")))
	})
	t.Run("an empty pod directory path is refused", func(t *testing.T) {
		require.ErrorIs(t, subpath.New().CleanupPodDir(""), subpath.ErrInvalidName)
		require.ErrorIs(t, subpath.New().RemoveAllOneFilesystem(""), subpath.ErrInvalidName)
	})
}

func TestRemoveAllOneFilesystemRaceWithSymlinkSwap(t *testing.T) {
	// A container swaps a directory of its volume for a symlink to the host, over and over,
	// while the volume is removed: whatever the timing, nothing outside the volume goes.
	root := testRoot(t)
	outside := filepath.Join(root, "outside")
	writeFile(t, filepath.Join(outside, "precious"), "host data")
	writeFile(t, filepath.Join(outside, "dir", "precious"), "host data")
	l := subpath.New()
	const rounds = 300
	var failed, swaps int
	for i := range rounds {
		vol := filepath.Join(root, fmt.Sprintf("vol%d", i))
		dir, link := filepath.Join(vol, "a"), filepath.Join(vol, "a.swap")
		writeFile(t, filepath.Join(dir, "file"), "x")
		writeFile(t, filepath.Join(dir, "dir", "file"), "x")
		symlink(t, outside, link)
		stop, done := make(chan struct{}), make(chan int)
		go func() {
			n := 0
			defer func() { done <- n }()
			for {
				select {
				case <-stop:
					return
				default:
				}
				// Fails once the removal has taken either name away.
				if unix.Renameat2(unix.AT_FDCWD, dir, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE) != nil {
					return
				}
				n++
			}
		}()
		if l.RemoveAllOneFilesystem(vol) != nil {
			failed++
		}
		close(stop)
		swaps += <-done
		require.FileExists(t, filepath.Join(outside, "precious"), "round %d", i)
		require.FileExists(t, filepath.Join(outside, "dir", "precious"), "round %d", i)
	}
	t.Logf("%d rounds, %d swaps, %d removals stopped at a swapped-in symlink", rounds, swaps, failed)
	assert.Positive(t, swaps, "the swapper must actually race")
}
