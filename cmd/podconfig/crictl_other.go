//go:build !linux

package main

import "errors"

// crictlSupported: -o crictl writes a Linux node's host files, through Linux's descriptor calls.
const crictlSupported = false

// openNoFollowDir fails: writing below a directory without following links needs Linux here.
func openNoFollowDir(string) (crictlDir, error) {
	return nil, errors.New("-o crictl runs on Linux only")
}
