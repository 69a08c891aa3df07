package subpath

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// direntBufSize is the size of the one buffer a removal lists every directory into (getdents(2)
// fills it with as many entries as fit; the longest entry takes under 300 bytes).
const direntBufSize = 8192

// treeRemoval is the state of one removal of everything below an open directory, the top. Its
// memory does not grow with the paths' length: it holds the top's descriptor (the caller's), the
// descriptor of the directory it is in, one listing buffer, and per level between them the inode
// of the directory it left (8 bytes); never a path or a descriptor per level.
//
// It goes down one directory at a time. The directory it is in, cur, is listed from its start;
// each file, symlink or empty directory is removed relative to cur's descriptor; the first
// directory that is not empty is opened with O_NOFOLLOW relative to cur, checked not to be the
// root of a mount (its device is the top's and statx(2) does not mark it), and becomes cur, the
// old one's descriptor closed and its inode recorded. Once a listing of cur from its start finds
// nothing, the walk goes back up: the parent is opened as ".." relative to cur and must be the
// directory recorded on the way down (same device and inode), or the walk stops with
// ErrUnexpectedFile; there the listing starts again from the start, and finds the now empty
// directory to remove (should rmdir still find it not empty, that is the error, so nothing is
// walked forever). The top itself is never reopened. So a directory a container moves or
// swaps for a symlink meanwhile makes the walk stop or go on below the top, never leave it.
type treeRemoval struct {
	l *Linux
	// top is the caller's descriptor of the top directory; path its path, for errors; dev its
	// device, which every directory entered must have.
	top  int
	path string
	dev  uint64
	// cur is the directory the walk is in (top, or a descriptor it owns), curIno its inode, and
	// above the inodes of the directories from the top down to cur's parent.
	cur    int
	curIno uint64
	above  []uint64
	// left is the inode of the directory the walk last came up from, found empty: if rmdir
	// still finds it not empty, it is an error, not a directory to enter again.
	left uint64
	list dirents
}

// emptyTree removes everything below the open directory top, whose stat is topSt and path is
// path, without following a symlink or crossing a mount (see treeRemoval). top is left open,
// listed to its end.
func (l *Linux) emptyTree(top int, topSt *unix.Stat_t, path string) error {
	w := &treeRemoval{l: l, top: top, path: path, dev: uint64(topSt.Dev), cur: top, curIno: topSt.Ino}
	w.list.buf = make([]byte, direntBufSize)
	defer w.closeCur()
	if err := w.rewind(); err != nil {
		return err
	}
	return w.run()
}

// run lists cur again from its start until a pass finds nothing, removing or entering what it
// finds, and goes up once it does, until the top is empty.
func (w *treeRemoval) run() error {
	seen := 0
	for {
		name, err := w.list.next(w.cur)
		if err != nil {
			return fmt.Errorf("error reading %s: %w", w.pathOf(""), err)
		}
		if name != "" {
			seen++
			entered, err := w.remove(name)
			if err != nil {
				return err
			}
			if entered {
				seen = 0
			}
			continue
		}
		switch {
		case seen > 0:
			// Removing entries may make a listing skip others: look again.
			err = w.rewind()
		case len(w.above) == 0:
			return nil
		default:
			err = w.up()
		}
		if err != nil {
			return err
		}
		seen = 0
	}
}

// remove removes name below cur when it is a file, a symlink or an empty directory, and enters
// it (reporting true) when it is a directory with content.
func (w *treeRemoval) remove(name string) (entered bool, err error) {
	var st unix.Stat_t
	if err := unix.Fstatat(w.cur, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		if err == unix.ENOENT {
			return false, nil
		}
		return false, &os.PathError{Op: "lstat", Path: w.pathOf(name), Err: err}
	}
	flags := 0
	if st.Mode&unix.S_IFMT == unix.S_IFDIR {
		flags = unix.AT_REMOVEDIR
	}
	// A mount point fails with EBUSY, an empty directory goes at once: only one with content is
	// entered.
	err = unix.Unlinkat(w.cur, name, flags)
	switch {
	case err == nil || err == unix.ENOENT:
		return false, nil
	case flags != 0 && (err == unix.ENOTEMPTY || err == unix.EEXIST) && st.Ino != w.left:
		return w.down(name)
	}
	return false, removeError(err, w.pathOf(name))
}

// down makes the directory name below cur the one the walk is in, refusing a symlink swapped in
// since it was looked at and the root of a mount. A name gone meanwhile is skipped.
func (w *treeRemoval) down(name string) (bool, error) {
	fd, err := unix.Openat(w.cur, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	switch err {
	case nil:
	case unix.ENOENT:
		return false, nil
	case unix.ELOOP, unix.ENOTDIR:
		return false, &kindError{Kind: ErrUnexpectedFile, Msg: fmt.Sprintf("%s is not a directory any more: it was replaced while it was removed", w.pathOf(name)), Cause: err}
	default:
		return false, fmt.Errorf("error reading %s: %w", w.pathOf(name), &os.PathError{Op: "open", Path: w.pathOf(name), Err: err})
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		_ = unix.Close(fd)
		return false, &os.PathError{Op: "stat", Path: w.pathOf(name), Err: err}
	}
	mounted := uint64(st.Dev) != w.dev
	if !mounted {
		if mounted, err = w.l.isMountRoot(fd); err != nil {
			_ = unix.Close(fd)
			return false, pathError(err, procFD(fd), w.pathOf(name))
		}
	}
	if mounted {
		_ = unix.Close(fd)
		return false, mountPointError(nil, w.pathOf(name))
	}
	w.above = append(w.above, w.curIno)
	w.closeCur()
	w.cur, w.curIno = fd, st.Ino
	w.list.reset()
	return true, nil
}

// up makes cur's parent the directory the walk is in, once cur is empty; the parent must be the
// directory the walk came from.
func (w *treeRemoval) up() error {
	want := w.above[len(w.above)-1]
	parent := w.top
	if len(w.above) > 1 {
		fd, err := unix.Openat(w.cur, "..", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return &os.PathError{Op: "open", Path: w.pathOf(".."), Err: err}
		}
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			_ = unix.Close(fd)
			return &os.PathError{Op: "stat", Path: w.pathOf(".."), Err: err}
		}
		if uint64(st.Dev) != w.dev || st.Ino != want {
			_ = unix.Close(fd)
			return &kindError{Kind: ErrUnexpectedFile, Msg: fmt.Sprintf("%s was moved while it was removed: its parent is not the directory it was entered from", w.pathOf(""))}
		}
		parent = fd
	}
	w.left = w.curIno
	w.closeCur()
	w.cur, w.curIno = parent, want
	w.above = w.above[:len(w.above)-1]
	return w.rewind()
}

// rewind starts listing cur again from its start.
func (w *treeRemoval) rewind() error {
	w.list.reset()
	if _, err := unix.Seek(w.cur, 0, 0); err != nil {
		return fmt.Errorf("error reading %s: %w", w.pathOf(""), err)
	}
	return nil
}

// closeCur closes cur's descriptor unless it is the top's, which is the caller's.
func (w *treeRemoval) closeCur() {
	if w.cur != w.top {
		_ = unix.Close(w.cur)
	}
	w.cur = w.top
}

// pathOf is the path of name in cur ("" for cur itself), for an error: the top's path as the
// caller gave it, then the rest of the way to cur as the kernel names it (/proc/self/fd), so
// only a failing walk pays for it. When the kernel cannot name it (longer than PATH_MAX) or cur
// is no longer below the top, it says how deep below the top it is.
func (w *treeRemoval) pathOf(name string) string {
	if w.cur == w.top {
		return filepath.Join(w.path, name)
	}
	top, err := os.Readlink(procFD(w.top))
	if err == nil {
		var cur string
		if cur, err = os.Readlink(procFD(w.cur)); err == nil {
			if rel, err := filepath.Rel(top, cur); err == nil && filepath.IsLocal(rel) && !strings.HasSuffix(cur, " (deleted)") {
				return filepath.Join(w.path, rel, name)
			}
		}
	}
	if name == "" {
		return fmt.Sprintf("a directory %d levels below %s", len(w.above), w.path)
	}
	return fmt.Sprintf("%s, %d levels below %s", name, len(w.above)+1, w.path)
}

// dirents lists directories with getdents(2) through one buffer, one name at a time.
type dirents struct {
	buf        []byte
	start, end int
	names      []string
}

// reset forgets what was read, for a new listing or another directory.
func (d *dirents) reset() { d.start, d.end = 0, 0 }

// next returns the next name in the directory fd ("." and ".." left out), or "" at its end.
func (d *dirents) next(fd int) (string, error) {
	for {
		if d.start < d.end {
			n, _, names := unix.ParseDirent(d.buf[d.start:d.end], 1, d.names[:0])
			d.start += n
			d.names = names
			if len(names) > 0 {
				return names[0], nil
			}
			continue
		}
		n, err := unix.Getdents(fd, d.buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return "", err
		}
		if n <= 0 {
			return "", nil
		}
		d.start, d.end = 0, n
	}
}
