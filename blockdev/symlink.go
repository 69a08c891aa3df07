package blockdev

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

var _ SymlinkChecker = OS{}

// OS checks symlinks on the host with lstat.
type OS struct{}

// IsSymlinkExist reports whether path is a symlink, without following it (kubelet:
// VolumePathHandler.IsSymlinkExist). A missing path is (false, nil).
func (OS) IsSymlinkExist(path string) (bool, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("failed to Lstat file %s: %w", path, err)
	}
	return fi.Mode()&fs.ModeSymlink != 0, nil
}
