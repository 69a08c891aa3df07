//go:build !linux

package volumes

import (
	"errors"
	"io/fs"
)

// errNotLinux is returned by the Linux backends elsewhere.
var errNotLinux = errors.New("the Linux volume backend works on Linux only")

// LinuxHost is the Linux Host; on this operating system every method fails.
type LinuxHost struct{}

// NewLinuxHost returns the Linux Host, which fails here.
func NewLinuxHost() *LinuxHost { return &LinuxHost{} }

func (*LinuxHost) MakeDir(base, rel string, perm fs.FileMode) error      { return errNotLinux }
func (*LinuxHost) OpenVolume(dir string) (FS, error)                     { return nil, errNotLinux }
func (*LinuxHost) Mount(source, dir, fstype string, opts []string) error { return errNotLinux }
func (*LinuxHost) IsMountPoint(dir string) (bool, error)                 { return false, errNotLinux }
func (*LinuxHost) Unmount(dir string) error                              { return errNotLinux }
func (*LinuxHost) RemoveAll(dir string) error                            { return errNotLinux }
func (*LinuxHost) Stat(path string) (fs.FileInfo, error)                 { return nil, errNotLinux }
func (*LinuxHost) MkdirAll(path string, perm fs.FileMode) error          { return errNotLinux }
func (*LinuxHost) CreateFile(path string, perm fs.FileMode) error        { return errNotLinux }

// OpenLinuxFS fails here.
func OpenLinuxFS(dir string) (FS, error) { return nil, errNotLinux }
