//go:build !linux

package node

import "errors"

var errNotLinux = errors.New("minikubelet runs on Linux only")

func mountTmpfs(string, int64) error { return errNotLinux }
func unmount(string) error           { return errNotLinux }
