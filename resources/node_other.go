//go:build !linux

package resources

import (
	"errors"
	"fmt"
)

// ErrUnsupported is returned by HostNode on operating systems other than Linux.
var ErrUnsupported = errors.New("not supported on this operating system")

// HostNode reads the node's facts on Linux; elsewhere it fails: fill Node by hand.
func HostNode() (Node, error) {
	return Node{}, fmt.Errorf("resources: reading node facts: %w", ErrUnsupported)
}
