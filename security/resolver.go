package security

import (
	"reflect"
	"sync"
)

// DefaultSeccompProfileRoot is kubelet's seccomp profile root: <root-dir>/seccomp with the default
// root dir /var/lib/kubelet.
const DefaultSeccompProfileRoot = "/var/lib/kubelet/seccomp"

// Config holds the node's settings that change security output. The zero value is kubelet's
// default except where a field says otherwise.
type Config struct {
	// SeccompProfileRoot is the directory Localhost seccomp profiles are read from. Empty means
	// DefaultSeccompProfileRoot.
	SeccompProfileRoot string
	// SeccompDefault is the kubelet setting seccompDefault: RuntimeDefault instead of Unconfined
	// for containers that set no seccomp profile. Off by default.
	SeccompDefault bool
	// ThermalThrottle supplies the host-dependent masked paths. Nil means HostCPUs{} (read the
	// node's /sys once per Resolver); use a fixed list (offline.ThermalPaths) for deterministic output.
	ThermalThrottle ThermalThrottlePaths
	// UserNamespaces supplies the id mappings of pods with hostUsers: false. Nil means the runtime
	// has no user-namespace support: such pods are an error.
	UserNamespaces UserNamespaceMapper
	// RuntimeClasses maps a pod's runtimeClassName to its CRI handler, as kubelet's RuntimeClass
	// manager does. Nil means every pod uses the default handler "".
	RuntimeClasses RuntimeHandlerResolver
	// Deprecated: use RuntimeClasses; it is read only when RuntimeClasses is nil. (The runtime's
	// list of handlers and their features is configgen.Options.RuntimeHandlers.)
	RuntimeHandlers RuntimeHandlerResolver
	// DefaultPodSysctls are the kubelet's defaultPodSysctls, applied to every sandbox (filtered by
	// namespace, see SandboxSysctls). Kubelet accepts them only with the DefaultPodSysctls feature
	// gate (alpha, off by default), so a configgen.Generator refuses them unless its
	// FeatureGates.DefaultPodSysctls is on. The Resolver does not modify the map.
	DefaultPodSysctls map[string]string
}

// Resolver turns pods and containers into CRI security settings for one node. Build it with New;
// the zero value, and a nil *Resolver, behave as New(Config{}). It is safe for concurrent use and
// keeps no state other than the node's masked paths, computed on first use.
type Resolver struct {
	cfg    Config
	once   sync.Once
	masked []string
}

// New returns a Resolver for cfg, with empty fields set to their documented defaults. An interface
// field that holds a nil pointer counts as unset, as kubelet's NamespacesForPod treats a nil
// RuntimeClass manager, so that no call is made on it.
func New(cfg Config) *Resolver {
	return &Resolver{cfg: withDefaults(cfg)}
}

func withDefaults(cfg Config) Config {
	if isNilPointer(cfg.RuntimeClasses) {
		cfg.RuntimeClasses = nil
	}
	if cfg.RuntimeClasses == nil && !isNilPointer(cfg.RuntimeHandlers) {
		cfg.RuntimeClasses = cfg.RuntimeHandlers
	}
	cfg.RuntimeHandlers = nil
	if isNilPointer(cfg.UserNamespaces) {
		cfg.UserNamespaces = nil
	}
	if isNilPointer(cfg.ThermalThrottle) {
		cfg.ThermalThrottle = nil
	}
	if cfg.SeccompProfileRoot == "" {
		cfg.SeccompProfileRoot = DefaultSeccompProfileRoot
	}
	if cfg.ThermalThrottle == nil {
		cfg.ThermalThrottle = HostCPUs{}
	}
	return cfg
}

// Config returns the Resolver's settings with defaults applied.
func (r *Resolver) Config() Config {
	switch {
	case r == nil:
		return withDefaults(Config{})
	case r.cfg.ThermalThrottle != nil: // built by New, which applied the defaults already
		return r.cfg
	}
	return withDefaults(r.cfg)
}

// maskedList returns the default masked paths with the node's thermal tail, computed once. Callers
// must not modify it.
func (r *Resolver) maskedList() []string {
	if r == nil {
		return maskedPaths(HostCPUs{}.ThermalThrottlePaths())
	}
	r.once.Do(func() { r.masked = maskedPaths(r.Config().ThermalThrottle.ThermalThrottlePaths()) })
	return r.masked
}

// isNilPointer reports whether v is an interface value holding a nil pointer.
func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}
