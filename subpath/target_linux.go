package subpath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// Modes of what PrepareSafeSubpath creates, as in kubelet.
const (
	subpathDirMode  = 0o750
	subpathFileMode = 0o640
)

// prepareTarget creates the bind target and its parents (kubelet: prepareSubpathTarget) one level
// at a time relative to the parent's descriptor, never following a symlink below podDir, and
// returns an O_PATH descriptor of the target plus what it created, outermost first and the target
// last.
func (l *Linux) prepareTarget(podDir, target string, isDir bool) (created []string, tgtFD int, err error) {
	parentFD, err := unix.Open(podDir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err == unix.ENOENT {
		if created, err = mkdirAllTracked(podDir); err != nil {
			return created, -1, err
		}
		parentFD, err = unix.Open(podDir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	}
	if err != nil {
		return created, -1, fmt.Errorf("error creating directory %s: %w", filepath.Dir(target), &os.PathError{Op: "open", Path: podDir, Err: err})
	}
	defer func() { _ = unix.Close(parentFD) }()
	rel, err := filepath.Rel(podDir, target)
	if err != nil {
		return created, -1, err
	}
	elems := splitPath(rel)
	if fd, ok := l.openExistingDir(parentFD, elems[:len(elems)-1]); ok {
		_ = unix.Close(parentFD)
		parentFD = fd
		elems = elems[len(elems)-1:]
	}
	cur := filepath.Clean(podDir)
	for _, name := range elems[:len(elems)-1] {
		cur = filepath.Join(cur, name)
		childFD, err := unix.Openat(parentFD, name, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err == unix.ENOENT {
			mkErr := unix.Mkdirat(parentFD, name, subpathDirMode)
			if mkErr != nil && mkErr != unix.EEXIST {
				return created, -1, fmt.Errorf("error creating directory %s: %w", filepath.Dir(target), &os.PathError{Op: "mkdir", Path: cur, Err: mkErr})
			}
			if mkErr == nil {
				created = append(created, cur)
			}
			childFD, err = unix.Openat(parentFD, name, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		}
		if err != nil {
			return created, -1, fmt.Errorf("error creating directory %s: %w", filepath.Dir(target), &os.PathError{Op: "open", Path: cur, Err: err})
		}
		_ = unix.Close(parentFD)
		parentFD = childFD
	}
	fd, made, err := makePlaceholder(parentFD, elems[len(elems)-1], target, isDir)
	if made {
		created = append(created, target)
	}
	return created, fd, err
}

// makePlaceholder makes sure name in dirFD is an empty directory (isDir) or an empty regular file
// to mount onto, replacing an empty placeholder of the other kind left by an earlier mount, and
// returns an O_PATH descriptor of it and whether it had to be created. Existing files are only
// inspected through O_PATH, so a FIFO there is never opened for reading or writing.
func makePlaceholder(dirFD int, name, target string, isDir bool) (fd int, made bool, err error) {
	what, want := "file", uint32(unix.S_IFREG)
	if isDir {
		what, want = "directory", unix.S_IFDIR
	}
	for attempt := 0; attempt < 3; attempt++ {
		fd, err := unix.Openat(dirFD, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err == unix.ENOENT {
			err = createPlaceholder(dirFD, name, isDir)
			if err != nil && err != unix.EEXIST {
				return -1, made, fmt.Errorf("error creating %s %s: %w", what, target, err)
			}
			made = made || err == nil
			continue
		}
		if err != nil {
			return -1, made, fmt.Errorf("error creating %s %s: %w", what, target, err)
		}
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			_ = unix.Close(fd)
			return -1, made, fmt.Errorf("error creating %s %s: %w", what, target, err)
		}
		if st.Mode&unix.S_IFMT == want {
			return fd, made, nil
		}
		_ = unix.Close(fd)
		if err := removePlaceholderAt(dirFD, name, &st); err != nil {
			return -1, made, fmt.Errorf("error creating %s %s: %w", what, target, err)
		}
	}
	return -1, made, fmt.Errorf("error creating %s %s: %w", what, target, unix.EAGAIN)
}

// openExistingDir opens the directories elems below dirFD in one openat2(2) call when the kernel
// has it, following no symlink; the common case of a pod whose volume-subpaths tree exists.
func (l *Linux) openExistingDir(dirFD int, elems []string) (int, bool) {
	if !l.useOpenat2 {
		return -1, false
	}
	fd, err := unix.Openat2(dirFD, filepath.Join(elems...), &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	return fd, err == nil
}

func createPlaceholder(dirFD int, name string, isDir bool) error {
	if isDir {
		return unix.Mkdirat(dirFD, name, subpathDirMode)
	}
	fd, err := unix.Openat(dirFD, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, subpathFileMode)
	if err != nil {
		return err
	}
	return unix.Close(fd)
}

// removePlaceholderAt removes name only when it is an empty directory or an empty regular file:
// a bind target, never data.
func removePlaceholderAt(dirFD int, name string, st *unix.Stat_t) error {
	switch {
	case st.Mode&unix.S_IFMT == unix.S_IFDIR:
		return unix.Unlinkat(dirFD, name, unix.AT_REMOVEDIR)
	case st.Mode&unix.S_IFMT == unix.S_IFREG && st.Size == 0:
		return unix.Unlinkat(dirFD, name, 0)
	}
	return fmt.Errorf("%s is not an empty bind target: %w", name, unix.EEXIST)
}

// removePlaceholder is removePlaceholderAt by path, for a target that is no longer mounted.
func removePlaceholder(path string) error {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		if err == unix.ENOENT {
			return nil
		}
		return err
	}
	return removePlaceholderAt(unix.AT_FDCWD, path, &st)
}

// mkdirAllTracked is os.MkdirAll(dir, 0750) that reports the directories it created.
func mkdirAllTracked(dir string) ([]string, error) {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("error creating directory %s: %w", dir, err)
		}
		missing = append(missing, d)
		if d == filepath.Dir(d) {
			break
		}
	}
	var created []string
	for i := len(missing) - 1; i >= 0; i-- {
		err := os.Mkdir(missing[i], subpathDirMode)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			return created, fmt.Errorf("error creating directory %s: %w", dir, err)
		}
		if err == nil {
			created = append(created, missing[i])
		}
	}
	return created, nil
}

// undo removes what one PrepareSafeSubpath made (kubelet: cleanSubPath and removeEmptyDirs):
// the mount when unmount is set, then what the call created (the target when it had to make it,
// and parent directories), innermost first, stopping at the first that is still mounted, not
// empty or cannot be removed. Nothing is removed recursively, so a failed unmount can never
// delete volume data. The caller holds the target's lock; undo takes the pod's.
func (l *Linux) undo(podDir, target string, created []string, unmount bool) {
	if unmount {
		if err := l.mounter.Unmount(target); err != nil {
			return
		}
	}
	mounted, err := l.mounter.IsMountPoint(target)
	if (err != nil && !errors.Is(err, fs.ErrNotExist)) || mounted {
		return
	}
	podMu := l.podLockFor(podDir)
	podMu.Lock()
	defer podMu.Unlock()
	for i := len(created) - 1; i >= 0; i-- {
		if removePlaceholder(created[i]) != nil {
			return
		}
	}
}
