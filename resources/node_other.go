//go:build !linux

package resources

import "fmt"

// HostNode reads the node's facts on Linux; elsewhere it fails: fill Node by hand.
func HostNode() (Node, error) {
	return Node{}, fmt.Errorf("resources: reading node facts: %w", ErrUnsupported)
}
