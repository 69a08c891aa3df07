package configgen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// masterService is the Service whose variables every pod gets, from the default namespace, even
// without enableServiceLinks.
const masterService = "kubernetes"

// buildServiceEnv computes the service-link variables into b.svc, sorted by name (kubelet:
// getServiceEnvVarMap and envvars.FromServices). When two services produce the same variable name,
// the service that sorts later by name wins (kubelet's choice depends on map order).
func (b *envBuilder) buildServiceEnv(enableServiceLinks bool) error {
	lister := b.in.Services
	if lister == nil {
		return nil
	}
	ns := b.in.Pod.Namespace
	defaults, err := lister.ListServices(b.ctx, metav1.NamespaceDefault)
	if err != nil {
		return newEnvError(ErrServiceList, "failed to list services when setting up env vars", err)
	}
	var own []*v1.Service
	if enableServiceLinks && ns != metav1.NamespaceDefault {
		if own, err = lister.ListServices(b.ctx, ns); err != nil {
			return newEnvError(ErrServiceList, "failed to list services when setting up env vars", err)
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

	size, count := 0, 0
	for _, s := range picked {
		if len(s.Spec.Ports) == 0 {
			b.warnings = append(b.warnings, fmt.Sprintf("service %s/%s has a cluster IP but no ports: it gives no environment variables", s.Namespace, s.Name))
			continue
		}
		n, c := serviceEnvSize(s)
		size += n
		count += c
	}
	w := envWriter{vars: make([]EnvVar, 0, count)}
	w.text.Grow(size)
	for _, s := range picked {
		if len(s.Spec.Ports) > 0 {
			w.addService(s)
		}
	}
	slices.SortStableFunc(w.vars, func(a, c EnvVar) int { return strings.Compare(a.Name, c.Name) })
	b.svc = keepLast(w.vars, func(e EnvVar) string { return e.Name })
	return nil
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

// serviceEnvSize bounds the bytes and counts the variables addService writes for s.
func serviceEnvSize(s *v1.Service) (size, count int) {
	const portLen = 11 // "-2147483648"
	name, ip := len(s.Name), len(s.Spec.ClusterIP)
	size = 2*(name+len("_SERVICE_HOST")) + ip + portLen
	size += name + len("_PORT") + len("sctp://[]:") + ip + portLen
	count = 3
	for _, p := range s.Spec.Ports {
		proto := max(len(p.Protocol), 3)
		if p.Name != "" {
			size += name + len("_SERVICE_PORT_") + len(p.Name) + portLen
			count++
		}
		prefix := name + len("_PORT__") + portLen + proto
		size += 4*prefix + len("_PROTO_PORT_ADDR")
		size += proto + len("://[]:") + ip + portLen + proto + portLen + ip
		count += 4
	}
	return size, count
}

// envWriter writes variable names and values into one buffer and slices them from it, so that the
// service variables cost one allocation instead of one per string.
type envWriter struct {
	text strings.Builder
	vars []EnvVar
}

// addService writes the variables of one Service (kubelet: envvars.FromServices).
func (w *envWriter) addService(s *v1.Service) {
	ip := s.Spec.ClusterIP
	first := &s.Spec.Ports[0]

	start := w.text.Len()
	writeEnvName(&w.text, s.Name)
	prefixLen := w.text.Len() - start

	w.add(start, prefixLen, "_SERVICE_HOST", "", ip)
	w.add(start, prefixLen, "_SERVICE_PORT", "", portString(&w.text, first.Port))
	for i := range s.Spec.Ports {
		p := &s.Spec.Ports[i]
		if p.Name == "" {
			continue
		}
		w.add(start, prefixLen, "_SERVICE_PORT_", p.Name, portString(&w.text, p.Port))
	}

	// Docker link variables.
	w.add(start, prefixLen, "_PORT", "", w.url(protocol(first), ip, first.Port))
	for i := range s.Spec.Ports {
		p := &s.Spec.Ports[i]
		proto := protocol(p)
		// <NAME>_PORT_<port>_<PROTO>
		base := w.text.Len()
		w.text.WriteString(w.text.String()[start : start+prefixLen])
		w.text.WriteString("_PORT_")
		var num [12]byte
		w.text.Write(strconv.AppendInt(num[:0], int64(p.Port), 10))
		w.text.WriteByte('_')
		writeUpper(&w.text, proto)
		baseLen := w.text.Len() - base
		lower := lowerString(&w.text, proto)
		w.vars = append(w.vars, EnvVar{Name: w.text.String()[base : base+baseLen], Value: w.url(proto, ip, p.Port)})
		w.add(base, baseLen, "_PROTO", "", lower)
		w.add(base, baseLen, "_PORT", "", portString(&w.text, p.Port))
		w.add(base, baseLen, "_ADDR", "", ip)
	}
}

// add defines a variable named by the text already written at [start, start+n), then suffix, then
// envName(portName), with the given value.
func (w *envWriter) add(start, n int, suffix, portName, value string) {
	at := w.text.Len()
	w.text.WriteString(w.text.String()[start : start+n])
	w.text.WriteString(suffix)
	if portName != "" {
		writeEnvName(&w.text, portName)
	}
	w.vars = append(w.vars, EnvVar{Name: w.text.String()[at:], Value: value})
}

// url writes "<proto in lower case>://<ip>:<port>", the IP in brackets when it is IPv6.
func (w *envWriter) url(proto, ip string, port int32) string {
	at := w.text.Len()
	writeLower(&w.text, proto)
	w.text.WriteString("://")
	if strings.IndexByte(ip, ':') >= 0 {
		// net.JoinHostPort's rule, which kubelet uses.
		w.text.WriteByte('[')
		w.text.WriteString(ip)
		w.text.WriteByte(']')
	} else {
		w.text.WriteString(ip)
	}
	w.text.WriteByte(':')
	var num [12]byte
	w.text.Write(strconv.AppendInt(num[:0], int64(port), 10))
	return w.text.String()[at:]
}

func protocol(p *v1.ServicePort) string {
	if p.Protocol == "" {
		return string(v1.ProtocolTCP)
	}
	return string(p.Protocol)
}

func portString(text *strings.Builder, port int32) string {
	at := text.Len()
	var num [12]byte
	text.Write(strconv.AppendInt(num[:0], int64(port), 10))
	return text.String()[at:]
}

func lowerString(text *strings.Builder, s string) string {
	at := text.Len()
	writeLower(text, s)
	return text.String()[at:]
}

// writeEnvName writes s upper-cased with '-' replaced by '_' (kubelet: makeEnvVariableName).
func writeEnvName(text *strings.Builder, s string) {
	if !isASCII(s) {
		text.WriteString(strings.ToUpper(strings.ReplaceAll(s, "-", "_")))
		return
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '-':
			c = '_'
		case 'a' <= c && c <= 'z':
			c -= 'a' - 'A'
		}
		text.WriteByte(c)
	}
}

func writeUpper(text *strings.Builder, s string) {
	if !isASCII(s) {
		text.WriteString(strings.ToUpper(s))
		return
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		text.WriteByte(c)
	}
}

func writeLower(text *strings.Builder, s string) {
	if !isASCII(s) {
		text.WriteString(strings.ToLower(s))
		return
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		text.WriteByte(c)
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
