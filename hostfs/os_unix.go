//go:build unix

package hostfs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"

	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/internal/unixmode"
)

// The file writes below are a node's every container config, so each is the few system calls the
// operation needs on a descriptor held for its duration: an os.File would add the poller's
// registration (fcntl and epoll_ctl calls a regular file gains nothing from) to each open.

// WriteFile writes data to path, rewriting an existing file in place: it keeps its inode and mode,
// as with os.WriteFile, and a final symlink is followed. perm (less the umask) applies only when
// the file is created. A file that already holds data is left untouched.
//
// Unlike os.WriteFile, a failure never leaves an existing file's content destroyed: the file is
// not truncated first (which would free its blocks for another writer on the disk to take), but
// overwritten from the start and then cut to the new length, and when a write or the cut fails
// (out of space, I/O error) the bytes overwritten so far are written back and the old length
// restored. Overwriting blocks the file already has needs no new space, so that restores the
// old content on the file systems that rewrite in place (ext4, xfs, tmpfs), though not against a
// crash midway.
func (OS) WriteFile(path string, data []byte, perm fs.FileMode) error {
	fd, err := open(path, unix.O_RDWR|unix.O_CREAT, perm)
	if err != nil {
		return err
	}
	err = overwrite(fd, path, data)
	if cerr := closeFD(fd, path); err == nil {
		err = cerr
	}
	return err
}

// overwrite replaces the content of the file open as fd with data in place, restoring what it
// overwrote on failure. An unchanged file costs a fstat and a read.
func overwrite(fd int, path string, data []byte) error {
	var st unix.Stat_t
	if err := ignoringEINTR(func() error { return unix.Fstat(fd, &st) }); err != nil {
		return &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	oldSize := st.Size
	// Only the first min(old, new) bytes are overwritten; the rest of a longer old content stays
	// until the final cut.
	saved := make([]byte, min(oldSize, int64(len(data))))
	if err := preadFull(fd, saved); err != nil {
		return &fs.PathError{Op: "read", Path: path, Err: err}
	}
	if oldSize == int64(len(data)) && bytes.Equal(saved, data) {
		return nil
	}
	restore := func(err error) error {
		if werr := pwriteFull(fd, saved); werr != nil {
			return errors.Join(err, fmt.Errorf("restoring %s: %w", path, &fs.PathError{Op: "write", Path: path, Err: werr}))
		}
		if terr := ignoringEINTR(func() error { return unix.Ftruncate(fd, oldSize) }); terr != nil {
			return errors.Join(err, fmt.Errorf("restoring %s: %w", path, &fs.PathError{Op: "truncate", Path: path, Err: terr}))
		}
		return err
	}
	if err := pwriteFull(fd, data); err != nil {
		return restore(&fs.PathError{Op: "write", Path: path, Err: err})
	}
	if oldSize > int64(len(data)) {
		if err := ignoringEINTR(func() error { return unix.Ftruncate(fd, int64(len(data))) }); err != nil {
			return restore(&fs.PathError{Op: "truncate", Path: path, Err: err})
		}
	}
	return nil
}

// Create creates path as an empty file, or truncates it if it exists, like os.Create followed by
// Close. A new file gets mode 0666 less the umask.
func (OS) Create(path string) error {
	fd, err := open(path, unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC, 0o666)
	if err != nil {
		return err
	}
	return closeFD(fd, path)
}

// open opens path with flag (and O_CLOEXEC), as os.OpenFile would, without an os.File.
func open(path string, flag int, perm fs.FileMode) (int, error) {
	mode := unixmode.FromFileMode(perm)
	for {
		fd, err := unix.Open(path, flag|unix.O_CLOEXEC, mode)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return -1, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return fd, nil
	}
}

// closeFD closes fd once: after an EINTR the descriptor is gone on Linux, so it is not retried.
func closeFD(fd int, path string) error {
	if err := unix.Close(fd); err != nil && err != unix.EINTR {
		return &fs.PathError{Op: "close", Path: path, Err: err}
	}
	return nil
}

// preadFull fills buf from the start of the file open as fd; the file is at least len(buf) long.
func preadFull(fd int, buf []byte) error { return atFull(unix.Pread, fd, buf) }

// pwriteFull writes all of data at the start of the file open as fd.
func pwriteFull(fd int, data []byte) error { return atFull(unix.Pwrite, fd, data) }

// atFull runs a positional read or write (pread or pwrite) until all of buf, from offset 0, is
// done. No progress is EIO: for a read, the file was cut since its fstat.
func atFull(op func(fd int, p []byte, offset int64) (int, error), fd int, buf []byte) error {
	for n := 0; n < len(buf); {
		m, err := op(fd, buf[n:], int64(n))
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return err
		case m == 0:
			return unix.EIO
		}
		n += m
	}
	return nil
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != unix.EINTR {
			return err
		}
	}
}
