//go:build !linux

package logs

import (
	"errors"
	"os"
)

// ReadAtMost returns at most the last max bytes of the regular file at path and whether the
// file was longer (kubelet: tail.ReadAtMost). It opens files without blocking only on Linux;
// elsewhere it fails.
func ReadAtMost(path string, max int64) ([]byte, bool, error) {
	return nil, false, errors.New("reading termination messages is supported on Linux only")
}

// OpenLogFile opens the container log file at path on Linux; elsewhere it fails.
func OpenLogFile(path string) (*os.File, error) {
	f, _, err := openRegular(path)
	return f, err
}

func openRegular(path string) (*os.File, int64, error) {
	return nil, 0, errors.New("reading container files is supported on Linux only")
}
