package hostfs

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"sort"
	"sync"
	"syscall"
)

// Memory is an in-memory file tree with the same methods and error values as [OS]. Build it with
// [NewMemory] (the zero value also works). It is safe for concurrent use. See the package
// documentation for what it does not model.
type Memory struct {
	mu      sync.RWMutex
	root    *node
	lastIno uint64
}

// specialBits are the mode bits besides the permissions that chmod and creat keep.
const specialBits = fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// NewMemory returns an empty tree holding only the root directory "/", mode 0755.
func NewMemory() *Memory {
	m := &Memory{}
	m.rootLocked()
	return m
}

// rootLocked returns the root, creating it on first use so the zero Memory works. Callers hold m.mu
// for writing, or have already created the root.
func (m *Memory) rootLocked() *node {
	if m.root == nil {
		m.root = m.newNode(kindDir, 0o755)
		m.root.parent = m.root
	}
	return m.root
}

func (m *Memory) newNode(kind nodeKind, perm fs.FileMode) *node {
	m.lastIno++
	n := &node{kind: kind, ino: m.lastIno, perm: uint32(perm & (fs.ModePerm | specialBits))}
	if kind == kindDir {
		n.children = map[string]*node{}
	}
	return n
}

// rlock takes the read lock, making sure the root exists first.
func (m *Memory) rlock() {
	m.mu.RLock()
	if m.root == nil {
		m.mu.RUnlock()
		m.mu.Lock()
		m.rootLocked()
		m.mu.Unlock()
		m.mu.RLock()
	}
}

func pathErr(op, p string, err error) error { return &fs.PathError{Op: op, Path: p, Err: err} }

// MkdirAll creates path and any missing parents with perm, like os.MkdirAll: an existing directory
// (or symlink to one) is success, an existing non-directory is ENOTDIR, and a dangling symlink in the
// way is EEXIST.
func (m *Memory) MkdirAll(p string, perm fs.FileMode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.mkdirAllLocked(p, perm)
}

// mkdirAllLocked follows os.MkdirAll step by step so that errors (and the path they name) match.
func (m *Memory) mkdirAllLocked(p string, perm fs.FileMode) error {
	if res, err := m.walk(p, follow); err == nil && res.n != nil {
		if res.n.kind == kindDir {
			return nil
		}
		return pathErr("mkdir", p, syscall.ENOTDIR)
	}
	i := len(p)
	for i > 0 && p[i-1] == '/' {
		i--
	}
	j := i
	for j > 0 && p[j-1] != '/' {
		j--
	}
	if j > 1 {
		if err := m.mkdirAllLocked(p[:j-1], perm); err != nil {
			return err
		}
	}
	if err := m.mkdirLocked(p, perm); err != nil {
		if res, lerr := m.walk(p, noFollow); lerr == nil && res.n != nil && res.n.kind == kindDir {
			return nil
		}
		return err
	}
	return nil
}

func (m *Memory) mkdirLocked(p string, perm fs.FileMode) error {
	res, err := m.walk(p, create)
	if err != nil {
		return pathErr("mkdir", p, err)
	}
	if res.n != nil {
		return pathErr("mkdir", p, syscall.EEXIST)
	}
	d := m.newNode(kindDir, perm)
	d.parent = res.dir
	res.dir.children[res.name] = d
	return nil
}

// openForWrite resolves p as open(2) with O_CREAT does: following a final symlink, creating a
// missing file with perm, refusing directories and a trailing "/". The caller holds m.mu.
func (m *Memory) openForWrite(p string, perm fs.FileMode) (*node, error) {
	res, err := m.walk(p, openCreate)
	if err != nil {
		return nil, pathErr("open", p, err)
	}
	if res.trailing {
		return nil, pathErr("open", p, syscall.EISDIR)
	}
	if res.n == nil {
		f := m.newNode(kindFile, perm)
		res.dir.children[res.name] = f
		return f, nil
	}
	if res.n.kind == kindDir {
		return nil, pathErr("open", p, syscall.EISDIR)
	}
	return res.n, nil
}

// WriteFile writes data to path in place, as OS.WriteFile does: an existing file keeps its
// identity and mode (a write here cannot fail midway), a final symlink is followed (a dangling one creates its target), and
// perm is used only for a new file, exactly as given.
func (m *Memory) WriteFile(p string, data []byte, perm fs.FileMode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	f, err := m.openForWrite(p, perm)
	if err != nil {
		return err
	}
	if len(data) != len(f.data) {
		// A FileInfo shows the size, and nothing else a rewrite changes.
		f.changed()
	}
	if cap(f.data) >= len(data) {
		// No reader holds f.data (reads copy under the lock), so a rewrite reuses its space.
		f.data = append(f.data[:0], data...)
	} else {
		f.data = append([]byte(nil), data...)
	}
	return nil
}

// Create creates path as an empty file with mode 0666, or truncates it if it exists, like os.Create
// followed by Close (without the umask).
func (m *Memory) Create(p string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	f, err := m.openForWrite(p, 0o666)
	if err != nil {
		return err
	}
	if len(f.data) != 0 {
		f.changed()
	}
	f.data = nil
	return nil
}

// Chmod sets the permission and setuid/setgid/sticky bits of path, following a final symlink.
func (m *Memory) Chmod(p string, perm fs.FileMode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	res, err := m.walk(p, follow)
	if err == nil && res.n == nil {
		err = syscall.ENOENT
	}
	if err != nil {
		return pathErr("chmod", p, err)
	}
	if bits := uint32(perm & (fs.ModePerm | specialBits)); bits != res.n.perm {
		res.n.changed()
		res.n.perm = bits
	}
	return nil
}

// ReadFile returns a copy of the contents of path, following symlinks.
func (m *Memory) ReadFile(p string) ([]byte, error) {
	m.rlock()
	defer m.mu.RUnlock()
	n, err := m.existing("open", p, follow)
	if err != nil {
		return nil, err
	}
	if n.kind == kindDir {
		return nil, pathErr("read", p, syscall.EISDIR)
	}
	return append([]byte{}, n.data...), nil
}

// existing resolves a path that must exist. The caller holds m.mu.
func (m *Memory) existing(op, p string, mode walkMode) (*node, error) {
	res, err := m.walk(p, mode)
	if err == nil && res.n == nil {
		err = syscall.ENOENT
	}
	if err != nil {
		return nil, pathErr(op, p, err)
	}
	return res.n, nil
}

// Open opens path for reading, following symlinks. Reads see the file's contents at the time of
// each Read; a directory can be listed with ReadDir (it implements fs.ReadDirFile).
func (m *Memory) Open(p string) (fs.File, error) {
	m.rlock()
	defer m.mu.RUnlock()
	n, err := m.existing("open", p, follow)
	if err != nil {
		return nil, err
	}
	return &memFile{m: m, n: n, name: p}, nil
}

// OpenBeneath opens path for reading as if root were the file system's root, with OS.OpenBeneath's
// semantics: symlinks (absolute or relative) and ".." are resolved inside root and never leave it,
// and only regular files and directories are opened (anything else is ErrNotRegular). root itself
// is resolved normally and must be a directory.
func (m *Memory) OpenBeneath(root, p string) (fs.File, error) {
	m.rlock()
	defer m.mu.RUnlock()
	r, err := m.existing("open", root, follow)
	if err != nil {
		return nil, err
	}
	if r.kind != kindDir {
		return nil, pathErr("open", root, syscall.ENOTDIR)
	}
	res, err := m.walkIn(r, p, follow)
	if err == nil && res.n == nil {
		err = syscall.ENOENT
	}
	if err != nil {
		return nil, pathErr("open", p, err)
	}
	return &memFile{m: m, n: res.n, name: p}, nil
}

// Stat describes path, following symlinks. Its Sys is a *MemoryStat.
func (m *Memory) Stat(p string) (fs.FileInfo, error) {
	m.rlock()
	defer m.mu.RUnlock()
	n, err := m.existing("stat", p, follow)
	if err != nil {
		return nil, err
	}
	return n.info(baseName(p)), nil
}

// Lstat describes path without following a final symlink. Its Sys is a *MemoryStat.
func (m *Memory) Lstat(p string) (fs.FileInfo, error) {
	m.rlock()
	defer m.mu.RUnlock()
	n, err := m.existing("lstat", p, noFollow)
	if err != nil {
		return nil, err
	}
	return n.info(baseName(p)), nil
}

// Readlink returns the target of the symlink at path; anything else is EINVAL.
func (m *Memory) Readlink(p string) (string, error) {
	m.rlock()
	defer m.mu.RUnlock()
	n, err := m.existing("readlink", p, noFollow)
	if err != nil {
		return "", err
	}
	if n.kind != kindSymlink {
		return "", pathErr("readlink", p, syscall.EINVAL)
	}
	return n.target, nil
}

// ReadDir lists the directory at path sorted by name, following symlinks. Entries describe each
// child without following it, as os.ReadDir does.
func (m *Memory) ReadDir(p string) ([]fs.DirEntry, error) {
	m.rlock()
	defer m.mu.RUnlock()
	n, err := m.existing("open", p, follow)
	if err != nil {
		return nil, err
	}
	if n.kind != kindDir {
		return nil, pathErr("open", p, syscall.ENOTDIR)
	}
	return n.entries(), nil
}

// Remove removes the file, symlink or empty directory at path, like os.Remove: a final symlink
// is removed, not followed; a directory that is not empty is ENOTEMPTY; "/" cannot be removed.
func (m *Memory) Remove(p string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	// As unlink(2) and rmdir(2), the final component is never followed, even before a "/".
	res, err := m.walk(p, create)
	if err == nil && res.n == nil {
		err = syscall.ENOENT
	}
	if err != nil {
		return pathErr("remove", p, err)
	}
	switch base := baseName(p); {
	case base == ".":
		// rmdir(2) refuses a final "." before looking at the directory, and a final ".." as not
		// empty; os.Remove reports rmdir's error.
		return pathErr("remove", p, syscall.EINVAL)
	case base == "..":
		return pathErr("remove", p, syscall.ENOTEMPTY)
	case res.trailing && res.n.kind != kindDir:
		return pathErr("remove", p, syscall.ENOTDIR)
	case res.name == "" || res.n == m.root:
		return pathErr("remove", p, syscall.EBUSY)
	case res.n.kind == kindDir && len(res.n.children) > 0:
		return pathErr("remove", p, syscall.ENOTEMPTY)
	}
	delete(res.dir.children, res.name)
	return nil
}

// RemoveAll removes path and everything below it, like os.RemoveAll: a symlink at or below path
// is removed, not followed (symlinks among path's parents are resolved, as by any lookup); a
// path that does not exist is no error. It stops at the first entry it cannot remove and returns
// that error.
func (m *Memory) RemoveAll(p string) error {
	fi, err := m.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if fi.IsDir() {
		entries, err := m.ReadDir(p)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := m.RemoveAll(path.Join(p, e.Name())); err != nil {
				return err
			}
		}
	}
	return m.Remove(p)
}

// Symlink creates newname as a symlink to oldname. newname must not exist, not even as a dangling
// symlink; oldname is stored as given and not checked, except that it may not be empty.
func (m *Memory) Symlink(oldname, newname string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	linkErr := func(err error) error {
		return &os.LinkError{Op: "symlink", Old: oldname, New: newname, Err: err}
	}
	if oldname == "" {
		return linkErr(syscall.ENOENT)
	}
	res, err := m.walk(newname, create)
	if err != nil {
		return linkErr(err)
	}
	if res.n != nil {
		return linkErr(syscall.EEXIST)
	}
	if res.trailing {
		return linkErr(syscall.ENOENT)
	}
	l := m.newNode(kindSymlink, 0o777)
	l.target = oldname
	res.dir.children[res.name] = l
	return nil
}

// entries lists a directory's children sorted by name. The caller holds m.mu.
func (n *node) entries() []fs.DirEntry {
	names := make([]string, 0, len(n.children))
	for name := range n.children {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make([]fs.DirEntry, len(names))
	for i, name := range names {
		out[i] = memDirEntry{n.children[name].info(name)}
	}
	return out
}
