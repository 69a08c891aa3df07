package configgen

import (
	"sync"

	v1 "k8s.io/api/core/v1"
)

// ServiceEnvCache keeps the service variables built last for each namespace, with what they
// were built from, so that the next call whose pod sees the same Services reuses them instead of
// building some seven names and values per Service port again. The Services are still listed and
// picked on every call; only their variables are reused, and only when every field they are made
// of (each Service's name, cluster IP and ports) is equal, so a result is the same with the cache
// as without it. An entry is immutable once stored, so calls share it after a short lock; the
// zero value is an empty cache, and one is safe for concurrent use.
//
// A Generator keeps its own. A provider that resolves environments with
// MakePodEnvironmentVariables or MakeEnvironmentVariables keeps one for its node, for as long as
// it runs, and sets it in every PodEnvInput or EnvInput: without one, each whole-pod call builds
// the variables once for its pod, and each single-container call for its container.
//
// It earns its keep: on internal/benchpod's pod (six Services, 74 variables) the production
// container config takes 60 µs of CPU with it and 72 µs without, and rendering 2,000 pods of
// one namespace 6% less CPU time; a node whose pods come from 20 namespaces in turn (the
// NodeLife benchmark) renders 1.5 times the configs per CPU-second with an entry per namespace as
// with only the last one.
type ServiceEnvCache struct {
	mu      sync.Mutex
	entries map[serviceEnvKey]*serviceEnv
	vars    int // over all entries
}

// serviceEnvKey is what decides which Services a pod sees.
type serviceEnvKey struct {
	namespace          string
	enableServiceLinks bool
}

// maxCachedVars bounds the variables a cache holds, so that many namespaces, or Services with
// many ports, cannot grow it without bound: past it, the cache starts over.
const maxCachedVars = 1 << 16

// serviceEnv is one cache entry: the variables of services (sorted by name, unique, never
// modified), whether every variable passes checkEnv (so the calls that reuse them need not check
// them again), and the fields of each Service they depend on.
type serviceEnv struct {
	services []serviceKey
	vars     []EnvVar
	checked  bool
}

// serviceKey is what appendServiceEnv reads of a Service: its name, cluster IP and ports.
type serviceKey struct {
	name, clusterIP string
	ports           []servicePortKey
}

type servicePortKey struct {
	name     string
	protocol v1.Protocol
	port     int32
}

// lookup returns the cached variables of services, or nil when they were built from other
// Services (or none were, or there is no cache).
func (c *ServiceEnvCache) lookup(key serviceEnvKey, services []*v1.Service) *serviceEnv {
	if c == nil || len(services) == 0 {
		return nil
	}
	c.mu.Lock()
	e := c.entries[key]
	c.mu.Unlock()
	if e == nil || len(e.services) != len(services) {
		return nil
	}
	for i, s := range services {
		k := &e.services[i]
		if k.name != s.Name || k.clusterIP != s.Spec.ClusterIP || len(k.ports) != len(s.Spec.Ports) {
			return nil
		}
		for j := range s.Spec.Ports {
			p := &s.Spec.Ports[j]
			if k.ports[j] != (servicePortKey{name: p.Name, protocol: p.Protocol, port: p.Port}) {
				return nil
			}
		}
	}
	return e
}

// store keeps vars, which no one may modify from now on, as the variables of services; checked
// says whether every one passes checkEnv.
func (c *ServiceEnvCache) store(key serviceEnvKey, services []*v1.Service, vars []EnvVar, checked bool) {
	e := &serviceEnv{services: make([]serviceKey, len(services)), vars: vars, checked: checked}
	for i, s := range services {
		k := serviceKey{name: s.Name, clusterIP: s.Spec.ClusterIP, ports: make([]servicePortKey, len(s.Spec.Ports))}
		for j := range s.Spec.Ports {
			p := &s.Spec.Ports[j]
			k.ports[j] = servicePortKey{name: p.Name, protocol: p.Protocol, port: p.Port}
		}
		e.services[i] = k
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.entries[key]; old != nil {
		c.vars -= len(old.vars)
	}
	if c.entries == nil || c.vars+len(vars) > maxCachedVars {
		c.entries, c.vars = map[serviceEnvKey]*serviceEnv{}, 0
	}
	c.entries[key] = e
	c.vars += len(vars)
}
