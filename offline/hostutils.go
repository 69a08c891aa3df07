package offline

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/podconfig/podconfig/mounts"
)

var _ mounts.HostUtils = (*HostUtils)(nil)

// HostUtils is the offline node's mounts.HostUtils: the host paths it knows, with their modes. A
// path exists when it was added (AddPath, Node.Volumes) or made by the Subpather that shares it;
// nothing is read from the machine. The zero value knows no paths; it is safe for concurrent use.
type HostUtils struct {
	mu    sync.Mutex
	modes map[string]os.FileMode
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

// PathExists reports whether path was added or made. It never fails.
func (h *HostUtils) PathExists(path string) (bool, error) {
	return h.has(path), nil
}

// GetMode returns the mode path was added with, or an error wrapping fs.ErrNotExist.
func (h *HostUtils) GetMode(path string) (os.FileMode, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	mode, ok := h.modes[filepath.Clean(path)]
	if !ok {
		return 0, &fs.PathError{Op: "stat", Path: path, Err: fs.ErrNotExist}
	}
	return mode, nil
}

// has reports whether path is known.
func (h *HostUtils) has(path string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.modes[path]; ok {
		return true
	}
	_, ok := h.modes[filepath.Clean(path)]
	return ok
}
