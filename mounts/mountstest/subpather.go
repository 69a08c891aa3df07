package mountstest

import (
	"os"
	"sync"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/offline"
)

var _ mounts.Subpather = (*Subpather)(nil)

// SubpatherFuncs injects errors into a Subpather. A nil func changes nothing; a func that returns
// an error makes the method return that error and do nothing else.
type SubpatherFuncs struct {
	SafeMakeDir        func(subdir, base string, perm os.FileMode) error
	PrepareSafeSubpath func(sp mounts.Subpath) error
	CleanSubPaths      func(podDir, volumeName string) error
}

// Subpather is an offline.Subpather whose calls are recorded (Calls) and may be made to fail
// (Funcs). It binds nothing: it returns the bind targets the Linux backend would use,
// <PodDir>/volume-subpaths/<VolumeName>/<ContainerName>/<index>, and records which source each
// is bound to (Binds). It is safe for concurrent use. Set Funcs before first use.
type Subpather struct {
	// Funcs injects errors.
	Funcs SubpatherFuncs

	mu    sync.Mutex
	sp    *offline.Subpather
	calls []Call
}

// NewSubpather returns a Subpather with no binds. When host is not nil, SafeMakeDir adds the
// directories it makes to host, and PrepareSafeSubpath fails for a source host does not know.
func NewSubpather(host *HostUtils) *Subpather {
	if host == nil {
		return WrapSubpather(offline.NewSubpather(nil))
	}
	return WrapSubpather(offline.NewSubpather(host.paths()))
}

// WrapSubpather returns a Subpather over sp: the binds are sp's, shared with whatever else uses
// it (an offline.Node's RemovePod).
func WrapSubpather(sp *offline.Subpather) *Subpather {
	return &Subpather{sp: sp}
}

// inner is the offline.Subpather the calls go to, made on first use of a zero Subpather.
func (s *Subpather) inner() *offline.Subpather {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sp == nil {
		s.sp = offline.NewSubpather(nil)
	}
	return s.sp
}

// record appends c to the calls.
func (s *Subpather) record(c Call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, c)
}

// SafeMakeDir records base/subdir, and each missing directory between, as created with perm.
func (s *Subpather) SafeMakeDir(subdir, base string, perm os.FileMode) error {
	s.record(Call{Method: "SafeMakeDir", Path: subdir, Base: base, Perm: perm})
	if f := s.Funcs.SafeMakeDir; f != nil {
		if err := f(subdir, base, perm); err != nil {
			return err
		}
	}
	return s.inner().SafeMakeDir(subdir, base, perm)
}

// PrepareSafeSubpath binds sp.Path at its target in memory and returns the target. The cleanup
// removes the bind if this call made it; it is nil when the target was already bound to sp.Path.
func (s *Subpather) PrepareSafeSubpath(sp mounts.Subpath) (string, func(), error) {
	s.record(Call{Method: "PrepareSafeSubpath", Subpath: sp})
	if f := s.Funcs.PrepareSafeSubpath; f != nil {
		if err := f(sp); err != nil {
			return "", nil, err
		}
	}
	return s.inner().PrepareSafeSubpath(sp)
}

// CleanSubPaths removes every bind of volumeName in podDir, of every container.
func (s *Subpather) CleanSubPaths(podDir, volumeName string) error {
	s.record(Call{Method: "CleanSubPaths", PodDir: podDir, VolumeName: volumeName})
	if f := s.Funcs.CleanSubPaths; f != nil {
		if err := f(podDir, volumeName); err != nil {
			return err
		}
	}
	return s.inner().CleanSubPaths(podDir, volumeName)
}

// Binds returns the current binds, bind target -> source.
func (s *Subpather) Binds() map[string]string {
	return s.inner().Binds()
}

// ResetCalls forgets the calls recorded so far, so a long benchmark does not grow without bound.
func (s *Subpather) ResetCalls() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = s.calls[:0]
}

// Calls returns the calls made so far, oldest first.
func (s *Subpather) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// BindTarget returns where the Linux backend binds sp:
// <PodDir>/volume-subpaths/<VolumeName>/<ContainerName>/<VolumeMountIndex>.
//
// Deprecated: use offline.BindTarget, which this calls.
func BindTarget(sp mounts.Subpath) string {
	return offline.BindTarget(sp)
}
