package mounts

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

var _ HostUtils = OSHostUtils{}

// OSHostUtils answers HostUtils from the host's file system (kubelet: hostutil.HostUtil on Linux).
// offline.HostUtils is the offline node's, in memory; mountstest's double records calls.
type OSHostUtils struct{}

// PathExists reports whether path exists, following symlinks: a dangling symlink does not exist.
// Any error other than "not found" is returned.
func (OSHostUtils) PathExists(path string) (bool, error) {
	_, err := os.Stat(filepath.Clean(path))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// GetMode returns the mode of path, following symlinks.
func (OSHostUtils) GetMode(path string) (os.FileMode, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return fi.Mode(), nil
}
