package subpath

import (
	"github.com/podconfig/podconfig/internal/errkind"
)

// Error categories. Every error the package returns for one of these reasons matches the
// category with errors.Is, while its text stays the one kubelet prints.
var (
	// ErrNotSupported is returned by every operation on operating systems other than Linux.
	ErrNotSupported = errkind.Sentinel(errkind.InvalidOptions, "subpath operations are not supported on this operating system")
	// ErrInvalidName is returned when a volume name, container name or mount index could not be
	// used as a single host path element (empty, ".", "..", holding "/" or NUL, or negative).
	ErrInvalidName = errkind.Sentinel(errkind.InvalidPod, "invalid subpath name")
	// ErrOutsideBase is returned when a path resolves, lexically or through a symlink, outside the
	// directory it must stay in.
	ErrOutsideBase = errkind.Sentinel(errkind.InvalidPod, "path escapes its base directory")
	// ErrUnexpectedFile is returned when a path element is a symlink that appeared after the path
	// was resolved, or a file that is not a directory where a directory is needed.
	ErrUnexpectedFile = errkind.Sentinel(errkind.InvalidPod, "unexpected file type in path")
	// ErrMountPoint is returned by RemoveAllOneFilesystem and CleanupPodDir when they stop at
	// something still mounted, which they never remove or walk into: retry once it is unmounted.
	ErrMountPoint = errkind.Sentinel(errkind.DependencyFailed, "path is a mount point")
)

// kindError is the shared error type: kubelet's text, a category and a cause.
type kindError = errkind.Error
