//go:build !linux

package logs

import (
	"errors"
	"path/filepath"
)

// logDir is a container's log directory; rotating logs safely needs Linux's *at calls.
type logDir struct{ path string }

var errRotationUnsupported = errors.New("rotating container logs is supported on Linux only")

func openLogDir(string) (*logDir, error)                     { return nil, errRotationUnsupported }
func (d *logDir) close()                                     {}
func (d *logDir) join(name string) string                    { return filepath.Join(d.path, name) }
func (d *logDir) size(string) (int64, error)                 { return 0, errRotationUnsupported }
func (d *logDir) rotated(string) ([]string, []string, error) { return nil, nil, errRotationUnsupported }
func (d *logDir) remove(string) error                        { return errRotationUnsupported }
func (d *logDir) rename(string, string) error                { return errRotationUnsupported }
func (d *logDir) compress(string) error                      { return errRotationUnsupported }
