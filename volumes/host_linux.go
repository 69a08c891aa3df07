//go:build linux

package volumes

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/subpath"
)

// LinuxHost is the Host of a Linux node: directories made with mkdirat one level at a time,
// mounts made on the descriptor of a directory opened O_NOFOLLOW, removal through subpath's
// RemoveAllOneFilesystem. Safe for concurrent use.
type LinuxHost struct {
	sp *subpath.Linux
}

var _ Host = (*LinuxHost)(nil)

// NewLinuxHost returns the Linux Host.
func NewLinuxHost() *LinuxHost { return &LinuxHost{sp: subpath.New()} }

func (h *LinuxHost) subpath() *subpath.Linux {
	if h == nil || h.sp == nil {
		return subpath.New()
	}
	return h.sp
}

// MakeDir creates base/rel below base with subpath's SafeMakeDir: each missing level with
// mkdirat on its parent's descriptor, opened O_NOFOLLOW before going on.
func (h *LinuxHost) MakeDir(base, rel string, perm fs.FileMode) error {
	return h.subpath().SafeMakeDir(rel, base, perm)
}

// OpenVolume opens dir as a LinuxFS.
func (h *LinuxHost) OpenVolume(dir string) (FS, error) { return OpenLinuxFS(dir) }

// Mount mounts on the directory dir itself: it is opened O_PATH|O_NOFOLLOW and the mount is made
// on /proc/self/fd/N, so a symlink swapped in at dir cannot move the mount elsewhere.
func (h *LinuxHost) Mount(source, dir, fstype string, options []string) error {
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer func() { _ = unix.Close(fd) }()
	if err := unix.Mount(source, "/proc/self/fd/"+strconv.Itoa(fd), fstype, 0, strings.Join(options, ",")); err != nil {
		return fmt.Errorf("mount failed: %w\nMounting command: mount\nMounting arguments: -t %s -o %s %s %s", err, fstype, strings.Join(options, ","), source, dir)
	}
	return nil
}

// IsMountPoint reports whether dir, not followed if a symlink, is the root of a mount: its
// device differs from its parent's, or statx says it is a mount root (a bind mount of the same
// filesystem).
func (h *LinuxHost) IsMountPoint(dir string) (bool, error) {
	var stx unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, dir, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_TYPE, &stx); err != nil {
		return false, &fs.PathError{Op: "statx", Path: dir, Err: err}
	}
	if stx.Attributes_mask&unix.STATX_ATTR_MOUNT_ROOT != 0 {
		return stx.Attributes&unix.STATX_ATTR_MOUNT_ROOT != 0, nil
	}
	var st, parent unix.Stat_t
	if err := unix.Lstat(dir, &st); err != nil {
		return false, &fs.PathError{Op: "lstat", Path: dir, Err: err}
	}
	if err := unix.Stat(dir+"/..", &parent); err != nil {
		return false, &fs.PathError{Op: "stat", Path: dir + "/..", Err: err}
	}
	return st.Dev != parent.Dev, nil
}

// Unmount unmounts dir without following a final symlink.
func (h *LinuxHost) Unmount(dir string) error {
	if err := unix.Unmount(dir, unix.UMOUNT_NOFOLLOW); err != nil {
		return &fs.PathError{Op: "unmount", Path: dir, Err: err}
	}
	return nil
}

// RemoveAll is subpath's RemoveAllOneFilesystem.
func (h *LinuxHost) RemoveAll(dir string) error {
	err := h.subpath().RemoveAllOneFilesystem(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// Stat is os.Stat.
func (h *LinuxHost) Stat(path string) (fs.FileInfo, error) { return os.Stat(path) }

// MkdirAll is os.MkdirAll.
func (h *LinuxHost) MkdirAll(path string, perm fs.FileMode) error { return os.MkdirAll(path, perm) }

// CreateFile creates path if missing, with perm less the umask, leaving an existing file as it
// is (kubelet's hostPath makeFile: open with O_CREATE).
func (h *LinuxHost) CreateFile(path string, perm fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDONLY, perm)
	if err != nil {
		return err
	}
	return f.Close()
}
