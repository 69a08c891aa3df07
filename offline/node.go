package offline

import (
	"net"
	"os"
	"path/filepath"
	"strings"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/mounts"
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

// Generator returns a Generator over the node's backends and Options.
func (n *Node) Generator() (*configgen.Generator, error) {
	opts := n.Options
	if opts.Files == nil {
		opts.Files = n.Files
	}
	if opts.HostUtils == nil {
		opts.HostUtils = n.HostUtils
	}
	if opts.Subpather == nil {
		opts.Subpather = n.Subpather
	}
	if opts.BlockDevices == nil {
		opts.BlockDevices = n.BlockDevices
	}
	if opts.ImageUsers == nil && n.ImageUsers != nil {
		opts.ImageUsers = n.ImageUsers
	}
	if opts.ConfigMaps == nil {
		opts.ConfigMaps = n.Objects
	}
	if opts.Secrets == nil {
		opts.Secrets = n.Objects
	}
	if opts.Services == nil {
		opts.Services = n.Objects
	}
	if opts.Node == nil {
		opts.Node = n.Objects
	}
	return configgen.New(opts)
}

// Volumes returns the pod's volumes mounted where kubelet mounts them,
// <rootDir>/pods/<uid>/volumes/<plugin>/<name>, and creates those directories in Files and
// HostUtils. Image volumes become Volume.Image; hostPath volumes use their own path; block-mode
// PVCs are not modelled (add a Volume with BlockDevicePath yourself).
func (n *Node) Volumes(pod *v1.Pod) mounts.VolumeMap {
	if pod == nil {
		return mounts.VolumeMap{}
	}
	root := n.Options.RootDir
	if root == "" {
		root = configgen.DefaultRootDir
	}
	podVolumes := filepath.Join(root, "pods", string(pod.UID), "volumes")
	vm := make(mounts.VolumeMap, len(pod.Spec.Volumes))
	for _, vol := range pod.Spec.Volumes {
		var v mounts.Volume
		plugin := ""
		switch src := vol.VolumeSource; {
		case src.EmptyDir != nil:
			plugin = "kubernetes.io~empty-dir"
			v.SELinuxRelabel = true
		case src.ConfigMap != nil:
			plugin, v.ReadOnly, v.SELinuxRelabel = "kubernetes.io~configmap", true, true
		case src.Secret != nil:
			plugin, v.ReadOnly, v.SELinuxRelabel = "kubernetes.io~secret", true, true
		case src.DownwardAPI != nil:
			plugin, v.ReadOnly, v.SELinuxRelabel = "kubernetes.io~downward-api", true, true
		case src.Projected != nil:
			plugin, v.ReadOnly, v.SELinuxRelabel = "kubernetes.io~projected", true, true
		case src.HostPath != nil:
			v.HostPath = src.HostPath.Path
		case src.PersistentVolumeClaim != nil:
			v.HostPath = filepath.Join(podVolumes, "kubernetes.io~csi", src.PersistentVolumeClaim.ClaimName, "mount")
			v.InnerVolumeName = src.PersistentVolumeClaim.ClaimName
			v.ReadOnly = src.PersistentVolumeClaim.ReadOnly
			v.SELinuxRelabel = !v.ReadOnly // kubelet's CSI mounter is managed only when writable
		case src.Ephemeral != nil:
			v.HostPath = filepath.Join(podVolumes, "kubernetes.io~csi", "pvc-"+pod.Name+"-"+vol.Name, "mount")
			v.SELinuxRelabel = true
		case src.Image != nil:
			// Read-only, as kubelet's image plugin reports its volumes.
			v.Image = &runtimeapi.ImageSpec{Image: src.Image.Reference, UserSpecifiedImage: src.Image.Reference}
			v.ReadOnly = true
		default:
			plugin = "kubernetes.io~" + strings.ToLower(volumeKind(src))
		}
		if plugin != "" {
			v.HostPath = filepath.Join(podVolumes, plugin, vol.Name)
		}
		if v.HostPath != "" {
			_ = n.Files.MkdirAll(v.HostPath, 0o777)
			n.HostUtils.AddPath(v.HostPath, os.ModeDir|0o777)
		}
		vm[vol.Name] = v
	}
	return vm
}

// volumeKind names an uncommon volume source for its directory.
func volumeKind(src v1.VolumeSource) string {
	switch {
	case src.NFS != nil:
		return "nfs"
	case src.CSI != nil:
		return "csi"
	case src.ISCSI != nil:
		return "iscsi"
	case src.FC != nil:
		return "fc"
	default:
		return "volume"
	}
}
