package configgen

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/blockdev"
	"github.com/podconfig/podconfig/features"
	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/internal/errkind"
	"github.com/podconfig/podconfig/internal/keylock"
	"github.com/podconfig/podconfig/internal/pathelem"
	"github.com/podconfig/podconfig/internal/podid"
	"github.com/podconfig/podconfig/logs"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/resources"
	"github.com/podconfig/podconfig/security"
	"github.com/podconfig/podconfig/subpath"
)

// The categories of an *Error besides ErrDependencyFailed; errors that are podconfig's own (not
// kubelet's) also wrap them directly.
var (
	// ErrInvalidPod: the pod's spec is invalid or unsafe for this node (e.g. a field that becomes
	// part of a host path or a file), or a required input (pod, container) is missing, so it
	// cannot run as written: do not retry the same call. It is the Category of every *Error whose
	// cause is the spec.
	ErrInvalidPod = errkind.InvalidPod
	// ErrInvalidOptions: Options hold a combination that kubelet's configuration validation
	// refuses, a dependency the call needs is missing (an Options field with no default, a
	// getter for a ConfigMap or Secret the pod references), or a dependency broke its contract:
	// fix the configuration. It is the Category of every *Error whose cause is the configuration.
	ErrInvalidOptions = errkind.InvalidOptions
)

// Deprecated names of the categories above, kept for one release.
var (
	// Deprecated: use ErrInvalidOptions, which a missing dependency now is.
	ErrMissingDependency = ErrInvalidOptions
	// Deprecated: use ErrInvalidOptions, which a missing ConfigMap or Secret getter now is.
	ErrNoGetter = ErrInvalidOptions
	// Deprecated: use ErrInvalidPod, which a missing pod or container now is.
	ErrInvalidInput = ErrInvalidPod
)

// Generator turns pods into CRI configs for one node. Build it with New: the methods of a zero
// Generator (or a nil one) return an ErrInvalidOptions error and do nothing. Its only mutable
// state is a cache of the service variables it built for each namespace, reused while the
// Services are unchanged, a pool of memory for the environments GenerateContainerConfig builds and converts,
// and the locks by which calls for the same pod take turns making (and, on failure, removing)
// its data directories: it is safe for concurrent use, and two calls never share a result.
type Generator struct {
	opts      Options
	gates     FeatureGates
	files     HostFiles
	hostUtils mounts.HostUtils
	subpather mounts.Subpather
	blockdevs blockdev.SymlinkChecker
	security  *security.Resolver
	resources *resources.Calculator
	// dns is the node's DNS setup parsed once; pods copy what they keep.
	dns *nodeDNSFacts
	// podsDir is <RootDir>/pods, clean.
	podsDir string
	// services keeps the service variables built for each namespace, for the next call that
	// sees the same Services.
	services *ServiceEnvCache
	// podDirLocks serialise, for one pod, a call's span from making the pod's data directories
	// to its last step that can fail and take them back, so that one call never removes
	// directories another has just found and relies on. A pod's UID picks one of a fixed set.
	podDirLocks keylock.Set
	// envSpaces holds *envSpace for GenerateContainerConfig.
	envSpaces sync.Pool
}

// lockPodDirs locks the pod's entry of podDirLocks and returns it, for the caller to unlock.
// Pods that share an entry only wait for each other's few lookups.
func (g *Generator) lockPodDirs(pod *v1.Pod) *sync.Mutex {
	mu := g.podDirLocks.For(string(pod.UID))
	mu.Lock()
	return mu
}

// New returns a Generator for the node Options describes. It fails when a default that reads the
// host (the node's resources) cannot be read, when the resources settings are invalid, and with
// ErrInvalidOptions when Security.DefaultPodSysctls is set without the DefaultPodSysctls feature
// gate, as kubelet's configuration validation does.
func New(opts Options) (*Generator, error) {
	g := &Generator{opts: opts, gates: features.Default(), services: &ServiceEnvCache{}}
	if opts.FeatureGates != nil {
		g.gates = *opts.FeatureGates
	}
	if len(opts.Security.DefaultPodSysctls) > 0 && !g.gates.DefaultPodSysctls {
		return nil, errkind.New(ErrInvalidOptions,
			"invalid configuration: DefaultPodSysctls feature gate is required for Kubelet configuration option defaultPodSysctls", nil)
	}
	if g.opts.RootDir == "" {
		g.opts.RootDir = DefaultRootDir
	}
	if g.opts.PodLogsDir == "" {
		g.opts.PodLogsDir = logs.DefaultPodLogsDirectory
	}
	if !filepath.IsAbs(g.opts.RootDir) || !filepath.IsAbs(g.opts.PodLogsDir) {
		return nil, fmt.Errorf("%w: RootDir %q and PodLogsDir %q must be absolute", ErrInvalidOptions, g.opts.RootDir, g.opts.PodLogsDir)
	}
	g.podsDir = filepath.Join(g.opts.RootDir, "pods")
	g.files = opts.Files
	if g.files == nil {
		g.files = hostfs.OS{}
	}
	g.hostUtils = opts.HostUtils
	if g.hostUtils == nil {
		g.hostUtils = statHostUtils{g.files}
	}
	g.subpather = opts.Subpather
	if g.subpather == nil {
		g.subpather = subpath.New()
	}
	g.blockdevs = opts.BlockDevices
	if g.blockdevs == nil {
		g.blockdevs = blockdev.OS{}
	}
	g.security = security.New(opts.Security)
	nodeIPs := make([]string, len(opts.NodeIPs))
	for i, ip := range opts.NodeIPs {
		nodeIPs[i] = ip.String()
	}
	g.dns = parseNodeDNS(NodeDNS{
		ClusterDNS: opts.ClusterDNS, ClusterDomain: opts.ClusterDomain,
		HostResolvConf: opts.ResolvConf, NodeIPs: nodeIPs,
	})

	var rcfg resources.Config
	if opts.Resources != nil {
		rcfg = *opts.Resources
	} else {
		node, err := resources.HostNode()
		if err != nil {
			return nil, fmt.Errorf("reading the node's resources (set Options.Resources to render offline): %w", err)
		}
		rcfg = resources.DefaultConfig(node)
	}
	// The feature gates are the single source of truth for every package.
	rcfg.Gates = g.gates
	calc, err := resources.New(rcfg)
	if err != nil {
		return nil, err
	}
	g.resources = calc
	return g, nil
}

// errNotBuilt is what the methods of a Generator that New did not build return.
var errNotBuilt = fmt.Errorf("%w: the Generator was not built by configgen.New", ErrInvalidOptions)

// built fails for a Generator that New did not build (a zero or nil one), which has no node
// facts and no backends to act through.
func (g *Generator) built() error {
	if g == nil || g.files == nil {
		return errNotBuilt
	}
	return nil
}

// PodDir returns the pod's directory, <RootDir>/pods/<uid> (kubelet's getPodDir). The pod's
// namespace, name and UID must be ones the node accepts (see ValidatePod).
func (g *Generator) PodDir(pod *v1.Pod) (string, error) {
	if err := g.built(); err != nil {
		return "", err
	}
	if err := checkPodIdentity(pod); err != nil {
		return "", err
	}
	// The UID is one valid path element, so joining it to the clean podsDir needs no Clean.
	return g.podsDir + "/" + string(pod.UID), nil
}

// checkPodIdentity refuses a nil pod and one whose namespace, name or UID the node cannot build
// directories, cgroups and DNS names from (see ValidatePod).
func checkPodIdentity(pod *v1.Pod) error {
	if pod == nil {
		return fmt.Errorf("%w: pod must not be nil", ErrInvalidPod)
	}
	if _, msg := podid.Problem(pod.Namespace, pod.Name, pod.UID); msg != "" {
		return fmt.Errorf("pod %q: %w", pod.Namespace+"/"+pod.Name, errkind.New(ErrInvalidPod, msg, nil))
	}
	return nil
}

// checkPathElement rejects names that would not stay one element of a host path.
func checkPathElement(field, name string) error {
	if msg := pathelem.Validate(field, name); msg != "" {
		return errkind.New(ErrInvalidPod, msg, nil)
	}
	return nil
}

// statHostUtils answers HostUtils questions with Stat, as kubelet's hostutil does.
type statHostUtils struct{ files HostFiles }

func (h statHostUtils) PathExists(path string) (bool, error) {
	_, err := h.files.Stat(path)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	default:
		return false, err
	}
}

func (h statHostUtils) GetMode(path string) (fs.FileMode, error) {
	fi, err := h.files.Stat(path)
	if err != nil {
		return 0, err
	}
	return fi.Mode(), nil
}
