//go:build linux

package volumes

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/internal/unixmode"
)

// LinuxFS is the Linux FS: a directory held open by its descriptor, every name below it
// resolved one element at a time with openat(O_NOFOLLOW) from that descriptor, and every change
// made with the *at system call on the parent's descriptor. The directory keeps working when it
// is renamed, and nothing reached through it can be outside it: Chmod and Lchown refuse a file
// with other hard links (EMLINK), which may be outside it. Safe for concurrent use; Close
// releases the descriptor.
type LinuxFS struct {
	fd   int
	path string
}

var _ FS = (*LinuxFS)(nil)

// OpenLinuxFS opens dir, which must be a directory and not a symlink (the directories above it
// may be symlinks, as /var/lib/kubelet often is). A missing dir is the stat error kubelet's
// NewAtomicWriter returns ("stat <dir>: no such file or directory").
func OpenLinuxFS(dir string) (*LinuxFS, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		op := "open"
		if err == unix.ENOENT {
			op = "stat"
		}
		return nil, &fs.PathError{Op: op, Path: dir, Err: err}
	}
	return &LinuxFS{fd: fd, path: dir}, nil
}

// Path is the directory's path as given to OpenLinuxFS.
func (l *LinuxFS) Path() string { return l.path }

// Close releases the directory's descriptor.
func (l *LinuxFS) Close() error { return unix.Close(l.fd) }

func (l *LinuxFS) full(name string) string { return filepath.Join(l.path, name) }

func (l *LinuxFS) pathErr(op, name string, err error) error {
	return &fs.PathError{Op: op, Path: l.full(name), Err: err}
}

// walk opens the directory made of parts below the root with O_PATH, refusing symlinks.
func (l *LinuxFS) walk(parts []string) (int, error) {
	fd, err := unix.Dup(l.fd)
	if err != nil {
		return -1, err
	}
	for _, p := range parts {
		next, err := unix.Openat(fd, p, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		_ = unix.Close(fd)
		if err != nil {
			return -1, err
		}
		var st unix.Stat_t
		if err := unix.Fstat(next, &st); err != nil {
			_ = unix.Close(next)
			return -1, err
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFDIR:
		case unix.S_IFLNK:
			_ = unix.Close(next)
			return -1, unix.ELOOP
		default:
			_ = unix.Close(next)
			return -1, unix.ENOTDIR
		}
		fd = next
	}
	return fd, nil
}

// parent opens the directory holding name and returns it with name's last element. For "." it
// returns the root itself and "." as the element.
//
// A name whose path would be PATH_MAX bytes or more is ENAMETOOLONG, as the kernel answers a
// path-based call (kubelet's): a tree a container made deeper than that is not walked, each
// level being resolved from the root again.
func (l *LinuxFS) parent(name string) (int, string, error) {
	if len(l.path)+1+len(name) >= unix.PathMax {
		return -1, "", unix.ENAMETOOLONG
	}
	parts, err := elems(name)
	if err != nil {
		return -1, "", err
	}
	if len(parts) == 0 {
		fd, err := unix.Dup(l.fd)
		return fd, ".", err
	}
	fd, err := l.walk(parts[:len(parts)-1])
	return fd, parts[len(parts)-1], err
}

// Lstat describes name without following it.
func (l *LinuxFS) Lstat(name string) (fs.FileInfo, error) {
	dir, base, err := l.parent(name)
	if err != nil {
		return nil, l.pathErr("lstat", name, err)
	}
	defer func() { _ = unix.Close(dir) }()
	var st unix.Stat_t
	if err := unix.Fstatat(dir, base, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return nil, l.pathErr("lstat", name, err)
	}
	return &statInfo{name: filepath.Base(l.full(name)), st: st}, nil
}

// Readlink returns the target of the symlink name.
func (l *LinuxFS) Readlink(name string) (string, error) {
	dir, base, err := l.parent(name)
	if err != nil {
		return "", l.pathErr("readlink", name, err)
	}
	defer func() { _ = unix.Close(dir) }()
	buf := make([]byte, 256)
	for {
		n, err := unix.Readlinkat(dir, base, buf)
		if err != nil {
			return "", l.pathErr("readlink", name, err)
		}
		if n < len(buf) {
			return string(buf[:n]), nil
		}
		buf = make([]byte, 2*len(buf))
	}
}

// openNoFollow opens name with flags plus O_NOFOLLOW below its parent.
func (l *LinuxFS) openNoFollow(op, name string, flags int, perm uint32) (int, error) {
	dir, base, err := l.parent(name)
	if err != nil {
		return -1, l.pathErr(op, name, err)
	}
	defer func() { _ = unix.Close(dir) }()
	fd, err := unix.Openat(dir, base, flags|unix.O_NOFOLLOW|unix.O_CLOEXEC, perm)
	if err != nil {
		return -1, l.pathErr(op, name, err)
	}
	return fd, nil
}

// ReadFile returns the contents of the regular file name. Anything else is refused on an O_PATH
// descriptor, which opens nothing: a FIFO is never opened for reading (which would release a
// writer blocked opening it) nor a device (whose open has effects of its own). The regular file
// is then opened through that descriptor.
func (l *LinuxFS) ReadFile(name string) ([]byte, error) {
	pfd, err := l.openNoFollow("open", name, unix.O_PATH, 0)
	if err != nil {
		return nil, err
	}
	defer func() { _ = unix.Close(pfd) }()
	var checked unix.Stat_t
	if err := unix.Fstat(pfd, &checked); err != nil {
		return nil, l.pathErr("read", name, err)
	}
	switch checked.Mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFLNK:
		// What an open with O_NOFOLLOW says of it.
		return nil, l.pathErr("open", name, unix.ELOOP)
	case unix.S_IFDIR:
		return nil, l.pathErr("read", name, unix.EISDIR)
	default:
		return nil, l.pathErr("read", name, unix.EINVAL)
	}
	fd, err := unix.Open("/proc/self/fd/"+strconv.Itoa(pfd), unix.O_RDONLY|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, l.pathErr("open", name, err)
	}
	f := os.NewFile(uintptr(fd), l.full(name))
	defer func() { _ = f.Close() }()
	return io.ReadAll(f)
}

// ReadDir lists the directory name, sorted by name.
func (l *LinuxFS) ReadDir(name string) ([]fs.DirEntry, error) {
	fd, err := l.openNoFollow("open", name, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), l.full(name))
	defer func() { _ = f.Close() }()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

// Mkdir creates the directory name with exactly perm.
func (l *LinuxFS) Mkdir(name string, perm fs.FileMode) error {
	dir, base, err := l.parent(name)
	if err != nil {
		return l.pathErr("mkdir", name, err)
	}
	defer func() { _ = unix.Close(dir) }()
	if err := unix.Mkdirat(dir, base, uint32(perm.Perm())); err != nil {
		return l.pathErr("mkdir", name, err)
	}
	return l.chmodAt(dir, base, name, perm)
}

// WriteFile creates name exclusively with data and exactly perm.
func (l *LinuxFS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	fd, err := l.openNoFollow("open", name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL, uint32(perm.Perm()))
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), l.full(name))
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return err
	}
	if err := unix.Fchmod(fd, uint32(perm.Perm())); err != nil {
		_ = f.Close()
		return l.pathErr("chmod", name, err)
	}
	return f.Close()
}

// RewriteFile writes data to the regular file name in place when it exists (same inode: running
// containers bind-mount such files), or creates it; either way its mode becomes exactly perm.
// Nothing but a regular file with no other name is opened for writing: an existing name is opened
// O_PATH without following it and checked on that descriptor, then reopened through
// /proc/self/fd, so a symlink (ELOOP), a directory (EISDIR), a FIFO, socket or device (EINVAL)
// or a hard link to a file that may be anywhere on the filesystem (EMLINK) at name is an error
// and is never written to or opened for writing.
func (l *LinuxFS) RewriteFile(name string, data []byte, perm fs.FileMode) error {
	err := l.WriteFile(name, data, perm)
	if !errors.Is(err, fs.ErrExist) {
		return err
	}
	dir, base, err := l.parent(name)
	if err != nil {
		return l.pathErr("open", name, err)
	}
	defer func() { _ = unix.Close(dir) }()
	fd, err := openRegularForWrite(dir, base)
	if err != nil {
		return l.pathErr("open", name, err)
	}
	f := os.NewFile(uintptr(fd), l.full(name))
	defer func() { _ = f.Close() }()
	if _, err := f.WriteAt(data, 0); err != nil {
		return err
	}
	if err := f.Truncate(int64(len(data))); err != nil {
		return err
	}
	if err := unix.Fchmod(fd, uint32(perm.Perm())); err != nil {
		return l.pathErr("chmod", name, err)
	}
	return f.Close()
}

// openRegularForWrite opens base below dir for writing only if it is a regular file with one
// link: checked on an O_PATH descriptor, which opens nothing, then reopened through that
// descriptor, so the file written is the file checked.
func openRegularForWrite(dir int, base string) (int, error) {
	pfd, err := unix.Openat(dir, base, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	defer func() { _ = unix.Close(pfd) }()
	var checked unix.Stat_t
	if err := unix.Fstat(pfd, &checked); err != nil {
		return -1, err
	}
	switch checked.Mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFLNK:
		return -1, unix.ELOOP
	case unix.S_IFDIR:
		return -1, unix.EISDIR
	default:
		return -1, unix.EINVAL
	}
	if checked.Nlink > 1 {
		return -1, unix.EMLINK
	}
	fd, err := unix.Open("/proc/self/fd/"+strconv.Itoa(pfd), unix.O_WRONLY|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		_ = unix.Close(fd)
		return -1, err
	}
	if st.Dev != checked.Dev || st.Ino != checked.Ino {
		// Only a /proc that is not the kernel's could hand back another file.
		_ = unix.Close(fd)
		return -1, unix.ESTALE
	}
	return fd, nil
}

// Symlink creates name as a symlink to target.
func (l *LinuxFS) Symlink(target, name string) error {
	dir, base, err := l.parent(name)
	if err != nil {
		return &os.LinkError{Op: "symlink", Old: target, New: l.full(name), Err: err}
	}
	defer func() { _ = unix.Close(dir) }()
	if err := unix.Symlinkat(target, dir, base); err != nil {
		return &os.LinkError{Op: "symlink", Old: target, New: l.full(name), Err: err}
	}
	return nil
}

// Rename renames oldname to newname with renameat.
func (l *LinuxFS) Rename(oldname, newname string) error {
	od, ob, err := l.parent(oldname)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: l.full(oldname), New: l.full(newname), Err: err}
	}
	defer func() { _ = unix.Close(od) }()
	nd, nb, err := l.parent(newname)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: l.full(oldname), New: l.full(newname), Err: err}
	}
	defer func() { _ = unix.Close(nd) }()
	if err := unix.Renameat(od, ob, nd, nb); err != nil {
		return &os.LinkError{Op: "rename", Old: l.full(oldname), New: l.full(newname), Err: err}
	}
	return nil
}

// Remove removes the file, symlink or empty directory name.
func (l *LinuxFS) Remove(name string) error {
	dir, base, err := l.parent(name)
	if err != nil {
		return l.pathErr("remove", name, err)
	}
	defer func() { _ = unix.Close(dir) }()
	err = unix.Unlinkat(dir, base, 0)
	if err == unix.EISDIR {
		err = unix.Unlinkat(dir, base, unix.AT_REMOVEDIR)
	}
	if err != nil {
		return l.pathErr("remove", name, err)
	}
	return nil
}

// Lchown changes the owner of name, not following a symlink. A file that is not a directory and
// has other hard links is refused (EMLINK): its other names may be outside the directory, and
// the owner would change there too.
func (l *LinuxFS) Lchown(name string, uid, gid int) error {
	dir, base, err := l.parent(name)
	if err != nil {
		return l.pathErr("lchown", name, err)
	}
	defer func() { _ = unix.Close(dir) }()
	fd, err := openSingleLinked(dir, base)
	if err != nil {
		return l.pathErr("lchown", name, err)
	}
	defer func() { _ = unix.Close(fd) }()
	if err := unix.Fchownat(fd, "", uid, gid, unix.AT_EMPTY_PATH); err != nil {
		return l.pathErr("lchown", name, err)
	}
	return nil
}

// openSingleLinked opens base below dir with O_PATH, not following a symlink (the link itself
// is opened), and refuses, with EMLINK, anything but a directory that has other hard links, so
// that what is changed through the descriptor is reachable from dir only.
func openSingleLinked(dir int, base string) (int, error) {
	fd, err := unix.Openat(dir, base, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		_ = unix.Close(fd)
		return -1, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR && st.Nlink > 1 {
		_ = unix.Close(fd)
		return -1, unix.EMLINK
	}
	return fd, nil
}

// Chmod sets the mode of name, which must not be a symlink.
func (l *LinuxFS) Chmod(name string, mode fs.FileMode) error {
	dir, base, err := l.parent(name)
	if err != nil {
		return l.pathErr("chmod", name, err)
	}
	defer func() { _ = unix.Close(dir) }()
	return l.chmodAt(dir, base, name, mode)
}

// chmodAt changes the mode of base below dir through an O_PATH descriptor of the file itself
// (fchmodat has no working no-follow flag on older kernels), refusing a symlink, and a file
// with other hard links (EMLINK), whose other names may be outside the directory.
func (l *LinuxFS) chmodAt(dir int, base, name string, mode fs.FileMode) error {
	fd, err := openSingleLinked(dir, base)
	if err != nil {
		return l.pathErr("chmod", name, err)
	}
	defer func() { _ = unix.Close(fd) }()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return l.pathErr("chmod", name, err)
	}
	if st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return l.pathErr("chmod", name, unix.ELOOP)
	}
	if err := unix.Chmod("/proc/self/fd/"+strconv.Itoa(fd), unixmode.FromFileMode(mode)); err != nil {
		return l.pathErr("chmod", name, err)
	}
	return nil
}

// statInfo is an fs.FileInfo from a Stat_t.
type statInfo struct {
	name string
	st   unix.Stat_t
}

func (s *statInfo) Name() string       { return s.name }
func (s *statInfo) Size() int64        { return s.st.Size }
func (s *statInfo) Mode() fs.FileMode  { return unixmode.ToFileMode(s.st.Mode) }
func (s *statInfo) ModTime() time.Time { return time.Unix(s.st.Mtim.Unix()) }
func (s *statInfo) IsDir() bool        { return s.st.Mode&unix.S_IFMT == unix.S_IFDIR }
func (s *statInfo) Sys() any           { return &s.st }
