package offline

import (
	"fmt"
	"net"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/resources"
	"github.com/podconfig/podconfig/security"
)

// Node is an offline node: its host in memory and the Options a Generator is built from. Change
// any field before calling Generator; the package documentation says what it assumes.
type Node struct {
	// Files holds every file the Generator writes (the pod's directories and etc-hosts, log and
	// container directories, termination-message files) and the env files fileKeyRef reads.
	Files *hostfs.Memory
	// HostUtils knows the volume paths Volumes registers and the subPath directories made.
	HostUtils *HostUtils
	// Subpather records subPath binds instead of mounting.
	Subpather *Subpather
	// BlockDevices holds the block-device symlinks that exist.
	BlockDevices *BlockDevices
	// Objects serves ConfigMaps, Secrets, Services and the Node.
	Objects *Objects
	// ImageUsers says which user each image runs as; unlisted images run as root.
	ImageUsers security.ImageUserMap
	// Options is what Generator builds from; Generator fills in each backend above that Options
	// leaves nil, so a caller can put another in its place or wrap one (e.g. Files with
	// hostfstest.Wrap to inject errors).
	Options configgen.Options
}

// NewNode returns an offline node holding objs (see NewObjects) with kubelet's defaults and these
// fixed facts: node IP 10.0.0.1, cluster domain cluster.local, cluster DNS 10.96.0.10, no
// resolv.conf, an /etc/hosts of "127.0.0.1 localhost" for host-network pods, cgroup v2 with 16
// GiB of memory (15 GiB allocatable) and 2MB and 1GB hugepages, SELinux off, no thermal-throttle
// masked paths, no user namespaces and only the default runtime handler, no image users, and
// termination-message files named 0000002a.
func NewNode(objs ...interface{}) *Node {
	n := &Node{
		Files:        hostfs.NewMemory(),
		HostUtils:    NewHostUtils(),
		BlockDevices: NewBlockDevices(),
		Objects:      NewObjects(objs...),
		ImageUsers:   security.ImageUserMap{},
	}
	n.Subpather = NewSubpather(n.HostUtils)
	res := resources.DefaultConfig(resources.Node{
		CgroupV2: true, MemoryCapacity: 16 << 30, AllocatableMemory: 15 << 30,
		HugePageSizes: []string{"2MB", "1GB"},
	})
	n.Options = configgen.Options{
		NodeIPs:                []net.IP{net.ParseIP("10.0.0.1")},
		ClusterDomain:          "cluster.local",
		ClusterDNS:             []string{"10.96.0.10"},
		NodeHosts:              func() ([]byte, error) { return []byte("127.0.0.1\tlocalhost\n"), nil },
		Resources:              &res,
		TerminationMessageRand: func() uint32 { return 42 },
	}
	n.Options.Security.ThermalThrottle = ThermalPaths{}
	return n
}

// Generator returns a Generator over the node's backends and Options. Options' own backends win;
// a node with neither its own nor Options' Files, HostUtils, Subpather and BlockDevices (a zero
// Node) is an ErrInvalidOptions error, since the Generator would then use the real host's.
func (n *Node) Generator() (*configgen.Generator, error) {
	if n == nil {
		n = &Node{}
	}
	opts := n.Options
	if opts.Files == nil && n.Files != nil {
		opts.Files = n.Files
	}
	if opts.HostUtils == nil && n.HostUtils != nil {
		opts.HostUtils = n.HostUtils
	}
	if opts.Subpather == nil && n.Subpather != nil {
		opts.Subpather = n.Subpather
	}
	if opts.BlockDevices == nil && n.BlockDevices != nil {
		opts.BlockDevices = n.BlockDevices
	}
	if opts.Files == nil || opts.HostUtils == nil || opts.Subpather == nil || opts.BlockDevices == nil {
		return nil, fmt.Errorf("%w: an offline node needs Files, HostUtils, Subpather and BlockDevices (NewNode makes them); without one the Generator would use the host's", configgen.ErrInvalidOptions)
	}
	if opts.ImageUsers == nil && n.ImageUsers != nil {
		opts.ImageUsers = n.ImageUsers
	}
	if n.Objects != nil {
		serveObjects(&opts, n.Objects)
	}
	return configgen.New(opts)
}

// serveObjects makes objects the source of each kind of object opts has none for.
func serveObjects(opts *configgen.Options, objects *Objects) {
	if opts.ConfigMaps == nil {
		opts.ConfigMaps = objects
	}
	if opts.Secrets == nil {
		opts.Secrets = objects
	}
	if opts.Services == nil {
		opts.Services = objects
	}
	if opts.Node == nil {
		opts.Node = objects
	}
}
