//go:build !linux

package hostfs

import (
	"io/fs"
	"os"

	securejoin "github.com/cyphar/filepath-securejoin"
)

// OpenBeneath opens path for reading as if root were the file system's root (see the Linux
// version). Off Linux there is no race-free walk: the path is resolved inside root with
// SecureJoin, checked with Lstat and then opened, so a symlink swapped in between can redirect it.
func (OS) OpenBeneath(root, path string) (fs.File, error) {
	full, err := securejoin.SecureJoin(root, path)
	if err != nil {
		return nil, err
	}
	fi, err := os.Lstat(full)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		return nil, notRegular(path, fi.Mode())
	}
	return os.Open(full)
}
