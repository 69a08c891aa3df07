package subpath

import (
	"fmt"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// openDir opens the directory dir itself, refusing a symlink there (kubelet's doSafeOpen opens
// its base with O_NOFOLLOW too).
func openDir(dir string) (int, error) {
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("cannot open directory %s: %w", dir, err)
	}
	return fd, nil
}

// openBeneath opens the elements below the directory baseFD (whose path is basePath) with O_PATH,
// following no symlink at all, and returns the new descriptor. The elements come from a path that
// was already resolved, so any symlink met here was swapped in since and is an error. When dirOnly
// is set the last element must be a directory as well. It returns the descriptor's fstat too.
func (l *Linux) openBeneath(baseFD int, basePath string, elems []string, dirOnly bool) (int, *unix.Stat_t, error) {
	if l.useOpenat2 {
		return openat2Beneath(baseFD, basePath, elems, dirOnly)
	}
	return walkBeneath(baseFD, basePath, elems, dirOnly)
}

// openat2Beneath resolves all elements in one openat2(2) call that the kernel keeps below baseFD
// and that fails on any symlink or magic link.
func openat2Beneath(baseFD int, basePath string, elems []string, dirOnly bool) (int, *unix.Stat_t, error) {
	rel := "."
	if len(elems) > 0 {
		rel = filepath.Join(elems...)
	}
	flags := uint64(unix.O_PATH | unix.O_NOFOLLOW | unix.O_CLOEXEC)
	if dirOnly {
		flags |= unix.O_DIRECTORY
	}
	how := &unix.OpenHow{
		Flags:   flags,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	full := filepath.Join(basePath, rel)
	for attempt := 0; ; attempt++ {
		fd, err := unix.Openat2(baseFD, rel, how)
		// RESOLVE_BENEATH answers EAGAIN when a rename raced with the lookup; retrying is safe.
		if err == unix.EAGAIN && attempt < 8 {
			continue
		}
		switch err {
		case nil:
		case unix.ENAMETOOLONG:
			// A path longer than PATH_MAX cannot go to openat2 in one piece; the walk takes it
			// one element at a time, so both resolvers accept the same paths.
			return walkBeneath(baseFD, basePath, elems, dirOnly)
		case unix.ELOOP, unix.EXDEV:
			return -1, nil, &kindError{Kind: ErrUnexpectedFile, Msg: fmt.Sprintf("unexpected symlink found %s", full), Cause: err}
		case unix.ENOTDIR:
			return -1, nil, &kindError{Kind: ErrUnexpectedFile, Msg: fmt.Sprintf("cannot open %s: %v", full, err), Cause: err}
		default:
			return -1, nil, fmt.Errorf("cannot open %s: %w", full, err)
		}
		st, err := checkOpened(fd, full, !dirOnly)
		if err != nil {
			_ = unix.Close(fd)
			return -1, nil, err
		}
		return fd, st, nil
	}
}

// walkBeneath is kubelet's doSafeOpen: one openat(O_NOFOLLOW|O_PATH) per element, each checked
// with fstat before it becomes the parent of the next. O_PATH means a FIFO is never opened for
// reading.
func walkBeneath(baseFD int, basePath string, elems []string, dirOnly bool) (int, *unix.Stat_t, error) {
	parent, err := unix.Dup(baseFD)
	if err != nil {
		return -1, nil, fmt.Errorf("cannot open directory %s: %w", basePath, err)
	}
	st, err := checkOpened(parent, basePath, false)
	if err != nil {
		_ = unix.Close(parent)
		return -1, nil, err
	}
	cur := basePath
	for i, name := range elems {
		if name == ".." || name == "." || name == "" {
			_ = unix.Close(parent)
			return -1, nil, &kindError{Kind: ErrOutsideBase, Msg: fmt.Sprintf("path %s is outside of allowed base %s", filepath.Join(cur, name), basePath)}
		}
		cur = filepath.Join(cur, name)
		child, err := unix.Openat(parent, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		_ = unix.Close(parent)
		if err != nil {
			return -1, nil, fmt.Errorf("cannot open %s: %w", cur, err)
		}
		last := i == len(elems)-1
		if st, err = checkOpened(child, cur, last && !dirOnly); err != nil {
			_ = unix.Close(child)
			return -1, nil, err
		}
		parent = child
	}
	return parent, st, nil
}

// checkOpened rejects a symlink, and anything but a directory unless anyType is set, and
// returns the fstat it checked.
func checkOpened(fd int, path string, anyType bool) (*unix.Stat_t, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, fmt.Errorf("error running fstat on %s with %w", path, err)
	}
	switch mode := st.Mode & unix.S_IFMT; {
	case mode == unix.S_IFLNK:
		return nil, &kindError{Kind: ErrUnexpectedFile, Msg: fmt.Sprintf("unexpected symlink found %s", path), Cause: unix.ELOOP}
	case mode != unix.S_IFDIR && !anyType:
		return nil, &kindError{Kind: ErrUnexpectedFile, Msg: fmt.Sprintf("cannot open %s: %v", path, unix.ENOTDIR), Cause: unix.ENOTDIR}
	}
	return &st, nil
}
