package subpath

import (
	"errors"
	"fmt"
	"io/fs"
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
// Entries that are not directories, including symlinks, are not followed. A volumeName that is
// not a single path element fails with ErrInvalidName before anything is touched. Containers are
// cleaned in name order and targets in name order within them.
func (l *Linux) CleanSubPaths(podDir, volumeName string) error {
	if podDir == "" {
		return &kindError{Kind: ErrInvalidName, Msg: "pod directory must not be empty"}
	}
	if err := ValidateName("volume name", volumeName); err != nil {
		return err
	}
	subPathDir := filepath.Join(podDir, containerSubPathDirectoryName, volumeName)
	entries, err := readDirNoFollow(subPathDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("error reading %s: %w", subPathDir, err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		ctrDir := filepath.Join(subPathDir, e.Name())
		if err := l.cleanContainerDir(ctrDir); err != nil {
			return err
		}
		if err := l.removeSharedDir(podDir, ctrDir); err != nil {
			return fmt.Errorf("error deleting %s: %w", ctrDir, err)
		}
	}
	podMu := l.podLockFor(podDir)
	podMu.Lock()
	defer podMu.Unlock()
	if err := os.Remove(subPathDir); err != nil {
		return fmt.Errorf("error deleting %s: %w", subPathDir, err)
	}
	top := filepath.Join(podDir, containerSubPathDirectoryName)
	if err := os.Remove(top); err != nil && !errors.Is(err, fs.ErrExist) && !errors.Is(err, unix.ENOTEMPTY) {
		return fmt.Errorf("error deleting %s: %w", top, err)
	}
	return nil
}

// removeSharedDir removes the empty directory dir under the pod's lock, so that a concurrent
// PrepareSafeSubpath never sees a parent it opened disappear.
func (l *Linux) removeSharedDir(podDir, dir string) error {
	podMu := l.podLockFor(podDir)
	podMu.Lock()
	defer podMu.Unlock()
	return os.Remove(dir)
}

// readDirNoFollow lists dir, refusing a symlink in its place, sorted by name.
func readDirNoFollow(dir string) ([]fs.DirEntry, error) {
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &kindError{Kind: ErrUnexpectedFile, Msg: fmt.Sprintf("%s is not a directory", dir), Cause: unix.ENOTDIR}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	return entries, nil
}

func (l *Linux) cleanContainerDir(ctrDir string) error {
	entries, err := os.ReadDir(ctrDir)
	if err != nil {
		return fmt.Errorf("error processing %s: %w", ctrDir, err)
	}
	for _, e := range entries {
		p := filepath.Join(ctrDir, e.Name())
		if err := l.cleanupMountPoint(p); err != nil {
			return fmt.Errorf("error cleaning subpath mount %s: %w", p, err)
		}
	}
	return nil
}

// cleanupMountPoint unmounts path if it is a mount point and removes it (mount-utils:
// CleanupMountPoint with the extensive check), non-recursively. It holds the target's lock so a
// concurrent PrepareSafeSubpath of the same target waits.
func (l *Linux) cleanupMountPoint(path string) error {
	mu := l.lockFor(path)
	mu.Lock()
	defer mu.Unlock()
	var st unix.Stat_t
	err := unix.Lstat(path, &st)
	switch {
	case err == unix.ENOENT:
		return nil
	case err != nil && isCorruptedMount(err):
		if err := l.mounter.Unmount(path); err != nil {
			return err
		}
		return removePlaceholder(path)
	case err != nil:
		return fmt.Errorf("error checking path: %w", &os.PathError{Op: "lstat", Path: path, Err: err})
	case st.Mode&unix.S_IFMT == unix.S_IFLNK:
		return os.Remove(path)
	}
	mounted, err := l.mounter.IsMountPoint(path)
	if err != nil {
		if !isCorruptedMount(err) {
			return err
		}
		mounted = true
	}
	if mounted {
		if err := l.mounter.Unmount(path); err != nil {
			return err
		}
		if mounted, err = l.mounter.IsMountPoint(path); err != nil {
			return err
		}
		if mounted {
			return fmt.Errorf("failed to cleanup mount point %v", path)
		}
	}
	return removePlaceholder(path)
}
