package configgen

import (
	"cmp"
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

// pickServices lists the Services whose variables the pod gets into b.services, sorted by name
// and one per name (kubelet: getServiceEnvVarMap).
func (b *envBuilder) pickServices(enableServiceLinks bool) error {
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
	var picked []*v1.Service
	if s := b.in.scratch; s != nil && cap(s.services) >= len(own)+1 {
		picked = s.services[:0]
	} else {
		picked = make([]*v1.Service, 0, len(own)+1)
	}
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
	b.services = kept
	if s := b.in.scratch; s != nil {
		s.services = picked
	}
	return nil
}

// sizeServices counts the variables of b.services and the bytes they need, for writing them.
func (b *envBuilder) sizeServices() {
	for _, s := range b.services {
		n, c := serviceEnvSize(s)
		b.svcText += n
		b.svcCount += c
	}
}

// writeServiceEnv writes the variables of b.services into dst, which has room for b.svcCount,
// and keeps them in b.svc sorted by name (kubelet: envvars.FromServices). When two Services give
// the same variable name, the one whose variable prefix (its name upper-cased, '-' as '_') sorts
// later wins, and of equal prefixes the one whose name sorts later (kubelet's choice depends on
// map order).
func (b *envBuilder) writeServiceEnv(dst []EnvVar) {
	if len(b.services) == 0 {
		return
	}
	w := envWriter{vars: dst}
	w.text.Grow(b.svcText)
	var groupBuf [16]varGroup
	groups := groupBuf[:0]
	if len(b.services) > len(groupBuf) {
		groups = make([]varGroup, 0, len(b.services))
	}
	groups = groups[:len(b.services)]
	for i, s := range b.services {
		// The prefix is written as the start of <NAME>_SERVICE_HOST, which shares its bytes.
		at := w.text.Len()
		writeEnvName(&w.text, s.Name)
		n := w.text.Len() - at
		w.text.WriteString("_SERVICE_HOST")
		host := w.text.String()[at:]
		groups[i] = varGroup{svc: s, prefix: host[:n], host: host}
	}
	slices.SortStableFunc(groups, func(a, c varGroup) int { return compareGroupKey(a.prefix, c.prefix) })
	// Every variable of a Service is named prefix + "_" + something. Unless one prefix + "_"
	// starts another, each Service's variables sort as one block, in the order of the prefixes.
	blocks := true
	for i := 1; i < len(groups); i++ {
		long, short := groups[i].prefix, groups[i-1].prefix
		if strings.HasPrefix(long, short) && (len(long) == len(short) || long[len(short)] == '_') {
			blocks = false
			break
		}
	}
	for i := range groups {
		g := &groups[i]
		g.start = len(w.vars)
		w.addService(g.svc, g.prefix, g.host)
		g.end = len(w.vars)
		// Every variable's head is the prefix's when that is three bytes or longer.
		if len(g.prefix) >= 3 {
			b.svcNames.add(g.prefix)
		} else {
			for _, e := range w.vars[g.start:g.end] {
				b.svcNames.add(e.Name)
			}
		}
	}
	vars := w.vars
	if !blocks {
		sortVarsByName(vars)
		b.svc = keepLast(vars, func(e EnvVar) string { return e.Name })
		return
	}
	unique := true
	for _, g := range groups {
		// addService writes a Service's variables in name order unless its ports are not
		// declared in order; only then is there something to sort.
		block := vars[g.start:g.end]
		if !strictlySorted(block, len(g.prefix)) {
			sortVarsByName(block)
			unique = false
		}
	}
	if !unique {
		vars = keepLast(vars, func(e EnvVar) string { return e.Name })
	}
	b.svc = vars
}

// varGroup is one Service and the range of variables it gave, all named prefix + "_" + ....
type varGroup struct {
	svc        *v1.Service
	prefix     string
	host       string // the name <NAME>_SERVICE_HOST, already written
	start, end int
}

// strictlySorted reports whether the names, which all start with the same skip bytes, are in
// increasing order.
func strictlySorted(vars []EnvVar, skip int) bool {
	for i := 1; i < len(vars); i++ {
		if vars[i-1].Name[skip:] >= vars[i].Name[skip:] {
			return false
		}
	}
	return true
}

// sortVarsByName sorts vars by name, keeping the order of equal names. It sorts an index and then
// moves each variable once: moving the pointer-holding EnvVars during the sort itself costs a write
// barrier per swap while the garbage collector runs.
func sortVarsByName(vars []EnvVar) {
	order := make([]int32, len(vars))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, c int32) int {
		if r := strings.Compare(vars[a].Name, vars[c].Name); r != 0 {
			return r
		}
		return int(a - c)
	})
	// Apply the permutation in place, one cycle at a time: position k receives vars[order[k]].
	// A visited position is marked by setting its order entry to -1.
	for k := range order {
		if order[k] < 0 || int(order[k]) == k {
			continue
		}
		saved := vars[k]
		j := k
		for {
			next := int(order[j])
			order[j] = -1
			if next == k {
				vars[j] = saved
				break
			}
			vars[j] = vars[next]
			j = next
		}
	}
}

// compareGroupKey compares a+"_" with b+"_" without building them.
func compareGroupKey(a, b string) int {
	m := min(len(a), len(b))
	if r := strings.Compare(a[:m], b[:m]); r != 0 || len(a) == len(b) {
		return r
	}
	if len(a) < len(b) {
		if b[m] == '_' {
			return -1
		}
		return cmp.Compare(byte('_'), b[m])
	}
	if a[m] == '_' {
		return 1
	}
	return cmp.Compare(a[m], byte('_'))
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

// serviceEnvSize returns the bytes and the number of variables addService writes for s (the
// bytes exactly when names and protocols are ASCII).
func serviceEnvSize(s *v1.Service) (size, count int) {
	name, ip := len(s.Name), len(s.Spec.ClusterIP)
	if strings.IndexByte(s.Spec.ClusterIP, ':') >= 0 {
		ip += 2
	}
	size = 2 * (name + len("_SERVICE_HOST")) // _SERVICE_HOST and _SERVICE_PORT
	count = 3                                // those two and <NAME>_PORT
	for i := range s.Spec.Ports {
		p := &s.Spec.Ports[i]
		proto := len(protocol(p))
		switch p.Protocol {
		case "", v1.ProtocolTCP, v1.ProtocolUDP, v1.ProtocolSCTP:
		default:
			size += 2 * proto // written upper and lower case
		}
		if p.Name != "" {
			size += name + len("_SERVICE_PORT_") + len(p.Name)
			count++
		}
		size += proto + len("://:") + ip + digits(p.Port) // the URL, holding the port number
		base := name + len("_PORT_") + digits(p.Port) + 1 + proto
		size += 3*base + len("_ADDR_PORT_PROTO")
		count += 4
	}
	return size, count
}

func digits(n int32) int {
	d, v := 1, int64(n)
	if v < 0 {
		d, v = 2, -v
	}
	for ; v >= 10; v /= 10 {
		d++
	}
	return d
}

// envWriter writes variable names and values into one buffer and slices them from it, so that the
// service variables cost one allocation instead of one per string.
type envWriter struct {
	text strings.Builder
	vars []EnvVar
}

// addService writes the variables of one Service (kubelet: envvars.FromServices), given its
// variable prefix and the name <prefix>_SERVICE_HOST. It writes them in name order when the
// Service declares its ports, and its named ports, in order. Strings that repeat (a port number,
// the first port's URL, names that start other names) are written once and shared.
func (w *envWriter) addService(s *v1.Service, prefix, hostName string) {
	ip := s.Spec.ClusterIP
	// <NAME>_PORT comes first in name order but takes the first port's URL: keep its place.
	portVar := len(w.vars)
	w.vars = append(w.vars, EnvVar{})
	var portBuf [8]string
	ports := portBuf[:0]
	for i := range s.Spec.Ports {
		p := &s.Spec.Ports[i]
		upper, lower := w.protocolCases(p.Protocol)
		url := w.url(lower, ip, p.Port)
		port := url[len(url)-digits(p.Port):]
		ports = append(ports, port)
		// <NAME>_PORT_<port>_<PROTO>, its _ADDR, _PORT and _PROTO; the first and the last
		// share their bytes.
		at := w.text.Len()
		w.text.WriteString(prefix)
		w.text.WriteString("_PORT_")
		w.text.WriteString(port)
		w.text.WriteByte('_')
		w.text.WriteString(upper)
		w.text.WriteString("_PROTO")
		protoName := w.text.String()[at:]
		base := protoName[:len(protoName)-len("_PROTO")]
		w.vars = append(w.vars, EnvVar{Name: base, Value: url})
		w.add(base, "_ADDR", "", ip)
		w.add(base, "_PORT", "", port)
		w.vars = append(w.vars, EnvVar{Name: protoName, Value: lower})
		if i == 0 {
			w.vars[portVar] = EnvVar{Name: base[:len(prefix)+len("_PORT")], Value: url}
		}
	}

	w.vars = append(w.vars, EnvVar{Name: hostName, Value: ip})
	w.add(prefix, "_SERVICE_PORT", "", ports[0])
	for i := range s.Spec.Ports {
		if p := &s.Spec.Ports[i]; p.Name != "" {
			w.add(prefix, "_SERVICE_PORT_", p.Name, ports[i])
		}
	}
}

// protocolCases returns the port's protocol (TCP when unset) upper-cased for names and
// lower-cased for values, without writing anything for the protocols the API allows.
func (w *envWriter) protocolCases(p v1.Protocol) (upper, lower string) {
	switch p {
	case "", v1.ProtocolTCP:
		return "TCP", "tcp"
	case v1.ProtocolUDP:
		return "UDP", "udp"
	case v1.ProtocolSCTP:
		return "SCTP", "sctp"
	}
	at := w.text.Len()
	writeUpper(&w.text, string(p))
	upper = w.text.String()[at:]
	return upper, lowerString(&w.text, string(p))
}

// add defines the variable named name + suffix + envName(portName) with the given value.
func (w *envWriter) add(name, suffix, portName, value string) {
	at := w.text.Len()
	w.text.WriteString(name)
	w.text.WriteString(suffix)
	if portName != "" {
		writeEnvName(&w.text, portName)
	}
	w.vars = append(w.vars, EnvVar{Name: w.text.String()[at:], Value: value})
}

// url writes "<proto>://<ip>:<port>", the IP in brackets when it is IPv6 (net.JoinHostPort's
// rule, which kubelet uses).
func (w *envWriter) url(proto, ip string, port int32) string {
	at := w.text.Len()
	w.text.WriteString(proto)
	w.text.WriteString("://")
	if strings.IndexByte(ip, ':') >= 0 {
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
