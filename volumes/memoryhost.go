package volumes

import (
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/podconfig/podconfig/hostfs"
)

// MemoryHost is the in-memory Host, for offline use and tests: directories and hostPath files in
// a hostfs.Memory, each volume directory's contents in a MemoryFS of its own, mounts as a set of
// directories with their type and options.
//
// Current limitations: a MemoryFS does not see the hostfs.Memory (what a volume directory holds
// is only visible through OpenVolume); no special files (hostPath Socket, CharDevice and
// BlockDevice checks fail as "only recognise ..."); IsMountPoint only knows mounts made by Mount.
type MemoryHost struct {
	// Files holds the directories and the hostPath files.
	Files *hostfs.Memory

	mu      sync.Mutex
	volumes map[string]*MemoryFS
	mounts  map[string]string
}

var _ Host = (*MemoryHost)(nil)

// NewMemoryHost returns an empty MemoryHost.
func NewMemoryHost() *MemoryHost {
	return &MemoryHost{Files: hostfs.NewMemory(), volumes: map[string]*MemoryFS{}, mounts: map[string]string{}}
}

func (h *MemoryHost) init() *hostfs.Memory {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.Files == nil {
		h.Files = hostfs.NewMemory()
	}
	if h.volumes == nil {
		h.volumes = map[string]*MemoryFS{}
		h.mounts = map[string]string{}
	}
	return h.Files
}

// MakeDir creates base/rel with its parents.
func (h *MemoryHost) MakeDir(base, rel string, perm fs.FileMode) error {
	return h.init().MkdirAll(filepath.Join(base, rel), perm)
}

// OpenVolume returns the MemoryFS of dir, made on first use; dir must exist.
func (h *MemoryHost) OpenVolume(dir string) (FS, error) {
	files := h.init()
	fi, err := files.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: syscall.ENOTDIR}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	v, ok := h.volumes[dir]
	if !ok {
		v = NewMemoryFS()
		h.volumes[dir] = v
	}
	return v, nil
}

// Mount records a mount of fstype on dir.
func (h *MemoryHost) Mount(source, dir, fstype string, options []string) error {
	h.init()
	h.mu.Lock()
	defer h.mu.Unlock()
	h.mounts[dir] = fstype + " " + strings.Join(options, ",")
	return nil
}

// Mounted returns the type and options of the mount on dir ("tmpfs size=1024,noswap").
func (h *MemoryHost) Mounted(dir string) (string, bool) {
	h.init()
	h.mu.Lock()
	defer h.mu.Unlock()
	m, ok := h.mounts[dir]
	return m, ok
}

// IsMountPoint reports whether Mount was called on dir and Unmount not since.
func (h *MemoryHost) IsMountPoint(dir string) (bool, error) {
	_, ok := h.Mounted(dir)
	return ok, nil
}

// Unmount forgets the mount on dir and what it held.
func (h *MemoryHost) Unmount(dir string) error {
	h.init()
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.mounts[dir]; !ok {
		return &fs.PathError{Op: "unmount", Path: dir, Err: syscall.EINVAL}
	}
	delete(h.mounts, dir)
	delete(h.volumes, dir)
	return nil
}

// RemoveAll removes dir and below, refusing a mount point below or at dir.
func (h *MemoryHost) RemoveAll(dir string) error {
	files := h.init()
	h.mu.Lock()
	for m := range h.mounts {
		if m == dir || strings.HasPrefix(m, dir+"/") {
			h.mu.Unlock()
			return &fs.PathError{Op: "remove", Path: m, Err: syscall.EBUSY}
		}
	}
	for v := range h.volumes {
		if v == dir || strings.HasPrefix(v, dir+"/") {
			delete(h.volumes, v)
		}
	}
	h.mu.Unlock()
	return files.RemoveAll(dir)
}

// Stat describes path, following symlinks.
func (h *MemoryHost) Stat(path string) (fs.FileInfo, error) { return h.init().Stat(path) }

// MkdirAll creates path and its parents.
func (h *MemoryHost) MkdirAll(path string, perm fs.FileMode) error {
	return h.init().MkdirAll(path, perm)
}

// CreateFile creates path if missing.
func (h *MemoryHost) CreateFile(path string, perm fs.FileMode) error {
	files := h.init()
	if _, err := files.Lstat(path); err == nil {
		return nil
	}
	if err := files.WriteFile(path, nil, perm); err != nil {
		return err
	}
	return nil
}
