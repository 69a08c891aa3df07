package mountstest

import (
	"os"
	"sync"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/offline"
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

// HostUtils is an offline.HostUtils whose PathExists and GetMode calls are recorded (Calls) and
// may be made to fail (Funcs). AddPath and RemovePaths change the paths it knows and are not
// recorded. It is safe for concurrent use. Set Funcs before first use.
type HostUtils struct {
	// Funcs injects errors.
	Funcs HostUtilsFuncs

	mu    sync.Mutex
	host  *offline.HostUtils
	calls []Call
}

// NewHostUtils returns a HostUtils that knows no paths.
func NewHostUtils() *HostUtils {
	return WrapHostUtils(offline.NewHostUtils())
}

// WrapHostUtils returns a HostUtils over host: the paths are host's, shared with whatever else
// uses it (an offline.Node's Volumes and Subpather).
func WrapHostUtils(host *offline.HostUtils) *HostUtils {
	return &HostUtils{host: host}
}

// paths is the offline.HostUtils the calls go to, made on first use of a zero HostUtils.
func (h *HostUtils) paths() *offline.HostUtils {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.host == nil {
		h.host = offline.NewHostUtils()
	}
	return h.host
}

// record appends c to the calls.
func (h *HostUtils) record(c Call) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, c)
}

// AddPath records that path exists with mode.
func (h *HostUtils) AddPath(path string, mode os.FileMode) {
	h.paths().AddPath(path, mode)
}

// RemovePaths forgets dir and every path below it, as removing the directory from the host
// would.
func (h *HostUtils) RemovePaths(dir string) {
	h.paths().RemovePaths(dir)
}

// PathExists reports whether path was added or created.
func (h *HostUtils) PathExists(path string) (bool, error) {
	h.record(Call{Method: "PathExists", Path: path})
	if f := h.Funcs.PathExists; f != nil {
		if err := f(path); err != nil {
			return false, err
		}
	}
	return h.paths().PathExists(path)
}

// GetMode returns the mode path was added with, or an error wrapping fs.ErrNotExist.
func (h *HostUtils) GetMode(path string) (os.FileMode, error) {
	h.record(Call{Method: "GetMode", Path: path})
	if f := h.Funcs.GetMode; f != nil {
		if err := f(path); err != nil {
			return 0, err
		}
	}
	return h.paths().GetMode(path)
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
