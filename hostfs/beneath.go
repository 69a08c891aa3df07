package hostfs

import (
	"io/fs"

	"github.com/podconfig/podconfig/internal/errkind"
)

// ErrNotRegular is matched (errors.Is) by the error OpenBeneath returns for a path that resolves to
// something other than a regular file or a directory (a FIFO, a socket, a device), which it never
// opens for reading. errors.As finds a *NotRegularError with the file's type.
var ErrNotRegular = errkind.Sentinel(errkind.DependencyFailed, "not a regular file")

// NotRegularError is OpenBeneath's error for a file it does not open.
type NotRegularError struct {
	// Path is the path OpenBeneath was given; Mode the type of the file it resolved to.
	Path string
	Mode fs.FileMode
}

// Error names the path and the file's type, e.g. "open pipe: not a regular file (p---------)".
func (e *NotRegularError) Error() string {
	return "open " + e.Path + ": not a regular file (" + e.Mode.Type().String() + ")"
}

// Is matches ErrNotRegular.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// notRegular is the error OpenBeneath returns for a file of mode m.
func notRegular(path string, m fs.FileMode) error {
	return &NotRegularError{Path: path, Mode: m.Type()}
}
