package main

import "github.com/podconfig/podconfig/volumes"

// crictlSupported: -o crictl writes a Linux node's host files, through Linux's descriptor calls.
const crictlSupported = true

// openNoFollowDir opens dir, which must not be a symlink, for writing below it without
// following a link.
func openNoFollowDir(dir string) (crictlDir, error) {
	return volumes.OpenLinuxFS(dir)
}
