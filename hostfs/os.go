package hostfs

import (
	"io/fs"
	"os"
)

// OS performs the host file operations on the real file system, each with the semantics of the os
// function of the same name. The writes a container config makes (WriteFile, Create, Chmod) are
// made with the system calls themselves, on Unix without an os.File. The zero value is ready to
// use and safe for concurrent use.
type OS struct{}

// MkdirAll creates path and any missing parents with perm (less the umask), like os.MkdirAll.
func (OS) MkdirAll(path string, perm fs.FileMode) error { return os.MkdirAll(path, perm) }

// Chmod sets the mode of path, following a final symlink, like os.Chmod. It is unaffected by the
// umask, which is why callers that need an exact mode chmod after creating.
func (OS) Chmod(path string, perm fs.FileMode) error { return os.Chmod(path, perm) }

// ReadFile returns the contents of path like os.ReadFile.
func (OS) ReadFile(path string) ([]byte, error) { return os.ReadFile(path) }

// Open opens path for reading like os.Open; the result is an *os.File.
func (OS) Open(path string) (fs.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// Stat describes path, following symlinks, like os.Stat.
func (OS) Stat(path string) (fs.FileInfo, error) { return os.Stat(path) }

// Lstat describes path without following a final symlink, like os.Lstat.
func (OS) Lstat(path string) (fs.FileInfo, error) { return os.Lstat(path) }

// Readlink returns the target of the symlink at path like os.Readlink.
func (OS) Readlink(path string) (string, error) { return os.Readlink(path) }

// ReadDir lists the directory at path sorted by name, like os.ReadDir.
func (OS) ReadDir(path string) ([]fs.DirEntry, error) { return os.ReadDir(path) }

// Remove removes the file or empty directory at path, like os.Remove; it never removes a
// directory's contents, and a final symlink is removed, not followed.
func (OS) Remove(path string) error { return os.Remove(path) }

// Symlink creates newname as a symlink to oldname like os.Symlink.
func (OS) Symlink(oldname, newname string) error { return os.Symlink(oldname, newname) }
