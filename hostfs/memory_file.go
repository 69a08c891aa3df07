package hostfs

import (
	"io"
	"io/fs"
	"sync"
	"syscall"
	"time"
)

// memInfo is a snapshot of a node taken under the tree's lock, so it stays consistent however the
// tree changes afterwards.
type memInfo struct {
	name string
	size int64
	mode fs.FileMode
	sys  MemoryStat
}

func (fi *memInfo) Name() string       { return fi.name }
func (fi *memInfo) Size() int64        { return fi.size }
func (fi *memInfo) Mode() fs.FileMode  { return fi.mode }
func (fi *memInfo) ModTime() time.Time { return time.Time{} }
func (fi *memInfo) IsDir() bool        { return fi.mode.IsDir() }

// Sys returns a copy of the MemoryStat, so a caller that changes it cannot change the memInfo,
// which other lookups share.
func (fi *memInfo) Sys() any {
	st := fi.sys
	return &st
}

// info describes n under the given name. A lookup of an unchanged node under the same name as the
// last one gets the same (immutable) memInfo instead of a new one. The caller holds m.mu.
func (n *node) info(name string) *memInfo {
	if fi := n.fi.Load(); fi != nil && fi.name == name {
		return fi
	}
	fi := n.newInfo(name)
	n.fi.Store(fi)
	return fi
}

// changed drops n's shared FileInfo; call it, holding m.mu for writing, whenever n's permissions
// or data change.
func (n *node) changed() { n.fi.Store(nil) }

func (n *node) newInfo(name string) *memInfo {
	fi := &memInfo{name: name, mode: fs.FileMode(n.perm), sys: MemoryStat{Ino: n.ino}}
	switch n.kind {
	case kindDir:
		fi.mode |= fs.ModeDir
	case kindFile:
		fi.size = int64(len(n.data))
	case kindSymlink:
		fi.mode = fs.ModeSymlink | 0o777
		fi.size = int64(len(n.target))
	}
	return fi
}

// memDirEntry is a directory entry of a Memory, what fs.FileInfoToDirEntry makes of its memInfo.
// Holding only the pointer, it is stored in an interface without an allocation of its own.
type memDirEntry struct{ fi *memInfo }

func (e memDirEntry) Name() string               { return e.fi.name }
func (e memDirEntry) IsDir() bool                { return e.fi.IsDir() }
func (e memDirEntry) Type() fs.FileMode          { return e.fi.mode.Type() }
func (e memDirEntry) Info() (fs.FileInfo, error) { return e.fi, nil }
func (e memDirEntry) String() string             { return fs.FormatDirEntry(e) }

// memFile is a read-only open file of a Memory.
type memFile struct {
	m    *Memory
	n    *node
	name string

	mu     sync.Mutex
	off    int64
	closed bool
	// dir is the directory stream, made by the first ReadDir; a file that is only read (the usual
	// case) does not carry it.
	dir *dirStream
}

// dirStream is what is left to list of a directory opened with Open.
type dirStream struct {
	entries []fs.DirEntry
}

var _ fs.ReadDirFile = (*memFile)(nil)

func (f *memFile) Stat() (fs.FileInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil, pathErr("stat", f.name, fs.ErrClosed)
	}
	f.m.mu.RLock()
	defer f.m.mu.RUnlock()
	return f.n.info(baseName(f.name)), nil
}

func (f *memFile) Read(b []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return 0, pathErr("read", f.name, fs.ErrClosed)
	}
	if f.n.kind == kindDir {
		return 0, pathErr("read", f.name, syscall.EISDIR)
	}
	f.m.mu.RLock()
	defer f.m.mu.RUnlock()
	if f.off >= int64(len(f.n.data)) {
		return 0, io.EOF
	}
	n := copy(b, f.n.data[f.off:])
	f.off += int64(n)
	return n, nil
}

// ReadDir lists the directory as of the first call, as a directory stream does, n entries at a time
// when n > 0 (io.EOF at the end), or all remaining ones when n <= 0.
func (f *memFile) ReadDir(n int) ([]fs.DirEntry, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil, pathErr("readdirent", f.name, fs.ErrClosed)
	}
	if f.n.kind != kindDir {
		return nil, pathErr("readdirent", f.name, syscall.ENOTDIR)
	}
	if f.dir == nil {
		f.m.mu.RLock()
		f.dir = &dirStream{entries: f.n.entries()}
		f.m.mu.RUnlock()
	}
	d := f.dir
	if n <= 0 {
		out := d.entries
		d.entries = nil
		return out, nil
	}
	if len(d.entries) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(d.entries))
	out := d.entries[:n:n]
	d.entries = d.entries[n:]
	return out, nil
}

func (f *memFile) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return pathErr("close", f.name, fs.ErrClosed)
	}
	f.closed = true
	return nil
}

// baseName names a file the way os does in a FileInfo: the last element, trailing slashes dropped.
func baseName(p string) string {
	i := len(p) - 1
	for ; i > 0 && p[i] == '/'; i-- {
		p = p[:i]
	}
	for i--; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}
