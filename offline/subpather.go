package offline

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/podconfig/podconfig/internal/pathelem"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/subpath"
)

var _ mounts.Subpather = (*Subpather)(nil)

// Subpather is the offline node's mounts.Subpather: it makes no mount. It returns the bind
// targets the Linux backend would use, <PodDir>/volume-subpaths/<VolumeName>/<ContainerName>/<index>,
// and records which source each is bound to (Binds). With a HostUtils, the directories SafeMakeDir
// makes become known to it, and a subPath source it does not know is refused as missing. It is
// safe for concurrent use.
type Subpather struct {
	host  *HostUtils
	mu    sync.Mutex
	binds map[string]bind
}

// bind is one bind in memory. It keeps its target, the map's key, so that preparing a subPath
// that is already bound returns the same string instead of building a new one.
type bind struct {
	target, source string
}

// NewSubpather returns a Subpather with no binds over host, which may be nil: then SafeMakeDir
// records nothing and every subPath source counts as existing.
func NewSubpather(host *HostUtils) *Subpather {
	return &Subpather{host: host, binds: map[string]bind{}}
}

// SafeMakeDir records base/subdir, and each missing directory between, as made with perm in the
// HostUtils. It refuses, lexically, a subdir that leaves base; it does not check that base exists
// or that a path element is a directory.
func (s *Subpather) SafeMakeDir(subdir, base string, perm os.FileMode) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	base = filepath.Clean(base)
	full := filepath.Join(base, subdir)
	if !within(full, base) {
		return fmt.Errorf("path %s is outside of allowed base %s", full, base)
	}
	if s.host != nil {
		for p := full; p != base; p = filepath.Dir(p) {
			if !s.host.has(p) {
				s.host.AddPath(p, perm)
			}
		}
	}
	return nil
}

// PrepareSafeSubpath binds sp.Path at its target in memory and returns the target. The cleanup
// removes the bind if this call made it; it is nil when the target was already bound to sp.Path.
func (s *Subpather) PrepareSafeSubpath(sp mounts.Subpath) (string, func(), error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := subpath.ValidateName("volume name", sp.VolumeName); err != nil {
		return "", nil, err
	}
	if err := subpath.ValidateName("container name", sp.ContainerName); err != nil {
		return "", nil, err
	}
	if !inVolume(sp.Path, sp.VolumePath) {
		return "", nil, fmt.Errorf("subpath %q not within volume path %q", sp.Path, sp.VolumePath)
	}
	// The target is built on the stack; it becomes a string of its own only for a new bind.
	var buf [192]byte
	key := appendBindTarget(buf[:0], sp)
	b, ok := s.binds[string(key)]
	bound := ok && b.source == sp.Path
	// A bound source passed this check when it was bound; Node.RemovePod forgets a pod's binds
	// with its paths.
	if s.host != nil && !bound && !s.host.has(sp.Path) {
		return "", nil, fmt.Errorf("lstat %s failed: %w", sp.Path, fs.ErrNotExist)
	}
	if b.source == sp.Path {
		if !bound {
			// An empty source counts as bound already, as a missing bind's source is empty.
			return string(key), nil, nil
		}
		return b.target, nil, nil
	}
	target, source := string(key), sp.Path
	if s.binds == nil {
		s.binds = map[string]bind{}
	}
	s.binds[target] = bind{target: target, source: source}
	return target, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.binds[target].source == source {
			delete(s.binds, target)
		}
	}, nil
}

// CleanSubPaths removes every bind of volumeName in podDir, of every container.
func (s *Subpather) CleanSubPaths(podDir, volumeName string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := subpath.ValidateName("volume name", volumeName); err != nil {
		return err
	}
	prefix := filepath.Join(podDir, "volume-subpaths", volumeName) + "/"
	for target := range s.binds {
		if strings.HasPrefix(target, prefix) {
			delete(s.binds, target)
		}
	}
	return nil
}

// Binds returns the current binds, bind target -> source.
func (s *Subpather) Binds() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]string, len(s.binds))
	for k, b := range s.binds {
		out[k] = b.source
	}
	return out
}

// BindTarget returns the target a Subpather records for sp, which is where the Linux backend
// (subpath.BindTarget) binds it: <PodDir>/volume-subpaths/<VolumeName>/<ContainerName>/<VolumeMountIndex>,
// PodDir cleaned. It does not check the names; PrepareSafeSubpath does.
func BindTarget(sp mounts.Subpath) string {
	return string(appendBindTarget(nil, sp))
}

// appendBindTarget appends BindTarget(sp) to dst.
func appendBindTarget(dst []byte, sp mounts.Subpath) []byte {
	dst = append(dst, clean(sp.PodDir)...)
	dst = append(dst, "/volume-subpaths/"...)
	dst = append(dst, sp.VolumeName...)
	dst = append(dst, '/')
	dst = append(dst, sp.ContainerName...)
	dst = append(dst, '/')
	return strconv.AppendInt(dst, int64(sp.VolumeMountIndex), 10)
}

// clean is filepath.Clean without its cost for paths that are plainly clean already: not empty,
// not starting with '.', no "//" or "/." and no trailing slash.
func clean(p string) string {
	if p == "" || p[0] == '.' || (len(p) > 1 && p[len(p)-1] == '/') || pathelem.SlashDotOrSlash(p) {
		return filepath.Clean(p)
	}
	return p
}

// inVolume reports whether within(clean(p), clean(base)). The usual p is base + "/" + a clean
// relative path, which is clean and within base when base is clean: then base and the rest are
// scanned, not p again.
func inVolume(p, base string) bool {
	if n := len(base); n > 1 && len(p) > n+1 && p[n] == '/' && p[:n] == base {
		rest := p[n+1:]
		if rest[0] != '.' && rest[0] != '/' && rest[len(rest)-1] != '/' && !pathelem.SlashDotOrSlash(rest) && clean(base) == base {
			return true
		}
	}
	return within(clean(p), clean(base))
}

// within reports whether the clean path p is base or below it.
func within(p, base string) bool {
	return p == base || base == "/" || (len(p) > len(base) && p[len(base)] == '/' && strings.HasPrefix(p, base))
}
