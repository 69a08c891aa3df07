//go:build linux

package hostfs

import (
	"io"
	"io/fs"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/internal/unixmode"
)

// file is a file OpenBeneath opened for reading: a descriptor read with plain read calls (an
// os.File would register a regular file with the poller, for nothing), and the FileInfo the open
// already learnt.
type file struct {
	fd   int
	info fileInfo
}

func (f *file) Stat() (fs.FileInfo, error) { return &f.info, nil }

func (f *file) Read(p []byte) (int, error) {
	if f.fd < 0 {
		return 0, fs.ErrClosed
	}
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := unix.Read(f.fd, p)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 0, &fs.PathError{Op: "read", Path: f.info.name, Err: err}
		}
		if n == 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f *file) Close() error {
	if f.fd < 0 {
		return fs.ErrClosed
	}
	fd := f.fd
	f.fd = -1
	return closeFD(fd, f.info.name)
}

// fileInfo describes a file from its fstat, as os.Stat would: Sys is its *syscall.Stat_t.
type fileInfo struct {
	name string
	st   syscall.Stat_t
}

func (fi *fileInfo) Name() string       { return fi.name }
func (fi *fileInfo) Size() int64        { return fi.st.Size }
func (fi *fileInfo) Mode() fs.FileMode  { return unixmode.ToFileMode(fi.st.Mode) }
func (fi *fileInfo) ModTime() time.Time { return time.Unix(fi.st.Mtim.Unix()) }
func (fi *fileInfo) IsDir() bool        { return fi.Mode().IsDir() }
func (fi *fileInfo) Sys() any           { return &fi.st }
