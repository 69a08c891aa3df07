package configgen

import (
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// masterService is the Service whose variables every pod gets, from the default namespace, even
// without enableServiceLinks.
const masterService = "kubernetes"

// serviceEnv sets b.svc to the service variables the pod gets (kubelet: getServiceEnvVarMap),
// from the cache when it holds those of the same Services. checked reports whether every one is
// known to pass checkEnv.
func (b *envBuilder) serviceEnv(enableServiceLinks bool) (checked bool, err error) {
	services, err := b.pickServices(enableServiceLinks)
	if err != nil || len(services) == 0 {
		return false, err
	}
	key := serviceEnvKey{namespace: b.in.Pod.Namespace, enableServiceLinks: enableServiceLinks}
	if e := b.in.ServiceEnvCache.lookup(key, services); e != nil {
		b.svc = e.vars
		return e.checked, nil
	}
	b.svc = serviceEnvVars(services)
	if b.in.ServiceEnvCache == nil {
		return false, nil
	}
	checked = envsPassCheck(b.svc)
	b.in.ServiceEnvCache.store(key, services, b.svc, checked)
	return checked, nil
}

// pickServices lists the Services whose variables the pod gets, sorted by name and one per name.
func (b *envBuilder) pickServices(enableServiceLinks bool) ([]*v1.Service, error) {
	lister := b.in.Services
	if lister == nil {
		return nil, nil
	}
	ns := b.in.Pod.Namespace
	defaults, err := lister.ListServices(b.ctx, metav1.NamespaceDefault)
	if err != nil {
		return nil, newEnvError(ErrServiceList, "failed to list services when setting up env vars", err)
	}
	var own []*v1.Service
	if enableServiceLinks && ns != metav1.NamespaceDefault {
		if own, err = lister.ListServices(b.ctx, ns); err != nil {
			return nil, newEnvError(ErrServiceList, "failed to list services when setting up env vars", err)
		}
	}

	var master *v1.Service
	picked := make([]*v1.Service, 0, len(own)+1)
	for _, s := range defaults {
		if !serviceIn(s, metav1.NamespaceDefault) {
			continue
		}
		if s.Name == masterService {
			if master == nil {
				master = s
			}
			continue
		}
		if enableServiceLinks && ns == metav1.NamespaceDefault {
			picked = append(picked, s)
		}
	}
	for _, s := range own {
		if serviceIn(s, ns) {
			picked = append(picked, s)
		}
	}
	// Services are keyed by name, the last of a name winning; the pod's own "kubernetes" Service
	// replaces the default one.
	slices.SortStableFunc(picked, func(a, c *v1.Service) int { return strings.Compare(a.Name, c.Name) })
	picked = keepLast(picked, func(s *v1.Service) string { return s.Name })
	if master != nil {
		if i, found := slices.BinarySearchFunc(picked, masterService, func(s *v1.Service, name string) int {
			return strings.Compare(s.Name, name)
		}); !found {
			picked = slices.Insert(picked, i, master)
		}
	}

	kept := picked[:0]
	for _, s := range picked {
		if len(s.Spec.Ports) == 0 {
			// Kubelet would index the missing first port and crash.
			b.warn(ReasonServiceWithoutPorts, fmt.Sprintf("service %s/%s has a cluster IP but no ports: it gives no environment variables", s.Namespace, s.Name))
			continue
		}
		kept = append(kept, s)
	}
	return kept, nil
}

// serviceEnvVars returns the variables of services, which are sorted by name and unique, sorted
// by variable name (kubelet: envvars.FromServices). When two Services give the same variable
// name, the one whose variable prefix (its name upper-cased, '-' as '_') followed by '_' sorts
// later wins, and of equal prefixes the one whose name sorts later (kubelet's choice depends on
// map order); within one Service the later port wins, as in kubelet.
func serviceEnvVars(services []*v1.Service) []EnvVar {
	type prefixed struct {
		key string // the variable prefix and '_'
		svc *v1.Service
	}
	byPrefix := make([]prefixed, len(services))
	for i, s := range services {
		byPrefix[i] = prefixed{key: envVarName(s.Name) + "_", svc: s}
	}
	slices.SortStableFunc(byPrefix, func(a, c prefixed) int { return strings.Compare(a.key, c.key) })
	var vars []EnvVar
	for _, p := range byPrefix {
		vars = appendServiceEnv(vars, p.svc)
	}
	slices.SortStableFunc(vars, func(a, c EnvVar) int { return strings.Compare(a.Name, c.Name) })
	return keepLast(vars, func(e EnvVar) string { return e.Name })
}

// appendServiceEnv appends the variables of one Service in kubelet's order (envvars.FromServices
// and makeLinkVariables).
func appendServiceEnv(vars []EnvVar, s *v1.Service) []EnvVar {
	prefix := envVarName(s.Name)
	ip := s.Spec.ClusterIP
	vars = append(vars,
		EnvVar{Name: prefix + "_SERVICE_HOST", Value: ip},
		EnvVar{Name: prefix + "_SERVICE_PORT", Value: strconv.Itoa(int(s.Spec.Ports[0].Port))})
	for i := range s.Spec.Ports {
		if p := &s.Spec.Ports[i]; p.Name != "" {
			vars = append(vars, EnvVar{Name: prefix + "_SERVICE_PORT_" + envVarName(p.Name), Value: strconv.Itoa(int(p.Port))})
		}
	}
	for i := range s.Spec.Ports {
		p := &s.Spec.Ports[i]
		protocol := string(v1.ProtocolTCP)
		if p.Protocol != "" {
			protocol = string(p.Protocol)
		}
		port, lower := strconv.Itoa(int(p.Port)), strings.ToLower(protocol)
		url := lower + "://" + net.JoinHostPort(ip, port)
		if i == 0 {
			vars = append(vars, EnvVar{Name: prefix + "_PORT", Value: url})
		}
		base := prefix + "_PORT_" + port + "_" + strings.ToUpper(protocol)
		vars = append(vars,
			EnvVar{Name: base, Value: url},
			EnvVar{Name: base + "_PROTO", Value: lower},
			EnvVar{Name: base + "_PORT", Value: port},
			EnvVar{Name: base + "_ADDR", Value: ip})
	}
	return vars
}

// envVarName is s upper-cased with '-' replaced by '_' (kubelet: makeEnvVariableName).
func envVarName(s string) string { return strings.ToUpper(strings.ReplaceAll(s, "-", "_")) }

// envsPassCheck reports whether checkEnv accepts every variable of envs.
func envsPassCheck(envs []EnvVar) bool {
	for _, e := range envs {
		if !envPassesCheck(e) {
			return false
		}
	}
	return true
}

// serviceIn reports whether s has a cluster IP and belongs to namespace ns; a Service with no
// namespace is taken to be in the namespace it was listed for.
func serviceIn(s *v1.Service, ns string) bool {
	if s == nil || s.Spec.ClusterIP == "" || s.Spec.ClusterIP == v1.ClusterIPNone {
		return false
	}
	return s.Namespace == ns || s.Namespace == ""
}

// keepLast removes all but the last of each run of elements with the same key.
func keepLast[T any](list []T, key func(T) string) []T {
	out := list[:0]
	for i := range list {
		if i+1 < len(list) && key(list[i+1]) == key(list[i]) {
			continue
		}
		out = append(out, list[i])
	}
	return out
}
