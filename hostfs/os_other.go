//go:build !unix

package hostfs

import (
	"io/fs"
	"os"
)

// WriteFile writes data to path like os.WriteFile (see the Unix version, which rewrites in place
// and restores the old content on failure).
func (OS) WriteFile(path string, data []byte, perm fs.FileMode) error {
	return os.WriteFile(path, data, perm)
}

// Create creates path as an empty file, or truncates it if it exists, like os.Create followed by
// Close.
func (OS) Create(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return f.Close()
}
