package node

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/clock"

	"github.com/podconfig/podconfig/backoff"
	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/logs"
	"github.com/podconfig/podconfig/offline"
	"github.com/podconfig/podconfig/podruntime"
	"github.com/podconfig/podconfig/resources"
	"github.com/podconfig/podconfig/security"
	"github.com/podconfig/podconfig/subpath"
	"github.com/podconfig/podconfig/volumes"
)

// Kubelet's user-namespace defaults: the first host id it hands out when /etc/subuid has no entry
// for it, and its default --max-pods, the number of 65536-id ranges.
const (
	firstUsernsHostID = 1 << 16
	maxUsernsPods     = 110
)

// Config describes the node and the runtime a Node runs pods on.
type Config struct {
	// Runtime and Images are the CRI services, e.g. from Dial.
	Runtime runtimeapi.RuntimeServiceClient
	Images  runtimeapi.ImageServiceClient
	// NodeName is the node's name (spec.nodeName of the pods); empty means the host name.
	NodeName string
	// NodeIPs are the node's IPs: host-network pods' IPs and status.hostIP.
	NodeIPs []net.IP
	// RootDir and PodLogsDir are kubelet's --root-dir and pod logs directory; empty means
	// kubelet's defaults, /var/lib/kubelet and /var/log/pods.
	RootDir    string
	PodLogsDir string
	// CgroupRoot is kubelet's --cgroup-root (cgroupfs driver): pods' cgroups go below
	// <CgroupRoot>/kubepods. Empty means "/".
	CgroupRoot string
	// CgroupDriver is kubelet's --cgroup-driver, used when the runtime does not report its own
	// (RuntimeConfig, which containerd 2.x answers and 1.6 does not); empty means cgroupfs.
	CgroupDriver configgen.CgroupDriver
	// ClusterDomain and ClusterDNS are kubelet's --cluster-domain and --cluster-dns.
	ClusterDomain string
	ClusterDNS    []string
	// ResolvConf is the content of the resolv.conf pods with dnsPolicy Default get.
	ResolvConf []byte
	// Objects serves the ConfigMaps, Secrets and Services pods refer to; nil means none. The
	// node has no API server: UpdateObjects changes objects and shows the change in running
	// pods' volumes.
	Objects *offline.Objects
	// Tokens requests the service-account tokens of projected serviceAccountToken sources
	// (kube-api-access volumes) from an API server (e.g. clientgo.TokenRequester), through
	// kubelet's token manager (volumes.TokenManager); nil means volumes.PlaceholderTokens, a
	// fixed text no API server accepts, as podconfig render writes.
	Tokens volumes.TokenRequester
	// Out receives the containers' logs, one "[pod/container] line" per line, a line longer than
	// 16 KiB in pieces of 16 KiB; nil discards them. The node keeps only their last 16 KiB.
	Out io.Writer
	// Logf receives what the node does and the warnings podconfig returns; nil discards them.
	Logf func(format string, args ...any)
	// RestartBackoff and MaxRestartBackoff are the crash-loop back-off's initial period and cap
	// (backoff.NewCrashLoop): a container's first restart is at once, the next after
	// RestartBackoff, doubled for each restart up to MaxRestartBackoff. Zero means kubelet's 10s
	// and 5m.
	RestartBackoff    time.Duration
	MaxRestartBackoff time.Duration
	// StopTimeout caps the grace period containers get when the pod is torn down; zero means the
	// pod's terminationGracePeriodSeconds.
	StopTimeout time.Duration
}

// Node runs pods on one CRI runtime, with podconfig generating every config. It is safe for
// concurrent use; a pod whose UID or namespace and name is already running is refused.
type Node struct {
	cfg Config
	gen *configgen.Generator
	// userns hands out the host ids of pods with hostUsers: false.
	userns *offline.UserNamespaces
	sub    *subpath.Linux
	// node serves the Node object to podconfig's environment code.
	node configgen.NodeGetter
	// rt runs the pods on the runtime as kubelet's runtime manager does; it holds every
	// container's restart back-off.
	rt *podruntime.Manager
	// vols sets up and tears down the pods' volumes.
	vols *volumes.Manager

	outMu sync.Mutex // one log line at a time on Out

	// running holds the UIDs and namespace/names of the pods RunPod is running, so a second pod
	// with either is refused instead of sharing the first one's directories and sandbox.
	runningMu sync.Mutex
	running   map[string]bool
	runs      map[types.UID]*podRun
}

// Dial connects to a CRI endpoint such as unix:///run/containerd/containerd.sock.
func Dial(endpoint string) (*grpc.ClientConn, error) {
	if !strings.HasPrefix(endpoint, "unix://") {
		return nil, fmt.Errorf("endpoint %q: only unix:// endpoints are supported", endpoint)
	}
	return grpc.NewClient(endpoint, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(16<<20)))
}

// New returns a Node for cfg. It asks the runtime for its version and, with
// configgen.ReadRuntimeFacts, for its cgroup driver and runtime handlers, which decide the pods'
// cgroup parents and whether recursive read-only mounts are possible.
func New(ctx context.Context, cfg Config) (*Node, error) {
	if cfg.Runtime == nil || cfg.Images == nil {
		return nil, errors.New("node: Config.Runtime and Config.Images are required")
	}
	if cfg.Objects == nil {
		cfg.Objects = offline.NewObjects()
	}
	if cfg.Out == nil {
		cfg.Out = io.Discard
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	if cfg.RootDir == "" {
		cfg.RootDir = configgen.DefaultRootDir
	}
	if cfg.PodLogsDir == "" {
		cfg.PodLogsDir = logs.DefaultPodLogsDirectory
	}
	version, err := cfg.Runtime.Version(ctx, &runtimeapi.VersionRequest{})
	if err != nil {
		return nil, fmt.Errorf("node: runtime version: %w", err)
	}
	// As kubelet does: the cgroup driver from RuntimeConfig when the runtime has it, and the
	// runtime handlers' features (recursive read-only mounts, user namespaces) from Status.
	facts, err := configgen.ReadRuntimeFacts(ctx, cfg.Runtime)
	if err != nil {
		return nil, fmt.Errorf("node: %w", err)
	}
	hostNode, err := resources.HostNode()
	if err != nil {
		return nil, fmt.Errorf("node: %w", err)
	}
	apiNode := nodeObject(cfg, hostNode)
	nodeGetter := configgen.NodeGetterFunc(func(context.Context) (*v1.Node, error) { return apiNode, nil })
	cgroupDriver := cfg.CgroupDriver
	if cgroupDriver == "" {
		cgroupDriver = configgen.CgroupDriverCgroupfs
	}
	opts := configgen.Options{
		NodeIPs:       cfg.NodeIPs,
		ClusterDomain: cfg.ClusterDomain,
		ClusterDNS:    cfg.ClusterDNS,
		ResolvConf:    cfg.ResolvConf,
		RootDir:       cfg.RootDir,
		PodLogsDir:    cfg.PodLogsDir,
		Cgroups:       configgen.NodeCgroups{Driver: cgroupDriver, Root: cfg.CgroupRoot},
		ConfigMaps:    cfg.Objects,
		Secrets:       cfg.Objects,
		Services:      cfg.Objects,
		Node:          nodeGetter,
		ImageUsers:    security.CRIImageUser{Client: cfg.Images},
		OnWarning: func(pod *v1.Pod, c *v1.Container, w configgen.Warning) {
			name := ""
			if c != nil {
				name = "/" + c.Name
			}
			cfg.Logf("warning: pod %s/%s%s: %s", pod.Namespace, pod.Name, name, w)
		},
	}
	facts.Apply(&opts)
	// As kubelet's userns manager without a kubelet entry in /etc/subuid: 65536 host ids per pod
	// from 65536 up, for at most 110 pods (its default --max-pods), where the runtime's handler
	// supports user namespaces. The ranges are kept in memory only, not under the pod directory.
	userns := offline.AllocatingUserNamespaces(firstUsernsHostID, maxUsernsPods)
	userns.Handlers = facts.UserNamespaceHandlers()
	opts.Security.UserNamespaces = userns
	gen, err := configgen.New(opts)
	if err != nil {
		return nil, fmt.Errorf("node: %w", err)
	}
	clk := clock.RealClock{}
	var tokens volumes.TokenGetter = volumes.PlaceholderTokens{}
	if cfg.Tokens != nil {
		tokens = volumes.NewTokenManager(cfg.Tokens, clk)
	} else {
		cfg.Logf("service-account tokens: placeholders no API server accepts (set Config.Tokens for real ones)")
	}
	n := &Node{cfg: cfg, gen: gen, userns: userns, sub: subpath.New(), node: nodeGetter,
		vols: newVolumeManager(cfg, nodeGetter, tokens)}
	n.rt, err = podruntime.New(ctx, podruntime.Options{
		Runtime: cfg.Runtime, Images: cfg.Images, Generator: timedGenerator{gen, n}, RuntimeName: version.GetRuntimeName(),
		NodeIPs: cfg.NodeIPs, RuntimeHandlers: facts.Handlers, CrashLoop: backoff.NewCrashLoop(cfg.RestartBackoff, cfg.MaxRestartBackoff, clk),
		Clock: clk, Events: n.logEvent, OnWarning: func(pod *v1.Pod, msg string) { cfg.Logf("warning: pod %s/%s: %s", pod.Namespace, pod.Name, msg) },
	})
	if err != nil {
		return nil, fmt.Errorf("node: %w", err)
	}
	return n, nil
}

// newVolumeManager is the volumes.Manager of a node: the pods' objects, the node's allocatable
// resources and service-account tokens, on the real host.
func newVolumeManager(cfg Config, node volumes.NodeGetter, tokens volumes.TokenGetter) *volumes.Manager {
	return &volumes.Manager{RootDir: cfg.RootDir, Host: volumes.NewLinuxHost(), Sources: volumes.Sources{
		ConfigMaps: cfg.Objects, Secrets: cfg.Objects, Node: node, Tokens: tokens}}
}

// nodeObject is the Node object podconfig's environment reads: addresses for status.hostIP and
// allocatable resources for the default limits of resourceFieldRef.
func nodeObject(cfg Config, host resources.Node) *v1.Node {
	n := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: cfg.NodeName}}
	for _, ip := range cfg.NodeIPs {
		n.Status.Addresses = append(n.Status.Addresses, v1.NodeAddress{Type: v1.NodeInternalIP, Address: ip.String()})
	}
	n.Status.Allocatable = v1.ResourceList{
		v1.ResourceCPU:    *resource.NewQuantity(int64(runtime.NumCPU()), resource.DecimalSI),
		v1.ResourceMemory: *resource.NewQuantity(host.MemoryCapacity, resource.BinarySI),
	}
	n.Status.Capacity = n.Status.Allocatable
	return n
}
