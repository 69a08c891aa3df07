package configgen

import (
	"context"
	"fmt"
	"io/fs"
	"net"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/blockdev"
	"github.com/podconfig/podconfig/features"
	"github.com/podconfig/podconfig/logs"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/resources"
	"github.com/podconfig/podconfig/security"
)

// DefaultRootDir is kubelet's default --root-dir, under which a Generator writes pod directories.
const DefaultRootDir = "/var/lib/kubelet"

// Deprecated: use logs.DefaultPodLogsDirectory, the one home of the pod logs directory.
const DefaultPodLogsDir = logs.DefaultPodLogsDirectory

// Options configures a Generator for one node: the node's facts, the kubelet settings that change
// container configs, the sources of API objects, and the host backends. A nil dependency gets the
// documented default, so Options{} describes a kubelet with default settings on the local Linux
// host with no API server. Offline users fill in the in-memory backends instead; see the
// offline package.
type Options struct {
	// NodeIPs are the kubelet's node IPs (--node-ip). The family of the first one orders
	// status.podIPs; with no resolv.conf they pick the local DNS server's family.
	NodeIPs []net.IP
	// ClusterDomain is kubelet's --cluster-domain, e.g. "cluster.local".
	ClusterDomain string
	// ClusterDNS are kubelet's --cluster-dns server IPs.
	ClusterDNS []string
	// ResolvConf is the content of the file kubelet's --resolv-conf names, or nil when that flag
	// is empty. Unlike kubelet, the Generator never reads it itself, so sandbox DNS is the same
	// offline and on the node. New parses it once, with ClusterDNS and NodeIPs; build a new
	// Generator when the node's resolv.conf changes.
	ResolvConf []byte
	// RootDir is kubelet's --root-dir; empty means DefaultRootDir. Pod directories are
	// <RootDir>/pods/<uid>.
	RootDir string
	// PodLogsDir is kubelet's podLogsDirectory; empty means logs.DefaultPodLogsDirectory.
	PodLogsDir string
	// FeatureGates are the node's feature gates; nil means features.Default().
	FeatureGates *features.Gates
	// Cgroups is the node's cgroup layout, for the sandbox's cgroup parent.
	Cgroups NodeCgroups
	// SELinuxEnabled says the host has SELinux enabled; only then do mounts ask for relabelling.
	SELinuxEnabled bool
	// RuntimeHandlers are the handlers the runtime reports in its status, with their features.
	// They decide whether recursive read-only mounts are supported for a pod's handler; nil means
	// the runtime reported none, so recursiveReadOnly: IfPossible resolves to false.
	RuntimeHandlers []*runtimeapi.RuntimeHandler

	// ConfigMaps, Secrets, Services and Node serve the environment's references (see EnvInput for
	// what nil means for each).
	ConfigMaps ConfigMapGetter
	Secrets    SecretGetter
	Services   ServiceLister
	Node       NodeGetter

	// Files performs the host file operations: the pod's etc-hosts, log and container directories,
	// termination-message files, env files and subPath checks. Nil means hostfs.OS{}.
	Files HostFiles
	// NodeHosts returns the node's /etc/hosts for host-network pods; nil reads /etc/hosts.
	NodeHosts func() ([]byte, error)
	// HostUtils answers subPath existence and mode questions; nil means the same through Files.
	HostUtils mounts.HostUtils
	// Subpather prepares subPath bind mounts; nil means the Linux backend, subpath.New().
	Subpather mounts.Subpather
	// BlockDevices checks block-device symlinks; nil means blockdev.OS{}.
	BlockDevices blockdev.SymlinkChecker
	// ImageUsers reports the user each image runs as. Nil makes GenerateContainerConfig fail with
	// ErrInvalidOptions: kubelet always asks the runtime, and guessing would bypass runAsNonRoot.
	ImageUsers security.ImageUserResolver
	// DeviceResources supplies what device plugins and DRA add to a container; nil means none.
	DeviceResources DeviceResourceGetter
	// ExtraSupplementalGroups returns the groups the pod's volumes ask for (the
	// pv.beta.kubernetes.io/gid annotation of its PVs); nil means none.
	ExtraSupplementalGroups func(pod *v1.Pod) []int64
	// Security configures seccomp, AppArmor, masked paths, user namespaces and sysctls.
	Security security.Config
	// Resources describes the node and kubelet settings for CPU, memory, hugepages and swap. Nil
	// means the local host's facts (resources.HostNode) with kubelet's default settings. Its Gates
	// are ignored: FeatureGates above apply to every package.
	Resources *resources.Config
	// OnWarning receives what kubelet would only log or record as an event while generating a
	// config (a missing optional ConfigMap, a skipped block device, a truncated hostname, DNS
	// limits), each with an event reason; container is nil for the sandbox's. Nil drops them.
	// GenerateRunContainerOptions returns them in RunContainerOptions instead. A provider
	// records them as events: recorder.Event(pod, "Warning", w.Reason, w.Message).
	OnWarning func(pod *v1.Pod, container *v1.Container, w Warning)
	// ExpansionLimits bounds the $(VAR) expansion of each container's env values, command and
	// args, and its environment; the zero value is DefaultMaxExpandedValueBytes per value,
	// DefaultMaxExpandedContainerBytes per container and DefaultMaxEnvironmentBytes for the
	// environment. Kubelet has no bound.
	ExpansionLimits ExpansionLimits
	// TerminationMessageRand names termination-message files; nil means random. A fixed source
	// makes offline output deterministic.
	TerminationMessageRand func() uint32
}

// HostFiles is the host file access a Generator needs. hostfs.OS and *hostfs.Memory implement it.
type HostFiles interface {
	MkdirAll(path string, perm fs.FileMode) error
	// WriteFile rewrites an existing file in place (the pod's etc-hosts keeps its inode), and
	// should leave its old content when it fails, as hostfs.OS does (it also writes nothing when
	// the file holds data already, as the pod's etc-hosts does for its later containers).
	WriteFile(path string, data []byte, perm fs.FileMode) error
	Create(path string) error
	Chmod(path string, perm fs.FileMode) error
	Stat(path string) (fs.FileInfo, error)
	Lstat(path string) (fs.FileInfo, error)
	Readlink(path string) (string, error)
	Open(path string) (fs.File, error)
	// OpenBeneath opens path inside root, never leaving it (see EnvFileFS).
	OpenBeneath(root, path string) (fs.File, error)
	ReadDir(path string) ([]fs.DirEntry, error)
	// Remove removes a file or an empty directory, never a directory's contents; a Generator
	// uses it to take back the directories a failed call made.
	Remove(path string) error
}

// DeviceResourceGetter returns what device plugins and DRA give a container (kubelet's
// ContainerManager.GetResources). Its devices, mounts, environment and annotations come before
// kubelet's own.
type DeviceResourceGetter interface {
	GetResources(ctx context.Context, pod *v1.Pod, container *v1.Container) (*DeviceResources, error)
}

// DeviceResourceGetterFunc adapts a function to DeviceResourceGetter.
type DeviceResourceGetterFunc func(ctx context.Context, pod *v1.Pod, container *v1.Container) (*DeviceResources, error)

// GetResources calls f.
func (f DeviceResourceGetterFunc) GetResources(ctx context.Context, pod *v1.Pod, container *v1.Container) (*DeviceResources, error) {
	if f == nil {
		return nil, fmt.Errorf("%w: nil DeviceResourceGetterFunc", ErrInvalidOptions)
	}
	return f(ctx, pod, container)
}

// DeviceResources is what device plugins and DRA add to a container.
type DeviceResources struct {
	Devices     []blockdev.DeviceInfo
	Mounts      []mounts.Mount
	Envs        []EnvVar
	Annotations map[string]string
	// CDIDevices are fully qualified CDI device names.
	CDIDevices []string
}
