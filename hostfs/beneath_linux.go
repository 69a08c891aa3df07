//go:build linux

package hostfs

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"syscall"

	pathrs "github.com/cyphar/filepath-securejoin/pathrs-lite"
	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/internal/unixmode"
)

// OpenBeneath opens path for reading as if root were the file system's root: every component,
// symlinks included (absolute or relative), is resolved inside root, and ".." stops at root, so
// nothing outside root can be reached. It resolves the path in one walk that cannot leave root
// (openat2 with RESOLVE_IN_ROOT, or pathrs-lite's checked walk on kernels before 5.6) and keeps
// the file descriptor, so a symlink swapped in after a check cannot redirect it. Only regular
// files and directories are opened; anything else fails with ErrNotRegular without being opened
// for reading, so a FIFO cannot block the caller.
//
// The file's Stat answers from what the open learnt, without another system call.
func (OS) OpenBeneath(root, path string) (fs.File, error) {
	f, err := openBeneath(root, path)
	if errors.Is(err, unix.ENOSYS) {
		return openBeneathWalk(root, path)
	}
	return f, err
}

// openBeneath is OpenBeneath with openat2: the path is opened O_PATH (which reads nothing and
// has no side effect, whatever the file is), its type checked on that descriptor, and only then
// reopened for reading through the descriptor's /proc/self/fd entry, so the file read is the file
// checked. The reopened file's identity is compared with the checked one's, which holds even if
// /proc were not the kernel's.
func openBeneath(root, path string) (fs.File, error) {
	rootFD, err := open(root, unix.O_PATH|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(rootFD)
	how := unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_IN_ROOT | unix.RESOLVE_NO_MAGICLINKS,
	}
	var pathFD int
	for tries := 0; ; tries++ {
		pathFD, err = unix.Openat2(rootFD, path, &how)
		// EAGAIN: a rename elsewhere raced with the confined lookup; the kernel asks for a retry.
		if err == unix.EINTR || (err == unix.EAGAIN && tries < 16) {
			continue
		}
		break
	}
	if err != nil {
		return nil, &fs.PathError{Op: "openat2", Path: path, Err: err}
	}
	defer unix.Close(pathFD)
	var checked unix.Stat_t
	if err := ignoringEINTR(func() error { return unix.Fstat(pathFD, &checked) }); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	mode := unixmode.ToFileMode(checked.Mode)
	if !mode.IsRegular() && !mode.IsDir() {
		return nil, notRegular(path, mode)
	}
	fd, err := open("/proc/self/fd/"+strconv.Itoa(pathFD), unix.O_RDONLY|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "reopen", Path: path, Err: errors.Unwrap(err)}
	}
	f := &file{fd: fd, info: fileInfo{name: baseName(path)}}
	if err := ignoringEINTR(func() error { return syscall.Fstat(fd, &f.info.st) }); err != nil {
		_ = unix.Close(fd)
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if uint64(f.info.st.Dev) != uint64(checked.Dev) || uint64(f.info.st.Ino) != uint64(checked.Ino) {
		_ = unix.Close(fd)
		return nil, fmt.Errorf("open %s: reopening through /proc/self/fd gave another file", path)
	}
	return f, nil
}

// openBeneathWalk is OpenBeneath through pathrs-lite, for kernels without openat2.
func openBeneathWalk(root, path string) (fs.File, error) {
	handle, err := pathrs.OpenInRoot(root, path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = handle.Close() }()
	fi, err := handle.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		return nil, notRegular(path, fi.Mode())
	}
	f, err := pathrs.Reopen(handle, unix.O_RDONLY)
	if err != nil {
		return nil, err
	}
	return f, nil
}
