//go:build linux

package hostfs

import (
	"io/fs"

	pathrs "github.com/cyphar/filepath-securejoin/pathrs-lite"
	"golang.org/x/sys/unix"
)

// OpenBeneath opens path for reading as if root were the file system's root: every component,
// symlinks included (absolute or relative), is resolved inside root, and ".." stops at root, so
// nothing outside root can be reached. It resolves the path in one walk that cannot leave root
// (openat2 with RESOLVE_IN_ROOT where the kernel has it, else pathrs-lite's checked walk) and keeps
// the file descriptor, so a symlink swapped in after a check cannot redirect it. Only regular
// files and directories are opened; anything else fails with ErrNotRegular without being opened
// for reading, so a FIFO cannot block the caller.
func (OS) OpenBeneath(root, path string) (fs.File, error) {
	handle, err := pathrs.OpenInRoot(root, path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = handle.Close() }()
	fi, err := handle.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		return nil, notRegular(path, fi.Mode())
	}
	f, err := pathrs.Reopen(handle, unix.O_RDONLY)
	if err != nil {
		return nil, err
	}
	return f, nil
}
