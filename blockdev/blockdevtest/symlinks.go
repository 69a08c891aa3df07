package blockdevtest

import (
	"sync"

	"github.com/podconfig/podconfig/blockdev"
)

var _ blockdev.SymlinkChecker = (*Symlinks)(nil)

// Symlinks is an in-memory set of symlink paths. It is safe for concurrent use.
type Symlinks struct {
	mu    sync.Mutex
	links map[string]bool
	errs  map[string]error
}

// NewSymlinks returns a set holding paths.
func NewSymlinks(paths ...string) *Symlinks {
	s := &Symlinks{links: map[string]bool{}, errs: map[string]error{}}
	for _, p := range paths {
		s.links[p] = true
	}
	return s
}

// Add records path as a symlink.
func (s *Symlinks) Add(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.links == nil {
		s.links = map[string]bool{}
	}
	s.links[path] = true
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

// IsSymlinkExist reports whether path was added.
func (s *Symlinks) IsSymlinkExist(path string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.errs[path]; err != nil {
		return false, err
	}
	return s.links[path], nil
}
