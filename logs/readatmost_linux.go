package logs

import (
	"fmt"
	"io"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// ReadAtMost returns at most the last max bytes of the regular file at path and whether the
// file was longer (kubelet: tail.ReadAtMost). An empty file gives nothing.
//
// Unlike kubelet's, it never opens anything but a regular file for reading and never blocks:
// path is first opened with O_PATH|O_NOFOLLOW, which neither follows a final symlink nor opens a
// FIFO or a device, and only if that is a regular file is it opened for reading, through its
// descriptor, with O_NONBLOCK. A symlink, FIFO, device, socket or directory is an error matching
// ErrNotRegularFile. It reads at most max bytes whatever the file's size says or becomes while
// reading, so it allocates at most max bytes.
func ReadAtMost(path string, max int64) ([]byte, bool, error) {
	f, size, err := openRegular(path)
	if err != nil {
		return nil, false, err
	}
	defer func() { _ = f.Close() }()
	if size == 0 || max <= 0 {
		return nil, false, nil
	}
	n := min(size, max)
	buf := make([]byte, n)
	got, err := f.ReadAt(buf, size-n)
	if err != nil && err != io.EOF {
		return nil, false, err
	}
	return buf[:got], size > n, nil
}

// OpenLogFile opens the container log file at path for reading as ReadAtMost does: only a
// regular file, never through a final symlink, never blocking on a FIFO (an error matching
// ErrNotRegularFile otherwise). A node serving kubelet's /containerLogs reads with it.
func OpenLogFile(path string) (*os.File, error) {
	f, _, err := openRegular(path)
	return f, err
}

// openRegular opens the regular file at path for reading, without following a final symlink,
// without opening anything else and without blocking, and returns it with its size.
func openRegular(path string) (*os.File, int64, error) {
	f, st, err := openRegularAt(unix.AT_FDCWD, path, path)
	return f, st.Size, err
}

// openRegularAt is openRegular for name relative to the directory dirfd (unix.AT_FDCWD for the
// working directory), path naming it in errors; it returns the file's stat.
func openRegularAt(dirfd int, name, path string) (*os.File, unix.Stat_t, error) {
	var st unix.Stat_t
	pathFD, err := unix.Openat(dirfd, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, st, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer func() { _ = unix.Close(pathFD) }()
	if err := unix.Fstat(pathFD, &st); err != nil {
		return nil, st, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, st, fmt.Errorf("%s: %w", path, ErrNotRegularFile)
	}
	// Reopening the O_PATH descriptor through /proc opens the very file checked above.
	fd, err := unix.Open("/proc/self/fd/"+strconv.Itoa(pathFD), unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, st, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), st, nil
}
