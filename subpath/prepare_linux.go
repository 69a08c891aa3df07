package subpath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/mounts"
)

// PrepareSafeSubpath bind-mounts sp.Path onto
// <sp.PodDir>/volume-subpaths/<sp.VolumeName>/<sp.ContainerName>/<sp.VolumeMountIndex> and
// returns that path (kubelet: PrepareSafeSubpath / doBindSubPath).
//
// The subPath is resolved once, then opened below the volume without following any symlink
// (openat2 with RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS, or an O_NOFOLLOW|O_PATH walk on older
// kernels); the descriptor is held and /proc/self/fd/N is what gets bound with mount(2), so the
// mounted file is the one that was checked. A subPath that resolves outside the volume is an
// error matching ErrOutsideBase; a FIFO, socket or regular file in the middle of the path is an
// error, and a FIFO is only ever opened with O_PATH. Names that are not single path elements fail
// with ErrInvalidName before any path is built. sp.Path and sp.VolumePath must be absolute and
// free of NUL and invalid UTF-8, and sp.Path clean and inside sp.VolumePath; otherwise the error
// matches mounts.ErrInvalidSubPath. A path that is not clean is refused, not normalised as text:
// "l/../f" with l a symlink names something else once resolved.
//
// A target that is already a mount of the same file is reused; one of a different file is lazily
// unmounted and replaced; a corrupted one (ENOTCONN, ESTALE, EIO, EACCES, EHOSTDOWN, EWOULDBLOCK)
// is unmounted and replaced. The target is a 0750 directory for a directory and an empty 0640
// file otherwise, in 0750 parent directories. When a step fails, the mount and the directories
// this call made are removed again.
//
// The cleanup is never nil and undoes this preparation only: it unmounts the target and removes
// the target and the parent directories this call created, once they are empty. It is a no-op when
// the call failed or reused an existing mount. Call it when a later step of building the
// container's mounts fails; after the container was created, leave the mount in place: the
// container's next restart reuses it and CleanSubPaths removes it with the pod. The cleanup never
// deletes anything that is still mounted or not empty; such leftovers are for CleanSubPaths,
// which reports them.
func (l *Linux) PrepareSafeSubpath(sp mounts.Subpath) (string, func(), error) {
	noop := func() {}
	target, err := BindTarget(sp.PodDir, sp.VolumeName, sp.ContainerName, sp.VolumeMountIndex)
	if err != nil {
		return "", noop, err
	}
	if err := checkSubpathInputs(sp.Path, sp.VolumePath); err != nil {
		return "", noop, err
	}
	srcFD, src, err := l.openSubpath(sp.Path, sp.VolumePath)
	if err != nil {
		return "", noop, err
	}
	defer func() { _ = unix.Close(srcFD) }()

	// The lock is the target's identity, not its spelling: two paths to one pod directory
	// (a symlinked root directory, say) must not stack two mounts on one target.
	mu := l.lockFor(targetKey(podDirKey(sp.PodDir), sp.VolumeName, sp.ContainerName, strconv.Itoa(sp.VolumeMountIndex)))
	mu.Lock()
	defer mu.Unlock()

	reused, err := l.checkExistingMount(target, src)
	if err != nil {
		return "", noop, err
	}
	if reused {
		return target, noop, nil
	}
	var (
		created []string
		tgtFD   int
	)
	// Another process may remove a parent directory that looked reusable a moment ago (within
	// this backend the pod lock prevents it); making the target again then succeeds.
	for attempt := 0; ; attempt++ {
		podMu := l.podLockFor(sp.PodDir)
		podMu.Lock()
		created, tgtFD, err = l.prepareTarget(sp.PodDir, target, src.Mode&unix.S_IFMT == unix.S_IFDIR)
		podMu.Unlock()
		if err == nil {
			break
		}
		l.undo(sp.PodDir, target, created, false)
		if attempt == maxTargetAttempts-1 || !errors.Is(err, fs.ErrNotExist) {
			return "", noop, err
		}
	}
	err = unix.Mount(procFD(srcFD), procFD(tgtFD), "", unix.MS_BIND, "")
	_ = unix.Close(tgtFD)
	if err != nil {
		l.undo(sp.PodDir, target, created, false)
		return "", noop, fmt.Errorf("error mounting %s: %w", sp.Path, err)
	}
	var once sync.Once
	cleanup := func() {
		once.Do(func() {
			mu.Lock()
			defer mu.Unlock()
			if l.stillBinds(target, src) {
				l.undo(sp.PodDir, target, created, true)
			}
		})
	}
	return target, cleanup, nil
}

// stillBinds reports whether target is still a mount of the file src describes, so that the
// cleanup of a preparation whose mount was since replaced leaves the replacement alone.
func (l *Linux) stillBinds(target string, src *unix.Stat_t) bool {
	mounted, err := l.mounter.IsMountPoint(target)
	if err != nil || !mounted {
		return false
	}
	return sameFile(target, src)
}

// sameFile reports whether path (not followed if a symlink) is the file src describes.
func sameFile(path string, src *unix.Stat_t) bool {
	var st unix.Statx_t
	err := unix.Statx(unix.AT_FDCWD, path, unix.AT_SYMLINK_NOFOLLOW|unix.AT_NO_AUTOMOUNT, unix.STATX_INO, &st)
	return err == nil && st.Ino == src.Ino && unix.Mkdev(st.Dev_major, st.Dev_minor) == src.Dev
}

// maxTargetAttempts bounds how often PrepareSafeSubpath remakes a target whose parent directory
// was removed under it.
const maxTargetAttempts = 5

func procFD(fd int) string {
	return "/proc/self/fd/" + strconv.Itoa(fd)
}

// openSubpath opens path, which must lie in volumePath, without following a symlink below the
// volume once it has been resolved (kubelet: safeOpenSubPath). The common path without symlinks
// below the volume costs two system calls; any other path (symlinks to resolve, or an error to
// report) takes kubelet's route of resolving both paths first.
func (l *Linux) openSubpath(path, volumePath string) (int, *unix.Stat_t, error) {
	if fd, st, ok := l.openSubpathDirect(path, volumePath); ok {
		return fd, st, nil
	}
	realVolume, err := filepath.EvalSymlinks(volumePath)
	if err != nil {
		return -1, nil, fmt.Errorf("error resolving symlinks in %q: %w", volumePath, err)
	}
	realPath, err := filepath.EvalSymlinks(path)
	if err != nil {
		return -1, nil, fmt.Errorf("error resolving symlinks in %q: %w", path, err)
	}
	if !pathWithinBase(realPath, realVolume) {
		return -1, nil, &kindError{Kind: ErrOutsideBase, Msg: fmt.Sprintf("subpath %q not within volume path %q", realPath, realVolume)}
	}
	baseFD, err := openDir(realVolume)
	if err != nil {
		return -1, nil, fmt.Errorf("error opening subpath %v: %w", realPath, err)
	}
	defer func() { _ = unix.Close(baseFD) }()
	rel, err := filepath.Rel(realVolume, realPath)
	if err != nil {
		return -1, nil, fmt.Errorf("error opening subpath %v: %w", realPath, err)
	}
	fd, st, err := l.openBeneath(baseFD, realVolume, splitPath(rel), false)
	if err != nil {
		return -1, nil, fmt.Errorf("error opening subpath %v: %w", realPath, err)
	}
	return fd, st, nil
}

// openSubpathDirect opens the volume (following symlinks in the volume's own path, as resolving
// it would) and then path below it with no symlink allowed. It succeeds exactly when path has no
// symlink below the volume, and then opens what the resolving route would have opened.
func (l *Linux) openSubpathDirect(path, volumePath string) (int, *unix.Stat_t, bool) {
	path, volumePath = filepath.Clean(path), filepath.Clean(volumePath)
	if !filepath.IsAbs(path) || !pathWithinBase(path, volumePath) {
		return -1, nil, false
	}
	baseFD, err := unix.Open(volumePath, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, nil, false
	}
	defer func() { _ = unix.Close(baseFD) }()
	fd, st, err := l.openBeneath(baseFD, volumePath, splitPath(strings.TrimPrefix(path, volumePath)), false)
	if err != nil {
		return -1, nil, false
	}
	return fd, st, true
}

// checkExistingMount reports whether target already binds the file src describes. A mount of
// another file is lazily unmounted and a corrupted mount unmounted, so the caller mounts afresh.
func (l *Linux) checkExistingMount(target string, src *unix.Stat_t) (bool, error) {
	mounted, err := l.mounter.IsMountPoint(target)
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case isCorruptedMount(err):
		if uerr := l.mounter.Unmount(target); uerr != nil {
			return false, fmt.Errorf("error unmounting corrupted mount %s: %w", target, uerr)
		}
		return false, nil
	default:
		return false, fmt.Errorf("error checking path %s for mount: %w", target, err)
	}
	if !mounted {
		return false, nil
	}
	var st unix.Stat_t
	if err := unix.Lstat(target, &st); err != nil {
		return false, fmt.Errorf("error checking subpath mount info for %s: %w", target, &os.PathError{Op: "lstat", Path: target, Err: err})
	}
	if st.Dev == src.Dev && st.Ino == src.Ino {
		return true, nil
	}
	if err := unix.Unmount(target, unix.MNT_DETACH|unix.UMOUNT_NOFOLLOW); err != nil {
		return false, fmt.Errorf("error lazy-unmounting stale subpath mount %s: %w", target, err)
	}
	return false, nil
}
