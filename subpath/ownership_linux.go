package subpath

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// setVolumeOwnership gives everything below dir group gid and group access (kubelet:
// SetVolumeOwnership with its walk), never following a symlink. Per-file failures are warnings.
func setVolumeOwnership(dir string, gid int, readOnly, onRootMismatch bool) ([]string, error) {
	rootFD, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("error setting ownership of %s: %w", dir, &os.PathError{Op: "open", Path: dir, Err: err})
	}
	root := os.NewFile(uintptr(rootFD), dir)
	defer func() { _ = root.Close() }()
	if onRootMismatch {
		var st unix.Stat_t
		if err := unix.Fstat(rootFD, &st); err == nil && !requiresPermissionChange(&st, gid, readOnly) {
			return nil, nil
		}
	}
	w := ownershipWalk{gid: gid, readOnly: readOnly}
	if err := w.dir(root, dir); err != nil {
		return w.warnings, err
	}
	return w.warnings, nil
}

// requiresPermissionChange reports whether the volume root lacks the group, the setgid bit or
// the permission bits fsGroup asks for (kubelet: requiresPermissionChange).
func requiresPermissionChange(st *unix.Stat_t, gid int, readOnly bool) bool {
	if int(st.Gid) != gid || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return true
	}
	want := uint32(groupRWBits | groupExecBits)
	if readOnly {
		want = groupROBits | groupExecBits
	}
	return st.Mode&want != want || st.Mode&unix.S_ISGID == 0
}

type ownershipWalk struct {
	gid      int
	readOnly bool
	warnings []string
}

func (w *ownershipWalk) mask(isDir bool) uint32 {
	m := uint32(groupRWBits)
	if w.readOnly {
		m = groupROBits
	}
	if isDir {
		m |= unix.S_ISGID | groupExecBits
	}
	return m
}

// dir fixes the directory d itself, then each entry, recursing into subdirectories through
// descriptors opened with O_NOFOLLOW.
func (w *ownershipWalk) dir(d *os.File, path string) error {
	fd := int(d.Fd())
	w.fix(fd, path)
	entries, err := d.ReadDir(-1)
	if err != nil {
		return fmt.Errorf("error setting ownership of %s: %w", path, err)
	}
	for _, e := range entries {
		p := filepath.Join(path, e.Name())
		if e.Type()&os.ModeSymlink != 0 {
			if err := unix.Fchownat(fd, e.Name(), -1, w.gid, unix.AT_SYMLINK_NOFOLLOW); err != nil {
				w.warnings = append(w.warnings, fmt.Sprintf("lchown %s failed: %v", p, err))
			}
			continue
		}
		if e.IsDir() {
			childFD, err := unix.Openat(fd, e.Name(), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			switch err {
			case nil:
				child := os.NewFile(uintptr(childFD), p)
				err = w.dir(child, p)
				_ = child.Close()
				if err != nil {
					return err
				}
				continue
			case unix.ELOOP, unix.ENOTDIR:
				// Swapped for something else since the listing: handled as a file below.
			default:
				return fmt.Errorf("error setting ownership of %s: %w", p, &os.PathError{Op: "open", Path: p, Err: err})
			}
		}
		// O_PATH: a FIFO or device is never opened for real.
		childFD, err := unix.Openat(fd, e.Name(), unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			w.warnings = append(w.warnings, fmt.Sprintf("lchown %s failed: %v", p, err))
			continue
		}
		w.fix(childFD, p)
		_ = unix.Close(childFD)
	}
	return nil
}

// fix chowns and chmods the file behind fd. chmod goes through /proc/self/fd so that it works on
// O_PATH descriptors and reaches exactly that inode; a symlink (swapped in after the listing) is
// only chowned.
func (w *ownershipWalk) fix(fd int, path string) {
	if err := unix.Fchownat(fd, "", -1, w.gid, unix.AT_EMPTY_PATH|unix.AT_SYMLINK_NOFOLLOW); err != nil {
		w.warnings = append(w.warnings, fmt.Sprintf("lchown %s failed: %v", path, err))
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		w.warnings = append(w.warnings, fmt.Sprintf("chmod %s failed: %v", path, err))
		return
	}
	if st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return
	}
	mode := st.Mode&0o7777 | w.mask(st.Mode&unix.S_IFMT == unix.S_IFDIR)
	if err := unix.Chmod(procFD(fd), mode); err != nil {
		w.warnings = append(w.warnings, fmt.Sprintf("chmod %s failed: %v", path, err))
	}
}
