package mountstest

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/podconfig/podconfig/mounts"
)

var _ mounts.HostUtils = (*HostUtils)(nil)

// Call is one recorded method call on a HostUtils or Subpather. Only the fields the method takes
// are set.
type Call struct {
	// Method is the method's name, e.g. "PathExists" or "PrepareSafeSubpath".
	Method string
	// Path is the path given to PathExists or GetMode, or the subdir given to SafeMakeDir.
	Path string
	// Base is SafeMakeDir's base.
	Base string
	// Perm is SafeMakeDir's perm.
	Perm os.FileMode
	// Subpath is PrepareSafeSubpath's argument.
	Subpath mounts.Subpath
	// PodDir and VolumeName are CleanSubPaths' arguments.
	PodDir, VolumeName string
}

// HostUtilsFuncs injects errors into a HostUtils. A nil func changes nothing; a func that returns
// an error makes the method return that error.
type HostUtilsFuncs struct {
	PathExists func(path string) error
	GetMode    func(path string) error
}

// HostUtils is an in-memory mounts.HostUtils: a set of paths with their modes. It is safe for
// concurrent use. Set Funcs before first use.
type HostUtils struct {
	// Funcs injects errors.
	Funcs HostUtilsFuncs

	mu    sync.Mutex
	modes map[string]os.FileMode
	calls []Call
}

// NewHostUtils returns a HostUtils that knows no paths.
func NewHostUtils() *HostUtils {
	return &HostUtils{modes: map[string]os.FileMode{}}
}

// AddPath records that path exists with mode.
func (h *HostUtils) AddPath(path string, mode os.FileMode) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.modes == nil {
		h.modes = map[string]os.FileMode{}
	}
	h.modes[filepath.Clean(path)] = mode
}

// RemovePaths forgets dir and every path below it, as removing the directory from the host
// would.
func (h *HostUtils) RemovePaths(dir string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	dir = filepath.Clean(dir)
	for p := range h.modes {
		if p == dir || strings.HasPrefix(p, dir+"/") || dir == "/" {
			delete(h.modes, p)
		}
	}
}

// PathExists reports whether path was added or created.
func (h *HostUtils) PathExists(path string) (bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, Call{Method: "PathExists", Path: path})
	if f := h.Funcs.PathExists; f != nil {
		if err := f(path); err != nil {
			return false, err
		}
	}
	if _, ok := h.modes[path]; ok {
		return true, nil
	}
	_, ok := h.modes[filepath.Clean(path)]
	return ok, nil
}

// GetMode returns the mode path was added with, or an error wrapping fs.ErrNotExist.
func (h *HostUtils) GetMode(path string) (os.FileMode, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, Call{Method: "GetMode", Path: path})
	if f := h.Funcs.GetMode; f != nil {
		if err := f(path); err != nil {
			return 0, err
		}
	}
	mode, ok := h.modes[filepath.Clean(path)]
	if !ok {
		return 0, &fs.PathError{Op: "stat", Path: path, Err: fs.ErrNotExist}
	}
	return mode, nil
}

// ResetCalls forgets the calls recorded so far, so a long benchmark does not grow without bound.
func (h *HostUtils) ResetCalls() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = h.calls[:0]
}

// Calls returns the calls made so far, oldest first.
func (h *HostUtils) Calls() []Call {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Call(nil), h.calls...)
}

// has reports whether path is known, without recording a call.
func (h *HostUtils) has(path string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.modes[path]; ok {
		return true
	}
	_, ok := h.modes[filepath.Clean(path)]
	return ok
}
