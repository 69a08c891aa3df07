package logs

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// logDir is a container's log directory, held open so that every rotation step names its files
// relative to that one directory: a symlink planted anywhere else along the path after it was
// opened changes nothing, and no step follows a symlink in the directory itself.
type logDir struct {
	fd   int
	path string
}

// openLogDir opens the directory at path; its last element must not be a symlink. The error
// matches errVanished when it does not exist.
func openLogDir(path string) (*logDir, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, pathError("open", path, err)
	}
	return &logDir{fd: fd, path: path}, nil
}

// close releases the directory.
func (d *logDir) close() { _ = unix.Close(d.fd) }

// join is the path of name, for messages.
func (d *logDir) join(name string) string { return filepath.Join(d.path, name) }

// pathError wraps a system call's error on path; a missing file matches errVanished.
func pathError(op, path string, err error) error {
	if errors.Is(err, unix.ENOENT) {
		return fmt.Errorf("%w: %w", errVanished, &os.PathError{Op: op, Path: path, Err: err})
	}
	return &os.PathError{Op: op, Path: path, Err: err}
}

// lstat describes name without following a symlink.
func (d *logDir) lstat(name string) (unix.Stat_t, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return st, pathError("stat", d.join(name), err)
	}
	return st, nil
}

// size returns the size of the regular file name; anything else is an error matching
// ErrNotRegularFile.
func (d *logDir) size(name string) (int64, error) {
	st, err := d.lstat(name)
	if err != nil {
		return 0, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return 0, fmt.Errorf("%s: %w", d.join(name), ErrNotRegularFile)
	}
	return st.Size, nil
}

// rotated lists the entries named "<log>.*" (kubelet's pattern for a log's copies), sorted: the
// regular files, and apart the others, which no step touches.
func (d *logDir) rotated(log string) (regular, refused []string, err error) {
	fd, err := unix.Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, pathError("open", d.path, err)
	}
	f := os.NewFile(uintptr(fd), d.path)
	defer func() { _ = f.Close() }()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return nil, nil, err
	}
	slices.Sort(names)
	for _, name := range names {
		if !strings.HasPrefix(name, log+".") {
			continue
		}
		st, err := d.lstat(name)
		switch {
		case errors.Is(err, errVanished):
		case err != nil:
			return nil, nil, err
		case st.Mode&unix.S_IFMT == unix.S_IFREG:
			regular = append(regular, name)
		default:
			refused = append(refused, name)
		}
	}
	return regular, refused, nil
}

// remove unlinks name (a symlink itself, never its target); one already gone is not an error.
func (d *logDir) remove(name string) error {
	err := unix.Unlinkat(d.fd, name, 0)
	if err != nil && !errors.Is(err, unix.ENOENT) {
		return pathError("remove", d.join(name), err)
	}
	return nil
}

// rename renames from to to within the directory; a symlink is renamed, not followed. The error
// matches errVanished when from is missing.
func (d *logDir) rename(from, to string) error {
	if err := unix.Renameat(d.fd, from, d.fd, to); err != nil {
		return pathError("rename", d.join(from), err)
	}
	return nil
}

// openRegular opens the regular file name for reading as ReadAtMost opens a file (no symlink
// followed, nothing but a regular file opened, never blocking), and returns its mode. The error
// matches errVanished when name is missing.
func (d *logDir) openRegular(name string) (*os.File, uint32, error) {
	f, st, err := openRegularAt(d.fd, name, d.join(name))
	if errors.Is(err, unix.ENOENT) {
		return nil, 0, fmt.Errorf("%w: %w", errVanished, err)
	}
	return f, st.Mode & 0o777, err
}

// compress gzips name into name.gz, as kubelet does: through name.tmp, created anew with
// name's permissions and renamed once whole, then removes name. On failure the temporary file
// is removed and name kept. The error matches errVanished when name is gone.
func (d *logDir) compress(name string) error {
	src, mode, err := d.openRegular(name)
	if err != nil {
		return fmt.Errorf("failed to open log %q: %w", d.join(name), err)
	}
	defer func() { _ = src.Close() }()
	tmp := name + temporarySuffix
	fd, err := unix.Openat(d.fd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, mode)
	if err != nil {
		return fmt.Errorf("failed to create temporary log %q: %w", d.join(tmp), pathError("open", d.join(tmp), err))
	}
	dst := os.NewFile(uintptr(fd), d.join(tmp))
	if err := gzipTo(dst, src); err != nil {
		_ = d.remove(tmp)
		return fmt.Errorf("failed to compress %q to %q: %w", d.join(name), d.join(tmp), err)
	}
	if err := d.rename(tmp, name+compressedSuffix); err != nil {
		_ = d.remove(tmp)
		return fmt.Errorf("failed to rename %q to %q: %w", d.join(tmp), d.join(name+compressedSuffix), err)
	}
	if err := d.remove(name); err != nil {
		return fmt.Errorf("failed to remove log %q after compress: %w", d.join(name), err)
	}
	return nil
}

// gzipTo writes src gzipped to dst and closes dst.
func gzipTo(dst *os.File, src io.Reader) error {
	w := gzip.NewWriter(dst)
	_, err := io.Copy(w, src)
	return errors.Join(err, w.Close(), dst.Close())
}
