package subpath

import (
	"path/filepath"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/internal/keylock"
	"github.com/podconfig/podconfig/mounts"
)

// Linux is the subPath backend for Linux (kubelet: pkg/volume/util/subpath's subpath on Linux).
// It is safe for concurrent use. Build it with New.
type Linux struct {
	mounter    Mounter
	useOpenat2 bool
	// locks serialise work on one bind target, so two preparations of the same target never
	// interleave; podLocks serialise creating and removing the shared volume-subpaths
	// directories of one pod, taken after a target lock, never before.
	locks    keylock.Set
	podLocks keylock.Set
}

var _ mounts.Subpather = (*Linux)(nil)

// New returns the Linux backend (kubelet: subpath.New). Without options it checks and removes
// mount points with statx(2) and umount2(2), and resolves paths with openat2(2) when the kernel
// has it.
func New(opts ...Option) *Linux {
	c := newConfig(opts)
	l := &Linux{mounter: c.mounter, useOpenat2: !c.forceWalk && haveOpenat2()}
	if l.mounter == nil {
		l.mounter = newSysMounter()
	}
	return l
}

// haveOpenat2 probes the kernel once per backend; seccomp filters that answer EPERM or ENOSYS
// count as "absent" too.
func haveOpenat2() bool {
	fd, err := unix.Openat2(unix.AT_FDCWD, "/", &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_CLOEXEC | unix.O_DIRECTORY,
		Resolve: unix.RESOLVE_NO_SYMLINKS,
	})
	if err != nil {
		return false
	}
	_ = unix.Close(fd)
	return true
}

// lockFor returns the lock of a bind target, keyed by targetKey (or of another path, by its name).
func (l *Linux) lockFor(key string) *sync.Mutex {
	return l.locks.For(key)
}

func (l *Linux) podLockFor(podDir string) *sync.Mutex {
	return l.podLocks.For(filepath.Clean(podDir))
}

// dirKey identifies the directory open at fd by device and inode, so that two spellings of one
// directory (through a symlinked parent, with "//" or "/./") lock the same targets.
func dirKey(fd int) (string, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return "", err
	}
	return strconv.FormatUint(st.Dev, 16) + ":" + strconv.FormatUint(st.Ino, 16), nil
}

// podDirKey is dirKey of podDir, following symlinks as the kernel does; a pod directory that does
// not exist yet is keyed by its cleaned path.
func podDirKey(podDir string) string {
	fd, err := unix.Open(podDir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return filepath.Clean(podDir)
	}
	defer func() { _ = unix.Close(fd) }()
	key, err := dirKey(fd)
	if err != nil {
		return filepath.Clean(podDir)
	}
	return key
}

// targetKey is the lock key of the bind target volume/container/index below the pod directory
// whose identity is podKey.
func targetKey(podKey, volume, container, index string) string {
	return podKey + "/" + volume + "/" + container + "/" + index
}
