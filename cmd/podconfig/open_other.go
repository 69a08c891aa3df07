//go:build !unix

package main

import (
	"fmt"
	"io/fs"
	"os"
)

// openRegular opens a file found in a directory only if it is a regular file.
func openRegular(name string) (*os.File, error) {
	fi, err := os.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%s)", name, errNotRegular, describeType(fi.Mode()&fs.ModeType))
	}
	return os.Open(name)
}
