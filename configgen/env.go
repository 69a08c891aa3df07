package configgen

import (
	"context"
	"fmt"
	"hash/maphash"
	"net"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/resources"
)

// EnvVar is one environment variable of a container (kubelet: kubecontainer.EnvVar).
type EnvVar struct {
	Name  string
	Value string
}

// EnvInput is everything MakeEnvironmentVariables reads. Pod and Container are required; a nil
// getter means the source is not available, with kubelet's behaviour for that case.
type EnvInput struct {
	// Pod is the pod the container belongs to. pod.spec.enableServiceLinks must be set, as the
	// API server's defaulting does.
	Pod *v1.Pod
	// Container is the container to build the environment for (also an init or ephemeral one).
	Container *v1.Container
	// PodIPs are the sandbox IPs as the runtime reported them, in any order and notation.
	// status.podIP and status.podIPs give at most one of each family, the node's primary family
	// first, in canonical notation (kubelet: sortPodIPs).
	PodIPs []string
	// NodeIPs are the kubelet's configured node IPs (--node-ip). The family of the first one is the
	// primary family for PodIPs; none means IPv4 first.
	NodeIPs []net.IP
	// Volumes are the pod's mounted volumes, for fileKeyRef.
	Volumes mounts.VolumeMap
	// ConfigMaps serves envFrom.configMapRef and configMapKeyRef. Nil fails any reference with
	// kubelet's "no kubeClient defined" error.
	ConfigMaps ConfigMapGetter
	// Secrets serves envFrom.secretRef and secretKeyRef. Nil fails any reference like ConfigMaps.
	Secrets SecretGetter
	// Services lists the Services for the service-link variables. Nil is a kubelet without an
	// API server: no service variables at all, not even KUBERNETES_SERVICE_HOST.
	Services ServiceLister
	// Node returns the node, for status.hostIP(s) and the default limits of resourceFieldRef.
	// Nil is a node not known: status.hostIP(s) and a resourceFieldRef limit the container does
	// not set follow UnknownIPs (empty with a warning, an error, or, with UnknownIPsAsKubelet, a
	// node with no addresses and no allocatable resources).
	Node NodeGetter
	// Files reads the env files of fileKeyRef. Nil is the host's file system (hostfs.OS), which
	// on Linux opens each file inside its volume in one race-free walk (see EnvFileFS).
	Files EnvFileFS
	// EnvFiles is the EnvFiles feature gate: when off, a fileKeyRef variable is set to "".
	EnvFiles bool
	// PodLevelResources is the PodLevelResources feature gate: when on, pod-level limits replace
	// the node's allocatable resources as the default limits of resourceFieldRef.
	PodLevelResources bool
	// UnknownIPs says what status.podIP(s) and status.hostIP(s) become before they are known.
	// The zero value, UnknownIPsAsKubelet, is kubelet's behaviour.
	UnknownIPs UnknownIPPolicy
	// ExpansionLimits bounds the $(VAR) expansion of env values; the zero value is the defaults.
	ExpansionLimits ExpansionLimits
}

// envCall is one call's input with what the Generator and MakePodEnvironmentVariables lend it.
type envCall struct {
	EnvInput
	// pod carries what MakePodEnvironmentVariables computes once for all of a pod's containers.
	pod *podShared
	// serviceCache is the Generator's cache of service variables, nil outside a Generator.
	serviceCache *serviceEnvCache
	// scratch, when set, lends the result's backing array and the hash table: the caller
	// reads the result only until it hands scratch to another call.
	scratch *envScratch
}

// podShared is what every container of one pod shares: the service variables, which depend only
// on the pod's namespace and enableServiceLinks.
type podShared struct {
	done     bool
	svc      []EnvVar // sorted by name, unique; a copy no result aliases
	svcNames nameHeads
	// The scratch space one container's call leaves to the next: the pod's helper converts
	// each result before it builds the next one.
	envScratch
}

// lookupEnv resolves a name in the environment the scratch's last call built, for the command and
// args: that call's result, unchanged, must be the whole environment.
func (s *envScratch) lookupEnv(name string) (string, bool) { return s.builder.lookupResult(name) }

// envScratch is space a call reuses from an earlier one whose result is no longer read: the
// result's backing array, the hash table, the builder, the env files' read buffer and the list of
// Services the pod sees.
type envScratch struct {
	all      []EnvVar
	table    []int32
	builder  envBuilder
	fileBuf  []byte
	services []*v1.Service
	// mounts lends GenerateContainerConfig's mounts their space (mounts.AppendMounts); they are
	// read only until MakeCRIMounts has copied them. subPathEnv is the map subPathEnv fills for
	// MakeMounts, which reads it only during the call.
	mounts     []mounts.Mount
	subPathEnv map[string]string
	// run holds GenerateContainerConfig's run-container options, read only during the call.
	run runOptions
}

// Scratch space a hostile pod grew past these bounds is not kept for the next call: a pooled
// scratch would otherwise hold on to up to the expansion limits' worth of memory per goroutine.
const (
	maxKeptEnvs     = 1024 // entries of the result's backing array and of the hash table
	maxKeptMounts   = 256
	maxKeptServices = 1024
	maxKeptFileBuf  = 64 << 10
	maxKeptSubPaths = 64 // names in the subPathExpr environment (a map never shrinks)
)

// release readies s for the pool: it drops what a call grew past the bounds above, and the
// references the last call left (its pod, objects, Secret values, environment), so that pooled
// space keeps neither memory nor data of a finished call alive.
func (s *envScratch) release() {
	if cap(s.all) > maxKeptEnvs || cap(s.table) > 2*maxKeptEnvs {
		s.all, s.table = nil, nil
	} else {
		clear(s.all[:cap(s.all)])
	}
	if cap(s.mounts) > maxKeptMounts {
		s.mounts = nil
	} else {
		clear(s.mounts[:cap(s.mounts)])
	}
	if cap(s.services) > maxKeptServices {
		s.services = nil
	} else {
		clear(s.services[:cap(s.services)])
	}
	if cap(s.fileBuf) > maxKeptFileBuf {
		s.fileBuf = nil
	} else {
		// The reader left the env file's bytes, a Secret's perhaps, in the buffer.
		clear(s.fileBuf[:cap(s.fileBuf)])
	}
	if len(s.subPathEnv) > maxKeptSubPaths {
		s.subPathEnv = nil
	} else {
		clear(s.subPathEnv)
	}
	s.builder = envBuilder{}
	s.run = runOptions{}
}

// UnknownIPPolicy says what a fieldRef to status.podIP(s) or status.hostIP(s) gives when the pod
// has no IP (PodIPs holds none that parses) or the node no address: a provider may resolve a
// pod's environment before its sandbox, and so its IP, exists.
type UnknownIPPolicy int

const (
	// UnknownIPsAsKubelet is kubelet's behaviour: status.podIP(s) is empty (kubelet builds an
	// environment only once the sandbox has its IPs) and status.hostIP(s) fails with "host IP
	// unknown" (ErrNode, ErrIPNotKnown).
	UnknownIPsAsKubelet UnknownIPPolicy = iota
	// UnknownIPsFail fails both with ErrIPNotKnown, an ErrDependencyFailed: retry once the IP is
	// known.
	UnknownIPsFail
	// UnknownIPsEmpty makes both empty, each with a warning (ReasonPodIPNotKnown,
	// ReasonHostIPNotKnown).
	UnknownIPsEmpty
)

// MakeEnvironmentVariables builds a container's environment from envFrom, env and the service
// links, as kubelet's makeEnvironmentVariables does: envFrom sources first, a later source
// overwriting an earlier one; then env in declaration order, each $(VAR) in a value resolved against
// the variables defined so far and the service variables (unresolved references stay as written);
// then the service variables that are not otherwise defined.
//
// The order is deterministic (kubelet's follows Go map order, so it matches kubelet's as a set):
// variables in the order of their first definition — envFrom sources in order, each source's keys
// sorted, then env entries — where a redefinition keeps the first position and takes the new
// value; then the remaining service variables sorted by name. No variables at all gives nil.
//
// Errors are *Error, with kubelet's texts, a Category (ErrInvalidPod, ErrDependencyFailed,
// ErrInvalidOptions) and a Reason named as virtual-kubelet's events name them
// (ReasonMandatoryConfigMapNotFound, ..., ReasonFailedToCreateEnvVars for the rest); errors.Is
// also matches the finer kinds (ErrKeyNotFound, ErrEnvFile, ...) and a getter's own error, which
// gives the text and is the Cause. The warnings are what kubelet skips
// silently or only logs: a missing optional ConfigMap, Secret or key
// (ReasonOptionalConfigMapNotFound and the others), the reason an env file could not be parsed;
// each names the container.
func MakeEnvironmentVariables(ctx context.Context, in EnvInput) ([]EnvVar, []Warning, error) {
	envs, warnings, err := makeEnvironmentVariables(ctx, envCall{EnvInput: in})
	if err != nil {
		return nil, warnings, asError(err, ReasonFailedToCreateEnvVars, in.Pod, in.Container)
	}
	return envs, warnings, nil
}

func makeEnvironmentVariables(ctx context.Context, in envCall) ([]EnvVar, []Warning, error) {
	envs, warnings, _, _, err := makeEnvironmentVariablesWithin(ctx, in, in.ExpansionLimits.budget())
	return envs, warnings, err
}

// makeEnvironmentVariablesWithin is makeEnvironmentVariables drawing expansions from budget. It
// returns what is left of it, for the container's command and args. (The budget travels by value:
// the builder holds its own copy, so no pointer to the caller's escapes.) checked is the number of
// variables at the end of the result that are known to pass checkEnv: service variables the
// Generator's cache checked when it stored them.
func makeEnvironmentVariablesWithin(ctx context.Context, in envCall, budget expansionBudget) (envs []EnvVar, warnings []Warning, left expansionBudget, checked int, err error) {
	if in.Pod == nil || in.Container == nil {
		return nil, nil, budget, 0, newEnvError(ErrInvalidPod, "invalid input, pod and container cannot be nil", nil)
	}
	if in.Pod.Spec.EnableServiceLinks == nil {
		return nil, nil, budget, 0, newEnvError(ErrServiceLinksUnset, "nil pod.spec.enableServiceLinks encountered, cannot construct envvars", nil)
	}
	if in.Services != nil && !resources.IsStaticPod(in.Pod) {
		if sc, ok := in.Services.(ServiceSyncChecker); ok && !sc.HasSynced() {
			return nil, nil, budget, 0, newEnvError(ErrServicesNotSynced, "services have not yet been read at least once, cannot construct envvars", nil)
		}
	}
	var b *envBuilder
	if s := in.scratch; s != nil {
		// The builder is this call's state only, and nothing returned points into it: a lent
		// one saves allocating its kilobyte.
		b = &s.builder
		*b = envBuilder{ctx: ctx, in: in, budget: budget}
	} else {
		b = &envBuilder{ctx: ctx, in: in, budget: budget}
	}
	if shared := in.pod; shared != nil && shared.done {
		b.svcCount, b.svcNames = len(shared.svc), shared.svcNames
	} else if err := b.pickServices(*in.Pod.Spec.EnableServiceLinks); err != nil {
		return nil, b.warnings, budget, 0, err
	} else if e := in.serviceCache.lookup(b.services); e != nil {
		b.cachedSvc, b.svcCount, b.svcNames, b.svcChecked = e.vars, len(e.vars), e.names, e.checked
	} else {
		b.sizeServices()
	}
	if err := b.fetchEnvFrom(); err != nil {
		return nil, b.warnings, budget, 0, err
	}
	b.reserve(b.fromKeys + len(in.Container.Env))
	// An expanded value is usually no longer than its references, a Secret or env file value or
	// a resource amount short: b.text is sized for that, and grows for more.
	for i := range in.Container.Env {
		ev := &in.Container.Env[i]
		switch {
		case strings.IndexByte(ev.Value, '$') >= 0:
			b.textSize += len(ev.Value)
		case ev.Value != "" || ev.ValueFrom == nil:
		case ev.ValueFrom.SecretKeyRef != nil:
			b.textSize += 16
		case ev.ValueFrom.ResourceFieldRef != nil:
			b.textSize += 8
		case ev.ValueFrom.FileKeyRef != nil:
			b.textSize += 16
		}
	}
	b.addEnvFrom()
	for i := range in.Container.Env {
		if err := b.addEnv(&in.Container.Env[i]); err != nil {
			return nil, b.warnings, budget, 0, err
		}
	}
	out := b.result()
	b.out = out
	if len(out) == 0 {
		// Kubelet appends to a nil slice, so an empty environment is nil.
		out = nil
	}
	if b.svcChecked {
		// result puts the service variables no other source defined after the defined ones.
		checked = len(out) - len(b.vars)
	}
	return out, b.warnings, b.budget, checked, nil
}

// envBuilder holds the state of one MakeEnvironmentVariables call. The defined variables live in
// vars, in order of first definition, indexed by an open-addressing hash table so that neither
// duplicates nor $(VAR) lookups need a Go map per call.
type envBuilder struct {
	ctx    context.Context
	in     envCall
	budget expansionBudget

	all   []EnvVar // the result: room for the defined variables, then the service variables
	vars  []EnvVar // the defined variables, in order of first definition, within all
	table []int32  // index into vars plus one; 0 is an empty slot
	seed  maphash.Seed

	services []*v1.Service // the Services the pod sees, sorted by name
	svcText  int           // bytes their variables need at most
	svcCount int           // number of their variables
	svc      []EnvVar      // their variables, sorted by name, unique
	svcNames nameHeads     // the heads of their names
	// cachedSvc are the variables of services from the Generator's cache, nil when they must
	// be written.
	cachedSvc []EnvVar
	// svcChecked is set when every service variable is known to pass checkEnv.
	svcChecked bool

	sources  []envSource
	srcBuf   [4]envSource
	fromKeys int // keys over all sources
	cms      objectCache[*v1.ConfigMap]
	secrets  objectCache[*v1.Secret]

	node      *v1.Node
	nodeErr   error
	nodeDone  bool
	hostIPs   []string
	hostIPBuf [2]string
	podIP     string
	podIPs    []string
	podIPBuf  [2]string
	podIPDone bool

	// text holds the strings the call makes (prefixed envFrom names, Secret and env file values,
	// expanded values, resource amounts): one allocation for all of them. textSize is what the env
	// entries are expected to need of it.
	text     strings.Builder
	textSize int

	// out is the result, kept for lookupResult.
	out []EnvVar

	warnings []Warning
}

// lookupResult resolves a name against the result as a lookup in it would, a later duplicate
// winning (no name is in it twice): a defined variable through the hash table, then the service
// variables after them, which are sorted by name.
func (b *envBuilder) lookupResult(name string) (string, bool) {
	if idx := b.table[b.slot(name)]; idx != 0 {
		return b.vars[idx-1].Value, true
	}
	if !b.svcNames.mayHold(name) {
		return "", false
	}
	svc := b.out[len(b.vars):]
	if i, ok := slices.BinarySearchFunc(svc, name, compareEnvName); ok {
		return svc[i].Value, true
	}
	return "", false
}

// keep returns p as a string held in b.text.
func (b *envBuilder) keep(p []byte) string {
	at := b.text.Len()
	b.text.Write(p)
	return b.text.String()[at:]
}

// reserve allocates the result for n definitions and the service variables, writes the service
// variables at its end, and sizes the hash table.
func (b *envBuilder) reserve(n int) {
	if s := b.in.scratch; s != nil && cap(s.all) >= n+b.svcCount {
		b.all = s.all[:n+b.svcCount]
	} else {
		b.all = make([]EnvVar, n+b.svcCount)
		if s != nil {
			s.all = b.all
		}
	}
	all := b.all
	b.vars = all[:0:n]
	switch shared := b.in.pod; {
	case shared != nil && shared.done:
		b.svc = all[n : n+copy(all[n:], shared.svc)]
	case b.cachedSvc != nil:
		b.svc = all[n : n+copy(all[n:], b.cachedSvc)]
	default:
		b.writeServiceEnv(all[n:n])
		// result may move these variables within all, so the pod and the cache keep copies.
		if shared != nil {
			shared.svc = append([]EnvVar(nil), b.svc...)
			shared.svcNames, shared.done = b.svcNames, true
		}
		if b.in.serviceCache != nil && len(b.services) > 0 {
			b.svcChecked = envsPassCheck(b.svc)
			b.in.serviceCache.store(b.services, b.svc, b.svcNames, b.svcChecked)
		}
	}
	size := 8
	for size < 2*n {
		size *= 2
	}
	if s := b.in.scratch; s != nil && cap(s.table) >= size {
		b.table = s.table[:size]
		clear(b.table)
	} else {
		b.table = make([]int32, size)
		if s != nil {
			s.table = b.table
		}
	}
	b.seed = maphash.MakeSeed()
}

// slot returns the table slot of name: the one holding it, or the empty one where it belongs.
func (b *envBuilder) slot(name string) int {
	mask := len(b.table) - 1
	i := int(maphash.String(b.seed, name)) & mask
	for {
		idx := b.table[i]
		if idx == 0 || b.vars[idx-1].Name == name {
			return i
		}
		i = (i + 1) & mask
	}
}

func (b *envBuilder) set(name, value string) {
	s := b.slot(name)
	if idx := b.table[s]; idx != 0 {
		b.vars[idx-1].Value = value
		return
	}
	if 2*(len(b.vars)+1) > len(b.table) {
		// More definitions than counted: only if an object changed while it was read. Stay
		// correct rather than fast.
		b.rehash()
		s = b.slot(name)
	}
	b.vars = append(b.vars, EnvVar{Name: name, Value: value})
	b.table[s] = int32(len(b.vars))
}

// rehash doubles the hash table.
func (b *envBuilder) rehash() {
	b.table = make([]int32, 2*len(b.table))
	mask := len(b.table) - 1
	for i, e := range b.vars {
		j := int(maphash.String(b.seed, e.Name)) & mask
		for b.table[j] != 0 {
			j = (j + 1) & mask
		}
		b.table[j] = int32(i + 1)
	}
}

// lookup resolves a $(VAR) reference: the variables defined so far, then the service variables.
func (b *envBuilder) lookup(name string) (string, bool) {
	if idx := b.table[b.slot(name)]; idx != 0 {
		return b.vars[idx-1].Value, true
	}
	if !b.svcNames.mayHold(name) {
		return "", false
	}
	if i, ok := slices.BinarySearchFunc(b.svc, name, compareEnvName); ok {
		return b.svc[i].Value, true
	}
	return "", false
}

// nameHeads is a set of names' heads (their first three bytes, or the whole of a shorter name)
// as 256 bits: a name whose head is not in the set is none of the names, so most names are
// found not to be service variables without a search.
type nameHeads [4]uint64

func headBit(name string) byte {
	head := name[:min(len(name), 3)]
	h := uint32(len(head))
	for i := 0; i < len(head); i++ {
		h = h*31 + uint32(head[i])
	}
	return byte(h ^ h>>8)
}

func (s *nameHeads) add(name string) {
	bit := headBit(name)
	s[bit/64] |= 1 << (bit % 64)
}

// mayHold reports whether name may be one of the set's names.
func (s *nameHeads) mayHold(name string) bool {
	bit := headBit(name)
	return s[bit/64]&(1<<(bit%64)) != 0
}

// envsPassCheck reports whether checkEnv accepts every variable of envs.
func envsPassCheck(envs []EnvVar) bool {
	for _, e := range envs {
		if !envPassesCheck(e) {
			return false
		}
	}
	return true
}

func compareEnvName(e EnvVar, name string) int { return strings.Compare(e.Name, name) }

// result appends the service variables no other source defined. They already sit, sorted, after
// the room reserved for the defined variables, so they move forward only when a name was
// defined twice or left out, and not at all in the common case.
func (b *envBuilder) result() []EnvVar {
	if len(b.svc) == 0 {
		return b.vars
	}
	// Few defined variables shadow a service variable: look each defined name up among the
	// service variables, skipping names whose head starts no service variable.
	var shadowBuf [256]bool
	var shadowed []bool
	for _, e := range b.vars {
		if !b.svcNames.mayHold(e.Name) {
			continue
		}
		if i, ok := slices.BinarySearchFunc(b.svc, e.Name, compareEnvName); ok {
			if shadowed == nil {
				if len(b.svc) <= len(shadowBuf) {
					shadowed = shadowBuf[:len(b.svc)]
				} else {
					shadowed = make([]bool, len(b.svc))
				}
			}
			shadowed[i] = true
		}
	}
	inPlace := len(b.vars) == 0 || &b.vars[0] == &b.all[0]
	if shadowed == nil && inPlace && len(b.vars) == cap(b.vars) {
		return b.all[:len(b.vars)+len(b.svc)]
	}
	out := b.vars
	if inPlace {
		out = b.all[:len(b.vars)]
	}
	for i, e := range b.svc {
		if shadowed == nil || !shadowed[i] {
			out = append(out, e)
		}
	}
	return out
}

func (b *envBuilder) addEnv(ev *v1.EnvVar) error {
	value := ev.Value
	if value != "" {
		expanded, err := b.budget.expand(&b.text, value, b.lookup, "environment variable", ev.Name)
		if err != nil {
			return err
		}
		b.set(ev.Name, expanded)
		return nil
	}
	from := ev.ValueFrom
	if from == nil {
		b.set(ev.Name, "")
		return nil
	}
	keep := true
	var err error
	switch {
	case from.FieldRef != nil:
		value, err = b.fieldRef(from.FieldRef)
	case from.ResourceFieldRef != nil:
		value, err = b.resourceFieldRef(from.ResourceFieldRef)
	case from.ConfigMapKeyRef != nil:
		value, keep, err = b.configMapKey(ev.Name, from.ConfigMapKeyRef)
	case from.SecretKeyRef != nil:
		value, keep, err = b.secretKey(ev.Name, from.SecretKeyRef)
	case b.in.EnvFiles && from.FileKeyRef != nil:
		value, keep, err = b.fileKey(ev.Name, from.FileKeyRef)
	}
	if err != nil {
		return err
	}
	if keep {
		b.set(ev.Name, value)
	}
	return nil
}

// fail returns err as an *Error with reason and cause, about the pod and container.
func (b *envBuilder) fail(reason string, err, cause error) error {
	return &Error{
		Category: category(err), Reason: reason, Cause: cause, Err: err,
		Pod: b.in.Pod.Namespace + "/" + b.in.Pod.Name, Container: b.in.Container.Name,
	}
}

// warn records a warning about the container.
func (b *envBuilder) warn(reason, msg string) {
	b.warnings = append(b.warnings, Warning{Reason: reason, Message: msg, Container: b.in.Container.Name})
}

// where names the pod and container for texts kubelet does not have.
func (b *envBuilder) where() string {
	return fmt.Sprintf("pod %s/%s container %q", b.in.Pod.Namespace, b.in.Pod.Name, b.in.Container.Name)
}
