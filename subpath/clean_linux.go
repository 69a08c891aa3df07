package subpath

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"golang.org/x/sys/unix"
)

// CleanSubPaths unmounts and removes every bind target PrepareSafeSubpath made for volumeName in
// podDir, then the emptied <podDir>/volume-subpaths/<volumeName> and, when empty,
// <podDir>/volume-subpaths (kubelet: CleanSubPaths / doCleanSubPaths). It stops at the first error.
//
// Only the first level below each container directory is treated as a bind target. Nothing is
// removed recursively: a target still mounted after the unmount is an error
// ("failed to cleanup mount point <path>") and stays, and a directory that is not empty stays.
//
// Unlike kubelet, it works through file descriptors: volume-subpaths, the volume's directory and
// each container directory are opened with O_NOFOLLOW, one level relative to the one above, and
// every check, unmount and removal names its file relative to its parent's descriptor. A symlink in
// place of any of these directories is an error matching ErrUnexpectedFile and is not followed, so
// a pod that turns a level into a symlink (before or during the call) cannot make it unmount or
// delete anything outside the pod directory. A symlink in place of a bind target is removed as a
// link, never followed. A volumeName that is not a single path element fails with ErrInvalidName
// before anything is touched. Containers are cleaned in name order and targets in name order
// within them.
func (l *Linux) CleanSubPaths(podDir, volumeName string) error {
	if podDir == "" {
		return &kindError{Kind: ErrInvalidName, Msg: "pod directory must not be empty"}
	}
	if err := ValidateName("volume name", volumeName); err != nil {
		return err
	}
	// The pod directory itself may sit below a symlinked root directory, as kubelet's may.
	podFD, err := unix.Open(podDir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err == unix.ENOENT {
		return nil
	}
	if err != nil {
		return fmt.Errorf("error reading %s: %w", podDir, &os.PathError{Op: "open", Path: podDir, Err: err})
	}
	defer func() { _ = unix.Close(podFD) }()
	podKey, err := dirKey(podFD)
	if err != nil {
		return fmt.Errorf("error reading %s: %w", podDir, err)
	}
	top := filepath.Join(podDir, containerSubPathDirectoryName)
	topDir, err := openDirNoFollow(podFD, containerSubPathDirectoryName, top)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return err
	}
	defer func() { _ = topDir.Close() }()
	subPathDir := filepath.Join(top, volumeName)
	volDir, err := openDirNoFollow(int(topDir.Fd()), volumeName, subPathDir)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return err
	}
	defer func() { _ = volDir.Close() }()

	entries, err := readDirSorted(volDir, subPathDir)
	if err != nil {
		return err
	}
	volFD := int(volDir.Fd())
	for _, e := range entries {
		if e.Type()&os.ModeSymlink != 0 {
			return &kindError{Kind: ErrUnexpectedFile, Msg: fmt.Sprintf("unexpected symlink found %s", filepath.Join(subPathDir, e.Name())), Cause: unix.ELOOP}
		}
		if !e.IsDir() {
			continue
		}
		ctrPath := filepath.Join(subPathDir, e.Name())
		if err := l.cleanContainerDir(podKey, volFD, e.Name(), ctrPath, volumeName); err != nil {
			return err
		}
		if err := l.removeSharedDirAt(podDir, volFD, e.Name()); err != nil {
			return fmt.Errorf("error deleting %s: %w", ctrPath, &os.PathError{Op: "remove", Path: ctrPath, Err: err})
		}
	}
	podMu := l.podLockFor(podDir)
	podMu.Lock()
	defer podMu.Unlock()
	if err := unix.Unlinkat(int(topDir.Fd()), volumeName, unix.AT_REMOVEDIR); err != nil {
		return fmt.Errorf("error deleting %s: %w", subPathDir, &os.PathError{Op: "remove", Path: subPathDir, Err: err})
	}
	err = unix.Unlinkat(podFD, containerSubPathDirectoryName, unix.AT_REMOVEDIR)
	if err != nil && err != unix.EEXIST && err != unix.ENOTEMPTY {
		return fmt.Errorf("error deleting %s: %w", top, &os.PathError{Op: "remove", Path: top, Err: err})
	}
	return nil
}

// openDirNoFollow opens the directory name below dirFD for listing, refusing a symlink or anything
// but a directory there with ErrUnexpectedFile. path is its full path, for errors.
func openDirNoFollow(dirFD int, name, path string) (*os.File, error) {
	fd, err := unix.Openat(dirFD, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	switch err {
	case nil:
		return os.NewFile(uintptr(fd), path), nil
	case unix.ELOOP, unix.ENOTDIR:
		var st unix.Stat_t
		if unix.Fstatat(dirFD, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
			return nil, &kindError{Kind: ErrUnexpectedFile, Msg: fmt.Sprintf("unexpected symlink found %s", path), Cause: unix.ELOOP}
		}
		return nil, &kindError{Kind: ErrUnexpectedFile, Msg: fmt.Sprintf("%s is not a directory", path), Cause: unix.ENOTDIR}
	}
	return nil, fmt.Errorf("error reading %s: %w", path, &os.PathError{Op: "open", Path: path, Err: err})
}

// readDirSorted lists an open directory sorted by name.
func readDirSorted(dir *os.File, path string) ([]os.DirEntry, error) {
	entries, err := dir.ReadDir(-1)
	if err != nil {
		return nil, fmt.Errorf("error reading %s: %w", path, err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	return entries, nil
}

// removeSharedDirAt removes the empty directory name below dirFD under the pod's lock, so that a
// concurrent PrepareSafeSubpath never sees a parent it opened disappear.
func (l *Linux) removeSharedDirAt(podDir string, dirFD int, name string) error {
	podMu := l.podLockFor(podDir)
	podMu.Lock()
	defer podMu.Unlock()
	return unix.Unlinkat(dirFD, name, unix.AT_REMOVEDIR)
}

func (l *Linux) cleanContainerDir(podKey string, volFD int, name, ctrPath, volumeName string) error {
	ctrDir, err := openDirNoFollow(volFD, name, ctrPath)
	if err != nil {
		return fmt.Errorf("error processing %s: %w", ctrPath, err)
	}
	defer func() { _ = ctrDir.Close() }()
	entries, err := readDirSorted(ctrDir, ctrPath)
	if err != nil {
		return fmt.Errorf("error processing %s: %w", ctrPath, err)
	}
	for _, e := range entries {
		p := filepath.Join(ctrPath, e.Name())
		key := targetKey(podKey, volumeName, name, e.Name())
		if err := l.cleanupMountPointAt(key, int(ctrDir.Fd()), e.Name(), p); err != nil {
			return fmt.Errorf("error cleaning subpath mount %s: %w", p, err)
		}
	}
	return nil
}

// cleanupMountPointAt unmounts the target name below the container directory dirFD if it is a
// mount point and removes it (mount-utils: CleanupMountPoint with the extensive check),
// non-recursively. The mounter is given /proc/self/fd/<dirFD>/<name>: the directory is the one
// opened without following symlinks, and the mounter does not follow the final name. path is the
// target's path, for errors. It holds the target's lock, so a concurrent PrepareSafeSubpath of the
// same target waits.
func (l *Linux) cleanupMountPointAt(key string, dirFD int, name, path string) error {
	mu := l.lockFor(key)
	mu.Lock()
	defer mu.Unlock()
	at := procFD(dirFD) + "/" + name
	var st unix.Stat_t
	err := unix.Fstatat(dirFD, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	switch {
	case err == unix.ENOENT:
		return nil
	case err != nil && isCorruptedMount(err):
		if err := l.mounter.Unmount(at); err != nil {
			return pathError(err, at, path)
		}
		return removePlaceholderNamed(dirFD, name)
	case err != nil:
		return fmt.Errorf("error checking path: %w", &os.PathError{Op: "lstat", Path: path, Err: err})
	case st.Mode&unix.S_IFMT == unix.S_IFLNK:
		return unix.Unlinkat(dirFD, name, 0)
	}
	mounted, err := l.mounter.IsMountPoint(at)
	if err != nil {
		if !isCorruptedMount(err) {
			return pathError(err, at, path)
		}
		mounted = true
	}
	if mounted {
		if err := l.mounter.Unmount(at); err != nil {
			return pathError(err, at, path)
		}
		if mounted, err = l.mounter.IsMountPoint(at); err != nil {
			return pathError(err, at, path)
		}
		if mounted {
			return fmt.Errorf("failed to cleanup mount point %v", path)
		}
	}
	return removePlaceholderNamed(dirFD, name)
}

// removePlaceholderNamed is removePlaceholderAt for name below dirFD, looked at afresh: it may
// have been unmounted since it was last examined.
func removePlaceholderNamed(dirFD int, name string) error {
	var st unix.Stat_t
	if err := unix.Fstatat(dirFD, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		if err == unix.ENOENT {
			return nil
		}
		return err
	}
	return removePlaceholderAt(dirFD, name, &st)
}

// pathError puts the target's path in place of the /proc/self/fd path the mounter was given, so
// errors name the file the caller knows.
func pathError(err error, at, path string) error {
	var pe *os.PathError
	if errors.As(err, &pe) && pe.Path == at {
		return &os.PathError{Op: pe.Op, Path: path, Err: pe.Err}
	}
	return err
}
