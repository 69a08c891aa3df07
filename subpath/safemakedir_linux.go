package subpath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/internal/unixmode"
)

// maxSymlinks bounds symlink expansion while resolving a path, like the kernel's limit of 40.
const maxSymlinks = 40

// SafeMakeDir creates base/subdir and every missing parent with perm, including the setuid,
// setgid and sticky bits and regardless of the umask (kubelet: SafeMakeDir / doSafeMakeDir).
//
// Existing symlinks are resolved without ever leaving base: one that leads outside it (absolute
// or relative, in the middle or at the end), a loop and a dangling link are errors, not clamped;
// an absolute symlink that points back inside base works as in kubelet. Then every level is
// opened from base with O_NOFOLLOW, and each missing level is created with mkdirat(2) relative to
// its parent's descriptor and opened before going on, so a directory swapped for a symlink
// meanwhile makes the call fail instead of creating anything outside base. A final element that
// is not a directory gives a *os.PathError with ENOTDIR; a failed mkdirat is
// "cannot create directory <path>: <errno>", so errors.Is(err, os.ErrExist) works.
//
// Its inputs are checked first, with mounts.ValidateSubPath's rules and texts (category
// mounts.ErrInvalidSubPath): base must be an absolute path, and subdir a relative path (empty for base itself)
// with no ".." element, NUL byte or invalid UTF-8.
func (l *Linux) SafeMakeDir(subdir, base string, perm os.FileMode) error {
	if err := checkMakeDirInputs(subdir, base); err != nil {
		return err
	}
	realBase, err := filepath.EvalSymlinks(base)
	if err != nil {
		return fmt.Errorf("error resolving symlinks in %s: %w", base, err)
	}
	pathname := filepath.Join(realBase, subdir)
	if !pathWithinBase(pathname, realBase) {
		return &kindError{Kind: ErrOutsideBase, Msg: fmt.Sprintf("path %s is outside of allowed base %s", pathname, realBase)}
	}
	existing, missing, err := resolveExisting(realBase, filepath.Clean(base), pathname)
	if err != nil {
		return err
	}
	baseFD, err := openDir(realBase)
	if err != nil {
		return err
	}
	defer func() { _ = unix.Close(baseFD) }()
	parentFD, _, err := l.openBeneath(baseFD, realBase, existing, true)
	if err != nil {
		return fmt.Errorf("cannot open directory %s: %w", filepath.Join(realBase, filepath.Join(existing...)), err)
	}
	defer func() { _ = unix.Close(parentFD) }()
	cur := filepath.Join(append([]string{realBase}, existing...)...)
	for _, name := range missing {
		if name == "." || name == ".." {
			return &kindError{Kind: ErrOutsideBase, Msg: fmt.Sprintf("path %s is outside of allowed base %s", pathname, realBase)}
		}
		cur = filepath.Join(cur, name)
		childFD, err := makeDirAt(parentFD, name, cur, perm)
		if err != nil {
			return err
		}
		_ = unix.Close(parentFD)
		parentFD = childFD
	}
	return nil
}

// makeDirAt creates the single element name in parentFD, opens it without following a symlink
// and sets its mode. A directory another process created meanwhile is accepted as is.
func makeDirAt(parentFD int, name, path string, perm os.FileMode) (int, error) {
	mkErr := unix.Mkdirat(parentFD, name, uint32(perm.Perm()))
	if mkErr != nil && mkErr != unix.EEXIST {
		return -1, fmt.Errorf("cannot create directory %s: %w", path, mkErr)
	}
	fd, err := unix.Openat(parentFD, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		if mkErr != nil {
			return -1, fmt.Errorf("cannot create directory %s: %w", path, mkErr)
		}
		return -1, &kindError{Kind: ErrUnexpectedFile, Msg: fmt.Sprintf("cannot open %s: %v", path, err), Cause: err}
	}
	if mkErr != nil {
		return fd, nil
	}
	if err := unix.Fchmod(fd, unixmode.FromFileMode(perm)); err != nil {
		_ = unix.Close(fd)
		return -1, fmt.Errorf("chmod %q failed: %w", path, err)
	}
	return fd, nil
}

// element is one path element still to resolve; fromLink marks elements that came out of a
// symlink's target, so a missing one reveals a dangling link.
type element struct {
	name     string
	fromLink bool
}

// resolveExisting splits pathname (inside realBase) into the directories that exist, with every
// symlink resolved and kept inside base, and the elements still to create. It only lstats and
// reads links; the caller opens the result with O_NOFOLLOW, so a race here cannot widen access.
func resolveExisting(realBase, base, pathname string) (existing, missing []string, err error) {
	rel, err := filepath.Rel(realBase, pathname)
	if err != nil {
		return nil, nil, err
	}
	var pending []element
	for _, s := range splitPath(rel) {
		if s != "." {
			pending = append(pending, element{name: s})
		}
	}
	outside := func(p string) error {
		return &kindError{Kind: ErrOutsideBase, Msg: fmt.Sprintf("path %s is outside of allowed base %s", p, realBase)}
	}
	links := 0
	for len(pending) > 0 {
		e := pending[0]
		pending = pending[1:]
		dir := filepath.Join(append([]string{realBase}, existing...)...)
		switch e.name {
		case ".":
			continue
		case "..":
			if len(existing) == 0 {
				return nil, nil, outside(filepath.Join(dir, ".."))
			}
			existing = existing[:len(existing)-1]
			continue
		}
		cur := filepath.Join(dir, e.name)
		fi, err := os.Lstat(cur)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if e.fromLink {
				return nil, nil, fmt.Errorf("error resolving symlinks in %s: dangling symlink: %w", pathname, err)
			}
			missing = []string{e.name}
			for _, r := range pending {
				missing = append(missing, r.name)
			}
			return existing, missing, nil
		case err != nil:
			return nil, nil, fmt.Errorf("error opening directory %s: %w", cur, err)
		case fi.IsDir():
			existing = append(existing, e.name)
		case fi.Mode()&fs.ModeSymlink != 0:
			links++
			if links > maxSymlinks {
				return nil, nil, fmt.Errorf("error resolving symlinks in %s: %w", pathname, unix.ELOOP)
			}
			target, err := os.Readlink(cur)
			if err != nil {
				return nil, nil, fmt.Errorf("error resolving symlinks in %s: %w", pathname, err)
			}
			var expanded []element
			if filepath.IsAbs(target) {
				target = filepath.Clean(target)
				switch {
				case pathWithinBase(target, realBase):
					target, _ = filepath.Rel(realBase, target)
				case pathWithinBase(target, base):
					target, _ = filepath.Rel(base, target)
				default:
					return nil, nil, outside(target)
				}
				existing = nil
			}
			for _, s := range splitPath(target) {
				expanded = append(expanded, element{name: s, fromLink: true})
			}
			pending = append(expanded, pending...)
		case len(pending) == 0:
			return nil, nil, &os.PathError{Op: "mkdir", Path: pathname, Err: unix.ENOTDIR}
		default:
			return nil, nil, &kindError{
				Kind:  ErrUnexpectedFile,
				Msg:   fmt.Sprintf("cannot create directory %s: %s is not a directory", pathname, cur),
				Cause: unix.ENOTDIR,
			}
		}
	}
	return existing, nil, nil
}
