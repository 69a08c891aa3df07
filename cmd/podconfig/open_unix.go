//go:build unix

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// openRegular opens a file found in a directory only if it is a regular file, without following
// a symbolic link and without blocking on a named pipe, so that an entry swapped after the
// directory was listed is refused too.
func openRegular(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s: %w (a symbolic link)", name, errNotRegular)
	}
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: %w (%s)", name, errNotRegular, describeType(fi.Mode()&fs.ModeType))
	}
	return f, nil
}
