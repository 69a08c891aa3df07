package blockdevtest

import (
	"sync"

	"github.com/podconfig/podconfig/blockdev"
	"github.com/podconfig/podconfig/offline"
)

var _ blockdev.SymlinkChecker = (*Symlinks)(nil)

// Symlinks is an offline.BlockDevices whose checks can be made to fail per path (Fail). It is
// safe for concurrent use.
type Symlinks struct {
	mu      sync.Mutex
	devices *offline.BlockDevices
	errs    map[string]error
}

// NewSymlinks returns a set holding paths.
func NewSymlinks(paths ...string) *Symlinks {
	return WrapBlockDevices(offline.NewBlockDevices(paths...))
}

// WrapBlockDevices returns a Symlinks over devices: the symlinks are devices', shared with
// whatever else uses it (an offline.Node).
func WrapBlockDevices(devices *offline.BlockDevices) *Symlinks {
	return &Symlinks{devices: devices}
}

// inner is the offline.BlockDevices the checks go to, made on first use of a zero Symlinks.
func (s *Symlinks) inner() *offline.BlockDevices {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.devices == nil {
		s.devices = offline.NewBlockDevices()
	}
	return s.devices
}

// Add records path as a symlink.
func (s *Symlinks) Add(path string) {
	s.inner().Add(path)
}

// Fail makes IsSymlinkExist(path) return err.
func (s *Symlinks) Fail(path string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.errs == nil {
		s.errs = map[string]error{}
	}
	s.errs[path] = err
}

// IsSymlinkExist returns the error Fail gave path, else whether path was added.
func (s *Symlinks) IsSymlinkExist(path string) (bool, error) {
	s.mu.Lock()
	err := s.errs[path]
	s.mu.Unlock()
	if err != nil {
		return false, err
	}
	return s.inner().IsSymlinkExist(path)
}
