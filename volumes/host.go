package volumes

import (
	"io/fs"
)

// Host is the host access volume set-up and teardown need beyond a volume directory's FS. The
// Linux implementation is [NewLinuxHost]; [NewMemoryHost] keeps everything in memory.
type Host interface {
	// MakeDir creates base/rel and its missing parents below base with perm, never leaving base
	// (no symlink followed below it). base itself is trusted and may be reached through a
	// symlink (a symlinked kubelet root directory).
	MakeDir(base, rel string, perm fs.FileMode) error
	// OpenVolume opens the directory dir as an FS. Close it with CloseVolume.
	OpenVolume(dir string) (FS, error)
	// Mount mounts a filesystem of type fstype from source on the directory dir with options
	// (tmpfs, hugetlbfs); IsMountPoint reports whether dir is the root of a mount; Unmount
	// unmounts it, not following a final symlink.
	Mount(source, dir, fstype string, options []string) error
	IsMountPoint(dir string) (bool, error)
	Unmount(dir string) error
	// RemoveAll removes dir and everything below it without crossing a mount point or following
	// a symlink; a missing dir is not an error.
	RemoveAll(dir string) error
	// Stat describes path following symlinks (hostPath type checks); MkdirAll and CreateFile make
	// a missing hostPath directory (0755) or file (0644), with the umask, as kubelet does.
	Stat(path string) (fs.FileInfo, error)
	MkdirAll(path string, perm fs.FileMode) error
	CreateFile(path string, perm fs.FileMode) error
}

// closeFS releases an FS that holds a resource (the Linux FS's descriptor).
func closeFS(fsys FS) {
	if c, ok := fsys.(interface{ Close() error }); ok {
		_ = c.Close()
	}
}
