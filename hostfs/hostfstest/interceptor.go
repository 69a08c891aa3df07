package hostfstest

import (
	"io/fs"
	"sync/atomic"

	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/internal/errkind"
)

// FS is the whole method set of hostfs.OS and *hostfs.Memory. Production code declares the few
// methods it needs instead; this is for wrapping either backend in tests.
type FS interface {
	MkdirAll(path string, perm fs.FileMode) error
	WriteFile(path string, data []byte, perm fs.FileMode) error
	Create(path string) error
	Chmod(path string, perm fs.FileMode) error
	ReadFile(path string) ([]byte, error)
	Open(path string) (fs.File, error)
	OpenBeneath(root, path string) (fs.File, error)
	Stat(path string) (fs.FileInfo, error)
	Lstat(path string) (fs.FileInfo, error)
	Readlink(path string) (string, error)
	ReadDir(path string) ([]fs.DirEntry, error)
	Symlink(oldname, newname string) error
	Remove(path string) error
}

var (
	_ FS = hostfs.OS{}
	_ FS = (*hostfs.Memory)(nil)
	_ FS = (*Interceptor)(nil)
)

// Funcs replaces methods of a wrapped FS. A nil field calls through to the wrapped FS; a set one
// is called instead, with the wrapped FS so it can still call through (to fail only some paths, or
// to fail after the real operation).
type Funcs struct {
	MkdirAll  func(fsys FS, path string, perm fs.FileMode) error
	WriteFile func(fsys FS, path string, data []byte, perm fs.FileMode) error
	Create    func(fsys FS, path string) error
	Chmod     func(fsys FS, path string, perm fs.FileMode) error
	ReadFile  func(fsys FS, path string) ([]byte, error)
	Open      func(fsys FS, path string) (fs.File, error)
	// OpenBeneath replaces the safe open inside a root; nil forwards it, so a wrapper keeps the
	// wrapped backend's guarantee.
	OpenBeneath func(fsys FS, root, path string) (fs.File, error)
	Stat        func(fsys FS, path string) (fs.FileInfo, error)
	Lstat       func(fsys FS, path string) (fs.FileInfo, error)
	Readlink    func(fsys FS, path string) (string, error)
	ReadDir     func(fsys FS, path string) ([]fs.DirEntry, error)
	Symlink     func(fsys FS, oldname, newname string) error
	Remove      func(fsys FS, path string) error
}

// Interceptor is an FS that routes each call through Funcs. It counts calls so a test can check
// that nothing was attempted after an error. It is safe for concurrent use if the Funcs are.
// Build it with Wrap: a zero Interceptor wraps no FS, and every call it forwards fails with
// ErrNoFS.
type Interceptor struct {
	fsys  FS
	funcs Funcs
	calls atomic.Int64
}

// ErrNoFS is the error of every call an Interceptor that wraps no FS forwards.
var ErrNoFS = errkind.Sentinel(errkind.InvalidOptions, "hostfstest: the Interceptor wraps no FS (build it with Wrap)")

// Wrap returns an Interceptor over fsys. A nil fsys makes every forwarded call fail with ErrNoFS.
func Wrap(fsys FS, funcs Funcs) *Interceptor {
	return &Interceptor{fsys: fsys, funcs: funcs}
}

// inner is the wrapped FS, or noFS for a zero Interceptor.
func (i *Interceptor) inner() FS {
	if i.fsys == nil {
		return noFS{}
	}
	return i.fsys
}

// Calls returns how many methods have been called so far.
func (i *Interceptor) Calls() int { return int(i.calls.Load()) }

// MkdirAll calls Funcs.MkdirAll or the wrapped FS.
func (i *Interceptor) MkdirAll(path string, perm fs.FileMode) error {
	i.calls.Add(1)
	if i.funcs.MkdirAll != nil {
		return i.funcs.MkdirAll(i.inner(), path, perm)
	}
	return i.inner().MkdirAll(path, perm)
}

// WriteFile calls Funcs.WriteFile or the wrapped FS.
func (i *Interceptor) WriteFile(path string, data []byte, perm fs.FileMode) error {
	i.calls.Add(1)
	if i.funcs.WriteFile != nil {
		return i.funcs.WriteFile(i.inner(), path, data, perm)
	}
	return i.inner().WriteFile(path, data, perm)
}

// Create calls Funcs.Create or the wrapped FS.
func (i *Interceptor) Create(path string) error {
	i.calls.Add(1)
	if i.funcs.Create != nil {
		return i.funcs.Create(i.inner(), path)
	}
	return i.inner().Create(path)
}

// Chmod calls Funcs.Chmod or the wrapped FS.
func (i *Interceptor) Chmod(path string, perm fs.FileMode) error {
	i.calls.Add(1)
	if i.funcs.Chmod != nil {
		return i.funcs.Chmod(i.inner(), path, perm)
	}
	return i.inner().Chmod(path, perm)
}

// ReadFile calls Funcs.ReadFile or the wrapped FS.
func (i *Interceptor) ReadFile(path string) ([]byte, error) {
	i.calls.Add(1)
	if i.funcs.ReadFile != nil {
		return i.funcs.ReadFile(i.inner(), path)
	}
	return i.inner().ReadFile(path)
}

// Open calls Funcs.Open or the wrapped FS.
func (i *Interceptor) Open(path string) (fs.File, error) {
	i.calls.Add(1)
	if i.funcs.Open != nil {
		return i.funcs.Open(i.inner(), path)
	}
	return i.inner().Open(path)
}

// OpenBeneath calls Funcs.OpenBeneath or the wrapped FS, whose guarantee it keeps.
func (i *Interceptor) OpenBeneath(root, path string) (fs.File, error) {
	i.calls.Add(1)
	if i.funcs.OpenBeneath != nil {
		return i.funcs.OpenBeneath(i.inner(), root, path)
	}
	return i.inner().OpenBeneath(root, path)
}

// Stat calls Funcs.Stat or the wrapped FS.
func (i *Interceptor) Stat(path string) (fs.FileInfo, error) {
	i.calls.Add(1)
	if i.funcs.Stat != nil {
		return i.funcs.Stat(i.inner(), path)
	}
	return i.inner().Stat(path)
}

// Lstat calls Funcs.Lstat or the wrapped FS.
func (i *Interceptor) Lstat(path string) (fs.FileInfo, error) {
	i.calls.Add(1)
	if i.funcs.Lstat != nil {
		return i.funcs.Lstat(i.inner(), path)
	}
	return i.inner().Lstat(path)
}

// Readlink calls Funcs.Readlink or the wrapped FS.
func (i *Interceptor) Readlink(path string) (string, error) {
	i.calls.Add(1)
	if i.funcs.Readlink != nil {
		return i.funcs.Readlink(i.inner(), path)
	}
	return i.inner().Readlink(path)
}

// ReadDir calls Funcs.ReadDir or the wrapped FS.
func (i *Interceptor) ReadDir(path string) ([]fs.DirEntry, error) {
	i.calls.Add(1)
	if i.funcs.ReadDir != nil {
		return i.funcs.ReadDir(i.inner(), path)
	}
	return i.inner().ReadDir(path)
}

// Symlink calls Funcs.Symlink or the wrapped FS.
func (i *Interceptor) Symlink(oldname, newname string) error {
	i.calls.Add(1)
	if i.funcs.Symlink != nil {
		return i.funcs.Symlink(i.inner(), oldname, newname)
	}
	return i.inner().Symlink(oldname, newname)
}

// Remove calls Funcs.Remove or the wrapped FS.
func (i *Interceptor) Remove(path string) error {
	i.calls.Add(1)
	if i.funcs.Remove != nil {
		return i.funcs.Remove(i.inner(), path)
	}
	return i.inner().Remove(path)
}

// noFS is the FS of an Interceptor that wraps none: every call fails with ErrNoFS.
type noFS struct{}

func fail(op, path string) error { return &fs.PathError{Op: op, Path: path, Err: ErrNoFS} }

func (noFS) MkdirAll(path string, _ fs.FileMode) error            { return fail("mkdir", path) }
func (noFS) WriteFile(path string, _ []byte, _ fs.FileMode) error { return fail("write", path) }
func (noFS) Create(path string) error                             { return fail("create", path) }
func (noFS) Chmod(path string, _ fs.FileMode) error               { return fail("chmod", path) }
func (noFS) ReadFile(path string) ([]byte, error)                 { return nil, fail("read", path) }
func (noFS) Open(path string) (fs.File, error)                    { return nil, fail("open", path) }
func (noFS) OpenBeneath(_, path string) (fs.File, error)          { return nil, fail("open", path) }
func (noFS) Stat(path string) (fs.FileInfo, error)                { return nil, fail("stat", path) }
func (noFS) Lstat(path string) (fs.FileInfo, error)               { return nil, fail("lstat", path) }
func (noFS) Readlink(path string) (string, error)                 { return "", fail("readlink", path) }
func (noFS) ReadDir(path string) ([]fs.DirEntry, error)           { return nil, fail("readdirent", path) }
func (noFS) Symlink(_, newname string) error                      { return fail("symlink", newname) }
func (noFS) Remove(path string) error                             { return fail("remove", path) }
