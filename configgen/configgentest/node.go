package configgentest

import (
	"github.com/podconfig/podconfig/blockdev/blockdevtest"
	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/mounts/mountstest"
	"github.com/podconfig/podconfig/offline"
)

// Node is an offline node for tests: the offline.Node it embeds (files, objects, image users,
// Options, Volumes, RemovePod), with its host paths, subPath binds and block devices seen through
// test doubles that record calls and inject errors. The doubles wrap the offline node's own
// backends, so what Volumes registers is seen through them and what they record is the node's.
type Node struct {
	*offline.Node
	// HostUtils is the offline node's HostUtils, recording calls and injecting errors
	// (mountstest.HostUtils); the Generator uses it.
	HostUtils *mountstest.HostUtils
	// Subpather is the offline node's Subpather, recording calls and injecting errors
	// (mountstest.Subpather); the Generator uses it.
	Subpather *mountstest.Subpather
	// BlockDevices is the offline node's BlockDevices, with errors injected per path
	// (blockdevtest.Symlinks); the Generator uses it.
	BlockDevices *blockdevtest.Symlinks
}

// NewNode returns offline.NewNode(objs...) with its backends wrapped in test doubles: the same
// node facts, the same objects.
func NewNode(objs ...interface{}) *Node {
	on := offline.NewNode(objs...)
	return &Node{
		Node:         on,
		HostUtils:    mountstest.WrapHostUtils(on.HostUtils),
		Subpather:    mountstest.WrapSubpather(on.Subpather),
		BlockDevices: blockdevtest.WrapBlockDevices(on.BlockDevices),
	}
}

// Generator returns a Generator over the node's backends and Options, with the test doubles in
// place of the offline node's HostUtils, Subpather and BlockDevices where Options leaves them nil.
func (n *Node) Generator() (*configgen.Generator, error) {
	var on offline.Node
	if n.Node != nil {
		on = *n.Node
	}
	if on.Options.HostUtils == nil && n.HostUtils != nil {
		on.Options.HostUtils = n.HostUtils
	}
	if on.Options.Subpather == nil && n.Subpather != nil {
		on.Options.Subpather = n.Subpather
	}
	if on.Options.BlockDevices == nil && n.BlockDevices != nil {
		on.Options.BlockDevices = n.BlockDevices
	}
	return on.Generator()
}
