package subpath

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// podVolumesDirName is the pod directory's "volumes" entry, where volume plugins keep their
// directories (<podDir>/volumes/<plugin>/<volume>).
const podVolumesDirName = "volumes"

// removeBatch is how many directory entries are read at a time while removing, so a directory a
// pod filled with millions of names is never listed into memory whole.
const removeBatch = 256

// RemoveAllOneFilesystem removes path and everything below it without crossing a mount point
// or following a symlink (kubelet: removeall.RemoveAllOneFilesystem, which does this by path).
//
// path itself is opened following symlinks, since the kubelet-style directories above it are
// trusted and may be reached through a symlinked root (/var/lib/kubelet -> /data/kubelet). Below
// it, the tree is walked through descriptors, one directory at a time: each directory is opened
// with O_NOFOLLOW relative to its parent, a symlink is unlinked and never followed, and every
// name is removed relative to its parent's descriptor; a directory is left for its parent through
// "..", which must be the directory it was entered from (same device and inode) or the walk stops
// with an error matching ErrUnexpectedFile. So a pod that swaps a directory for a symlink, or
// moves one, while the walk runs cannot make it delete anything elsewhere. The walk holds at most
// three descriptors and, per level, 8 bytes, whatever the depth: a tree of thousands of levels
// costs what a shallow one does. A directory that is the root of a mount is recognised by its
// device and inode (its device differs from the top's, or statx(2) reports it as a mount root,
// which also catches a bind mount from the same filesystem), never by comparing path strings,
// and a mount point fails to be removed (EBUSY): the walk stops there with an error matching
// ErrMountPoint and leaves it and its parents in place. It stops at the first error; what was
// removed before it stays removed. A path that does not exist is not an error.
func (l *Linux) RemoveAllOneFilesystem(path string) error {
	if path == "" {
		return &kindError{Kind: ErrInvalidName, Msg: "path must not be empty"}
	}
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		if err == unix.ENOENT {
			return nil
		}
		return &os.PathError{Op: "lstat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		// A file or a symlink: remove the name only.
		return removeName(unix.AT_FDCWD, path, path, &st)
	}
	dir, err := openDirFollow(path)
	if err != nil {
		return err
	}
	defer func() { _ = dir.Close() }()
	fd := int(dir.Fd())
	if err := l.checkNotMountRoot(fd, path, nil); err != nil {
		return err
	}
	if err := unix.Fstat(fd, &st); err != nil {
		return &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if err := l.emptyTree(fd, &st, path); err != nil {
		return err
	}
	if err := unix.Rmdir(path); err != nil && err != unix.ENOENT {
		return &os.PathError{Op: "remove", Path: path, Err: err}
	}
	return nil
}

// CleanupPodDir removes a pod's directory once the pod's containers are gone and its volumes are
// torn down, as kubelet's cleanupOrphanedPodDirs does for one orphaned pod:
//
//  1. every <podDir>/volumes/<plugin>/<volume> is removed with rmdir(2), so a volume that is
//     still mounted (EBUSY) or still has content (ENOTEMPTY) stays, with an error
//     (kubelet: removeOrphanedPodVolumeDirs);
//  2. every subPath bind target <podDir>/volume-subpaths/<volume>/<container>/<index> is removed
//     without recursion, so one still mounted (EBUSY: a process on the host holds it) stays, with
//     an error; call CleanSubPaths for each volume first to unmount them;
//  3. the emptied plugin, volume and container directories, "volumes" and "volume-subpaths" are
//     removed (kubelet: removeall.RemoveDirsOneFilesystem), then every other entry of the pod
//     directory with RemoveAllOneFilesystem, then the pod directory itself.
//
// Unlike kubelet, which collects the errors of step 1 and 2 and goes on with the rest, it stops
// at the first error and keeps the pod directory, so nothing below a mount it could not undo is
// ever walked. Every level below podDir is opened with O_NOFOLLOW relative to its parent, as
// RemoveAllOneFilesystem does; a symlink at the place of "volumes", "volume-subpaths" or any
// directory below them is an error matching ErrUnexpectedFile and is not followed. podDir itself
// may be reached through a symlink. A podDir that does not exist is not an error.
func (l *Linux) CleanupPodDir(podDir string) error {
	if podDir == "" {
		return &kindError{Kind: ErrInvalidName, Msg: "pod directory must not be empty"}
	}
	pod, err := openDirFollow(podDir)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return err
	}
	defer func() { _ = pod.Close() }()
	podFD := int(pod.Fd())
	if err := l.checkNotMountRoot(podFD, podDir, nil); err != nil {
		return err
	}
	// Steps 1 and 2: volumes/<plugin>/<volume> and volume-subpaths/<volume>/<container>/<index>,
	// the last level of each removed without recursion.
	for _, level := range []struct {
		top   string
		depth int
	}{{podVolumesDirName, 2}, {containerSubPathDirectoryName, 3}} {
		if err := l.removeLevels(podFD, level.top, filepath.Join(podDir, level.top), level.depth); err != nil {
			return fmt.Errorf("pod directory %s kept: %w", podDir, err)
		}
	}
	var podSt unix.Stat_t
	if err := unix.Fstat(podFD, &podSt); err != nil {
		return &os.PathError{Op: "stat", Path: podDir, Err: err}
	}
	err = l.forEachEntry(pod, podDir, func(name string) error {
		p := filepath.Join(podDir, name)
		if name == podVolumesDirName {
			// Never walked: step 1 removed it, so a pod's container made it since.
			return &kindError{Kind: ErrUnexpectedFile, Msg: fmt.Sprintf("%s was found after it was removed", p)}
		}
		return l.removeEntry(pod, &podSt, name, p)
	})
	if err != nil {
		return fmt.Errorf("pod directory %s kept: %w", podDir, err)
	}
	if err := unix.Rmdir(podDir); err != nil && err != unix.ENOENT {
		return &os.PathError{Op: "remove", Path: podDir, Err: err}
	}
	return nil
}

// removeLevels removes the tree below the pod directory's entry top that is depth levels deep:
// the entries at the last level without recursion, the directories above them once emptied, then
// top. path is <podDir>/<top>, for errors.
func (l *Linux) removeLevels(podFD int, top, path string, depth int) error {
	dir, err := openDirNoFollow(podFD, top, path)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return err
	}
	defer func() { _ = dir.Close() }()
	if err := l.removeBelow(dir, path, depth); err != nil {
		return err
	}
	if err := unix.Unlinkat(podFD, top, unix.AT_REMOVEDIR); err != nil && err != unix.ENOENT {
		return &os.PathError{Op: "remove", Path: path, Err: err}
	}
	return nil
}

// removeBelow removes the entries of the open directory dir, and at depth > 1 first what is
// below each of them, depth-1 levels down, opening each level with O_NOFOLLOW.
func (l *Linux) removeBelow(dir *os.File, path string, depth int) error {
	return l.forEachEntry(dir, path, func(name string) error {
		p := filepath.Join(path, name)
		if depth > 1 {
			child, err := openDirNoFollow(int(dir.Fd()), name, p)
			if errors.Is(err, unix.ENOENT) {
				return nil
			}
			if err != nil {
				return err
			}
			defer func() { _ = child.Close() }()
			if err := l.removeBelow(child, p, depth-1); err != nil {
				return err
			}
		}
		return l.removeEntryNoRecurse(dir, name, p)
	})
}

// removeEntryNoRecurse removes one name below dir: unlink for a file or symlink, rmdir for a
// directory, which fails on a mount point (EBUSY) and on a directory with content (ENOTEMPTY)
// rather than going into it. A subPath target whose bind mount was undone but whose placeholder
// directory holds a container's writes stays too.
func (l *Linux) removeEntryNoRecurse(dir *os.File, name, path string) error {
	var st unix.Stat_t
	if err := unix.Fstatat(int(dir.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		if err == unix.ENOENT {
			return nil
		}
		return &os.PathError{Op: "lstat", Path: path, Err: err}
	}
	return removeName(int(dir.Fd()), name, path, &st)
}

// removeEntry removes name below the open directory dir, whose stat is dirSt, and, for a
// directory, everything below it first (emptyTree); path is its full path, for errors.
func (l *Linux) removeEntry(dir *os.File, dirSt *unix.Stat_t, name, path string) error {
	var st unix.Stat_t
	if err := unix.Fstatat(int(dir.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		if err == unix.ENOENT {
			return nil
		}
		return &os.PathError{Op: "lstat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return removeName(int(dir.Fd()), name, path, &st)
	}
	child, err := openDirNoFollow(int(dir.Fd()), name, path)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return err
	}
	defer func() { _ = child.Close() }()
	childFD := int(child.Fd())
	if err := l.checkNotMountRoot(childFD, path, dirSt); err != nil {
		return err
	}
	if err := unix.Fstat(childFD, &st); err != nil {
		return &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if err := l.emptyTree(childFD, &st, path); err != nil {
		return err
	}
	if err := unix.Unlinkat(int(dir.Fd()), name, unix.AT_REMOVEDIR); err != nil && err != unix.ENOENT {
		return removeError(err, path)
	}
	return nil
}

// forEachEntry calls fn for the entries of the open directory dir, a batch at a time, and lists
// the directory again from its start until a pass finds nothing, so entries a removal made the
// listing skip are not missed. fn removes the entry it is given, or fails.
func (l *Linux) forEachEntry(dir *os.File, path string, fn func(name string) error) error {
	for {
		seen := 0
		for {
			names, err := dir.Readdirnames(removeBatch)
			for _, name := range names {
				seen++
				if err := fn(name); err != nil {
					return err
				}
			}
			if err == io.EOF || (err == nil && len(names) == 0) {
				break
			}
			if err != nil {
				return fmt.Errorf("error reading %s: %w", path, err)
			}
		}
		if seen == 0 {
			return nil
		}
		if _, err := dir.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("error reading %s: %w", path, err)
		}
	}
}

// checkNotMountRoot fails with ErrMountPoint when the open directory fd, at path, is the root
// of a mount: its device differs from parent's (when given), or isMountRoot says so.
func (l *Linux) checkNotMountRoot(fd int, path string, parent *unix.Stat_t) error {
	if parent != nil {
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			return &os.PathError{Op: "stat", Path: path, Err: err}
		}
		if st.Dev != parent.Dev {
			return mountPointError(nil, path)
		}
	}
	mounted, err := l.isMountRoot(fd)
	if err != nil {
		return pathError(err, procFD(fd), path)
	}
	if mounted {
		return mountPointError(nil, path)
	}
	return nil
}

// isMountRoot reports whether the open directory fd is the root of a mount: statx(2) on the
// descriptor says so or, on kernels without that attribute, the mounter does. Its errors name
// the descriptor's /proc/self/fd path; callers put the path they know in its place (pathError).
func (l *Linux) isMountRoot(fd int) (bool, error) {
	var stx unix.Statx_t
	if err := unix.Statx(fd, "", unix.AT_EMPTY_PATH|unix.AT_NO_AUTOMOUNT, unix.STATX_TYPE, &stx); err != nil {
		return false, &os.PathError{Op: "statx", Path: procFD(fd), Err: err}
	}
	if stx.Attributes_mask&unix.STATX_ATTR_MOUNT_ROOT != 0 {
		return stx.Attributes&unix.STATX_ATTR_MOUNT_ROOT != 0, nil
	}
	m := l.mounter
	if m == nil { // a Linux New did not build
		m = newSysMounter()
	}
	return m.IsMountPoint(procFD(fd))
}

// removeName removes the file, symlink or empty directory name below dirFD; st is its lstat.
func removeName(dirFD int, name, path string, st *unix.Stat_t) error {
	flags := 0
	if st.Mode&unix.S_IFMT == unix.S_IFDIR {
		flags = unix.AT_REMOVEDIR
	}
	if err := unix.Unlinkat(dirFD, name, flags); err != nil && err != unix.ENOENT {
		return removeError(err, path)
	}
	return nil
}

// removeError is the error of an unlink or rmdir of path that failed with err: one matching
// ErrMountPoint for EBUSY.
func removeError(err error, path string) error {
	return mountPointError(&os.PathError{Op: "remove", Path: path, Err: err}, path)
}

// mountPointError is the error for a mount point the removal found at path: cause, when it is
// EBUSY from unlink or rmdir, or a fresh one when the walk recognised the mount itself. Any other
// cause is returned as it is.
func mountPointError(cause error, path string) error {
	if cause != nil && !errors.Is(cause, unix.EBUSY) {
		return cause
	}
	if cause == nil {
		cause = unix.EBUSY
	}
	return &kindError{Kind: ErrMountPoint, Msg: fmt.Sprintf("cannot delete %s: it is a mount point", path), Cause: cause}
}

// openDirFollow opens path, a directory, for listing, following symlinks on the way as the
// kernel does: it is the trusted start of a walk.
func openDirFollow(path string) (*os.File, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}
