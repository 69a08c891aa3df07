//go:build !linux

package subpath

import (
	"os"

	"github.com/podconfig/podconfig/mounts"
)

// Linux is the subPath backend. On this operating system every operation fails with
// ErrNotSupported.
type Linux struct{}

var _ mounts.Subpather = (*Linux)(nil)

// New returns a backend whose operations all fail with ErrNotSupported on this operating system.
func New(opts ...Option) *Linux {
	_ = newConfig(opts)
	return &Linux{}
}

// SafeMakeDir fails with ErrNotSupported on this operating system.
func (*Linux) SafeMakeDir(subdir, base string, perm os.FileMode) error {
	return ErrNotSupported
}

// PrepareSafeSubpath fails with ErrNotSupported on this operating system. The cleanup is a
// no-op and never nil.
func (*Linux) PrepareSafeSubpath(sp mounts.Subpath) (string, func(), error) {
	return "", func() {}, ErrNotSupported
}

// CleanSubPaths fails with ErrNotSupported on this operating system.
func (*Linux) CleanSubPaths(podDir, volumeName string) error {
	return ErrNotSupported
}

// SetUpLocalVolume fails with ErrNotSupported on this operating system.
func (*Linux) SetUpLocalVolume(v LocalVolume) ([]string, error) {
	return nil, ErrNotSupported
}

// RemoveAllOneFilesystem fails with ErrNotSupported on this operating system.
func (*Linux) RemoveAllOneFilesystem(path string) error {
	return ErrNotSupported
}

// CleanupPodDir fails with ErrNotSupported on this operating system.
func (*Linux) CleanupPodDir(podDir string) error {
	return ErrNotSupported
}
