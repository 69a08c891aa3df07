package volumes

import (
	"io/fs"
	"strings"
	"syscall"
)

// FS is a volume directory as the atomic writer and the ownership pass use it. Every name is
// relative to the volume directory ("." is the directory itself) and is resolved without
// following any symlink: a symlink in the middle of a name is an error (ELOOP), and one at its end
// is what Lstat, Readlink, Remove and Lchown act on. The Linux backend ([OpenLinuxFS]) does
// this with descriptors (openat, mkdirat, symlinkat, renameat, unlinkat, fchownat, all
// O_NOFOLLOW), so a symlink planted in the volume cannot redirect a write outside it or inside
// it; [NewMemoryFS] is the in-memory backend.
type FS interface {
	// Lstat describes name without following it.
	Lstat(name string) (fs.FileInfo, error)
	// Readlink returns the target of the symlink name; EINVAL if name is not a symlink.
	Readlink(name string) (string, error)
	// ReadFile returns the contents of the regular file name. Anything else is an error; a FIFO
	// is never opened for reading.
	ReadFile(name string) ([]byte, error)
	// ReadDir lists the directory name, sorted by name.
	ReadDir(name string) ([]fs.DirEntry, error)
	// Mkdir creates the directory name with exactly perm (no umask).
	Mkdir(name string, perm fs.FileMode) error
	// WriteFile creates the file name, which must not exist, with data and exactly perm.
	WriteFile(name string, data []byte, perm fs.FileMode) error
	// Symlink creates name as a symlink to target.
	Symlink(target, name string) error
	// Rename renames oldname to newname atomically, replacing a file or symlink at newname.
	Rename(oldname, newname string) error
	// Remove removes the file, symlink or empty directory name.
	Remove(name string) error
	// Lchown changes the owner of name (-1 keeps one), not following a symlink.
	Lchown(name string, uid, gid int) error
	// Chmod sets the permission bits (and setgid, sticky) of name; a symlink is an error.
	Chmod(name string, mode fs.FileMode) error
}

// removeAll removes name and everything below it through fsys, never following a symlink (each
// is removed as a link). It stops at the first error.
func removeAll(fsys FS, name string) error {
	fi, err := fsys.Lstat(name)
	if err != nil {
		if isNotExist(err) {
			return nil
		}
		return err
	}
	if fi.IsDir() {
		entries, err := fsys.ReadDir(name)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := removeAll(fsys, name+"/"+e.Name()); err != nil {
				return err
			}
		}
	}
	return fsys.Remove(name)
}

// elems splits a relative name; "." is no element.
func elems(name string) ([]string, error) {
	if name == "." || name == "" {
		return nil, nil
	}
	parts := strings.Split(name, "/")
	for _, p := range parts {
		if p == "" || p == "." || p == ".." {
			return nil, syscall.EINVAL
		}
	}
	return parts, nil
}
