package volumes

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// MemoryFS is the in-memory FS, for offline use and tests: a tree of directories, regular files
// and symlinks with modes and owners, under one lock. Names resolve as on the Linux FS: no
// symlink is ever followed.
//
// Current limitations: no umask, no permission checks (every caller acts as root), no special
// files, no mounts, no timestamps (ModTime is the zero time), no hard links.
type MemoryFS struct {
	mu   sync.Mutex
	root *memNode
}

var _ FS = (*MemoryFS)(nil)

type memNode struct {
	mode     fs.FileMode // type and permission bits
	data     []byte
	target   string
	children map[string]*memNode
	uid, gid int
}

// NewMemoryFS returns an empty volume directory with mode 0777, owned by 0:0.
func NewMemoryFS() *MemoryFS {
	return &MemoryFS{root: &memNode{mode: fs.ModeDir | 0o777, children: map[string]*memNode{}}}
}

// errNilFS is returned by the methods of a nil *MemoryFS.
var errNilFS = errors.New("nil MemoryFS")

// lock takes the lock and makes a zero MemoryFS an empty directory; false for a nil one.
func (m *MemoryFS) lock() bool {
	if m == nil {
		return false
	}
	m.mu.Lock()
	if m.root == nil {
		m.root = &memNode{mode: fs.ModeDir | 0o777, children: map[string]*memNode{}}
	}
	return true
}

func memErr(op, name string, err error) error { return &fs.PathError{Op: op, Path: name, Err: err} }

// lookupParent returns the directory holding name and name's last element.
func (m *MemoryFS) lookupParent(name string) (*memNode, string, error) {
	parts, err := elems(name)
	if err != nil {
		return nil, "", err
	}
	if len(parts) == 0 {
		return nil, ".", nil
	}
	dir := m.root
	for _, p := range parts[:len(parts)-1] {
		next, ok := dir.children[p]
		switch {
		case !ok:
			return nil, "", syscall.ENOENT
		case next.mode&fs.ModeSymlink != 0:
			return nil, "", syscall.ELOOP
		case !next.mode.IsDir():
			return nil, "", syscall.ENOTDIR
		}
		dir = next
	}
	return dir, parts[len(parts)-1], nil
}

// parentOf is lookupParent for an operation that changes the entry name: the root itself is
// refused with EBUSY, and an error names op and name.
func (m *MemoryFS) parentOf(op, name string) (*memNode, string, error) {
	dir, base, err := m.lookupParent(name)
	if err == nil && dir == nil {
		err = syscall.EBUSY
	}
	if err != nil {
		return nil, "", memErr(op, name, err)
	}
	return dir, base, nil
}

// lookup returns name's node.
func (m *MemoryFS) lookup(name string) (*memNode, error) {
	dir, base, err := m.lookupParent(name)
	if err != nil {
		return nil, err
	}
	if dir == nil {
		return m.root, nil
	}
	n, ok := dir.children[base]
	if !ok {
		return nil, syscall.ENOENT
	}
	return n, nil
}

// Lstat describes name without following it.
func (m *MemoryFS) Lstat(name string) (fs.FileInfo, error) {
	if !m.lock() {
		return nil, errNilFS
	}
	defer m.mu.Unlock()
	n, err := m.lookup(name)
	if err != nil {
		return nil, memErr("lstat", name, err)
	}
	base := name
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		base = name[i+1:]
	}
	return n.info(base), nil
}

// Owner returns the uid and gid of name, not following a symlink.
func (m *MemoryFS) Owner(name string) (uid, gid int, err error) {
	if !m.lock() {
		return 0, 0, errNilFS
	}
	defer m.mu.Unlock()
	n, err := m.lookup(name)
	if err != nil {
		return 0, 0, memErr("lstat", name, err)
	}
	return n.uid, n.gid, nil
}

// Readlink returns the target of the symlink name.
func (m *MemoryFS) Readlink(name string) (string, error) {
	if !m.lock() {
		return "", errNilFS
	}
	defer m.mu.Unlock()
	n, err := m.lookup(name)
	if err != nil {
		return "", memErr("readlink", name, err)
	}
	if n.mode&fs.ModeSymlink == 0 {
		return "", memErr("readlink", name, syscall.EINVAL)
	}
	return n.target, nil
}

// ReadFile returns a copy of the regular file name's contents.
func (m *MemoryFS) ReadFile(name string) ([]byte, error) {
	if !m.lock() {
		return nil, errNilFS
	}
	defer m.mu.Unlock()
	n, err := m.lookup(name)
	switch {
	case err != nil:
		return nil, memErr("open", name, err)
	case n.mode&fs.ModeSymlink != 0:
		return nil, memErr("open", name, syscall.ELOOP)
	case n.mode.IsDir():
		return nil, memErr("read", name, syscall.EISDIR)
	}
	return slices.Clone(n.data), nil
}

// ReadDir lists the directory name, sorted by name.
func (m *MemoryFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !m.lock() {
		return nil, errNilFS
	}
	defer m.mu.Unlock()
	n, err := m.lookup(name)
	switch {
	case err != nil:
		return nil, memErr("open", name, err)
	case n.mode&fs.ModeSymlink != 0:
		return nil, memErr("open", name, syscall.ELOOP)
	case !n.mode.IsDir():
		return nil, memErr("open", name, syscall.ENOTDIR)
	}
	out := make([]fs.DirEntry, 0, len(n.children))
	for k, c := range n.children {
		out = append(out, fs.FileInfoToDirEntry(c.info(k)))
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// create adds a node at name, which must not exist.
func (m *MemoryFS) create(op, name string, n *memNode) error {
	if !m.lock() {
		return errNilFS
	}
	defer m.mu.Unlock()
	dir, base, err := m.lookupParent(name)
	if err != nil {
		return memErr(op, name, err)
	}
	if dir == nil {
		return memErr(op, name, syscall.EEXIST)
	}
	if _, ok := dir.children[base]; ok {
		return memErr(op, name, syscall.EEXIST)
	}
	dir.children[base] = n
	return nil
}

// Mkdir creates the directory name with exactly perm.
func (m *MemoryFS) Mkdir(name string, perm fs.FileMode) error {
	return m.create("mkdir", name, &memNode{mode: fs.ModeDir | perm&(fs.ModePerm|fs.ModeSetgid|fs.ModeSticky), children: map[string]*memNode{}})
}

// WriteFile creates the file name with a copy of data and exactly perm.
func (m *MemoryFS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	return m.create("open", name, &memNode{mode: perm.Perm(), data: slices.Clone(data)})
}

// Symlink creates name as a symlink to target.
func (m *MemoryFS) Symlink(target, name string) error {
	return m.create("symlink", name, &memNode{mode: fs.ModeSymlink | 0o777, target: target})
}

// Rename moves oldname to newname, replacing a file or symlink (or an empty directory with a
// directory) there, as rename(2) does.
func (m *MemoryFS) Rename(oldname, newname string) error {
	if !m.lock() {
		return errNilFS
	}
	defer m.mu.Unlock()
	od, ob, err := m.parentOf("rename", oldname)
	if err != nil {
		return err
	}
	n, ok := od.children[ob]
	if !ok {
		return memErr("rename", oldname, syscall.ENOENT)
	}
	nd, nb, err := m.parentOf("rename", newname)
	if err != nil {
		return err
	}
	if old, ok := nd.children[nb]; ok && old != n {
		switch {
		case old.mode.IsDir() && !n.mode.IsDir():
			return memErr("rename", newname, syscall.EISDIR)
		case !old.mode.IsDir() && n.mode.IsDir():
			return memErr("rename", newname, syscall.ENOTDIR)
		case old.mode.IsDir() && len(old.children) > 0:
			return memErr("rename", newname, syscall.ENOTEMPTY)
		}
	}
	delete(od.children, ob)
	nd.children[nb] = n
	return nil
}

// Remove removes the file, symlink or empty directory name.
func (m *MemoryFS) Remove(name string) error {
	if !m.lock() {
		return errNilFS
	}
	defer m.mu.Unlock()
	dir, base, err := m.parentOf("remove", name)
	if err != nil {
		return err
	}
	n, ok := dir.children[base]
	if !ok {
		return memErr("remove", name, syscall.ENOENT)
	}
	if n.mode.IsDir() && len(n.children) > 0 {
		return memErr("remove", name, syscall.ENOTEMPTY)
	}
	delete(dir.children, base)
	return nil
}

// Lchown changes the owner of name; -1 keeps one.
func (m *MemoryFS) Lchown(name string, uid, gid int) error {
	if !m.lock() {
		return errNilFS
	}
	defer m.mu.Unlock()
	n, err := m.lookup(name)
	if err != nil {
		return memErr("lchown", name, err)
	}
	if uid != -1 {
		n.uid = uid
	}
	if gid != -1 {
		n.gid = gid
	}
	return nil
}

// Chmod sets the permission, setgid and sticky bits of name.
func (m *MemoryFS) Chmod(name string, mode fs.FileMode) error {
	if !m.lock() {
		return errNilFS
	}
	defer m.mu.Unlock()
	n, err := m.lookup(name)
	if err != nil {
		return memErr("chmod", name, err)
	}
	if n.mode&fs.ModeSymlink != 0 {
		return memErr("chmod", name, syscall.ELOOP)
	}
	n.mode = n.mode.Type() | mode&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)
	return nil
}

func (n *memNode) info(name string) fs.FileInfo {
	size := int64(len(n.data))
	if n.mode&fs.ModeSymlink != 0 {
		size = int64(len(n.target))
	}
	return &memInfo{name: name, mode: n.mode, size: size, uid: n.uid, gid: n.gid}
}

type memInfo struct {
	name     string
	mode     fs.FileMode
	size     int64
	uid, gid int
}

func (i *memInfo) Name() string       { return i.name }
func (i *memInfo) Size() int64        { return i.size }
func (i *memInfo) Mode() fs.FileMode  { return i.mode }
func (i *memInfo) ModTime() time.Time { return time.Time{} }
func (i *memInfo) IsDir() bool        { return i.mode.IsDir() }
func (i *memInfo) Sys() any           { return nil }
