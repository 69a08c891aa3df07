package configgen

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/features"
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
	// FeatureGates are the node's feature gates; nil means features.Default(). EnvFiles off sets
	// a fileKeyRef variable to ""; PodLevelResources on makes pod-level limits replace the
	// node's allocatable resources as the default limits of resourceFieldRef.
	FeatureGates *features.Gates
	// UnknownIPs says what status.podIP(s) and status.hostIP(s) become before they are known.
	// The zero value, UnknownIPsAsKubelet, is kubelet's behaviour.
	UnknownIPs UnknownIPPolicy
	// ExpansionLimits bounds the $(VAR) expansion of env values; the zero value is the defaults.
	ExpansionLimits ExpansionLimits
	// ServiceEnvCache, when not nil, keeps the service variables from one call to the next while
	// the Services are unchanged: a provider keeps one for its node and sets it in every call.
	ServiceEnvCache *ServiceEnvCache
}

// envCall is one call's input with what a Generator lends it.
type envCall struct {
	EnvInput
	// space, when not nil, lends the result's array and the index their memory.
	space *envSpace
}

// envSpace is memory for the environment of one GenerateContainerConfig call: the result's
// array and the index of the defined names. The call reads the environment only until criEnvs
// has copied it, and then gives the space back emptied to the Generator's pool; nothing else
// borrows it, and nothing returned points into it. It earns its keep: without it the production
// container config of internal/benchpod's pod (74 variables) takes 4-10% more CPU time.
type envSpace struct {
	vars  []EnvVar
	index map[string]int
}

// maxPooledEnvs bounds the space kept for the next call, so that one pod with a huge environment
// does not make the pool hold on to its memory.
const maxPooledEnvs = 1024

// release empties s of the call's names and values (Secrets' among them) and reports whether it
// is small enough to keep.
func (s *envSpace) release() bool {
	if cap(s.vars) > maxPooledEnvs || len(s.index) > maxPooledEnvs {
		return false
	}
	clear(s.vars[:cap(s.vars)])
	clear(s.index)
	return true
}

// maxPresizedEnvs bounds the envFrom keys the environment is sized for before any is defined.
const maxPresizedEnvs = 4096

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
	b, err := buildEnv(ctx, in, in.ExpansionLimits.budget())
	return b.result, b.warnings, err
}

// buildEnv is makeEnvironmentVariables drawing expansions from budget. The builder it returns,
// never nil, holds the result and warnings, and what the container's command and args need: what
// is left of the budget, and lookup.
func buildEnv(ctx context.Context, in envCall, budget expansionBudget) (*envBuilder, error) {
	b := &envBuilder{ctx: ctx, in: in, budget: budget, gates: features.Default()}
	if in.Pod == nil || in.Container == nil {
		return b, newEnvError(ErrInvalidPod, "invalid input, pod and container cannot be nil", nil)
	}
	if in.Pod.Spec.EnableServiceLinks == nil {
		return b, newEnvError(ErrServiceLinksUnset, "nil pod.spec.enableServiceLinks encountered, cannot construct envvars", nil)
	}
	if in.Services != nil && !resources.IsStaticPod(in.Pod) {
		if sc, ok := in.Services.(ServiceSyncChecker); ok && !sc.HasSynced() {
			return b, newEnvError(ErrServicesNotSynced, "services have not yet been read at least once, cannot construct envvars", nil)
		}
	}
	if in.FeatureGates != nil {
		b.gates = *in.FeatureGates
	}
	svcChecked, err := b.serviceEnv(*in.Pod.Spec.EnableServiceLinks)
	if err != nil {
		return b, err
	}
	// The envFrom objects are read before any variable is defined, so that the variables and
	// their index are allocated once at their size. Defining cannot fail, so errors still come
	// in kubelet's order.
	sources, keys, err := b.fetchEnvFrom()
	if err != nil {
		return b, err
	}
	// A hostile pod can name one large object in many envFrom entries: its keys count once per
	// entry but define each name once, so room is made for at most maxPresizedEnvs of them and
	// the rest grows with what is defined.
	n := min(keys, maxPresizedEnvs) + len(in.Container.Env)
	if s := in.space; s != nil {
		if cap(s.vars) < n+len(b.svc) {
			s.vars = make([]EnvVar, 0, n+len(b.svc))
		}
		if s.index == nil {
			s.index = make(map[string]int, n)
		}
		b.vars, b.index = s.vars[:0], s.index
	} else {
		b.vars = make([]EnvVar, 0, n+len(b.svc))
		b.index = make(map[string]int, n)
	}
	if err := b.addEnvFromSources(sources); err != nil {
		return b, err
	}
	for i := range in.Container.Env {
		if err := b.addEnv(&in.Container.Env[i]); err != nil {
			return b, err
		}
	}
	// The service variables no other source defined come last, and count against the bound like
	// the others: the process gets them too.
	defined := len(b.vars)
	out := b.vars
	for _, e := range b.svc {
		if _, ok := b.index[e.Name]; !ok {
			if err := b.charge(len(e.Name)+len(e.Value)+envVarBytes, e.Name); err != nil {
				return b, err
			}
			out = append(out, e)
		}
	}
	if svcChecked {
		b.checked = len(out) - defined
	}
	if len(out) > 0 {
		// Kubelet appends to a nil slice, so an empty environment is nil.
		b.result = out
	}
	return b, nil
}

// envBuilder holds the state of one MakeEnvironmentVariables call.
type envBuilder struct {
	ctx    context.Context
	in     envCall
	gates  features.Gates
	budget expansionBudget

	vars  []EnvVar       // the defined variables, in order of first definition
	index map[string]int // name -> position in vars
	svc   []EnvVar       // the service variables, sorted by name, unique

	// result is the environment: vars, then the service variables they do not define.
	result []EnvVar
	// checked is the number of variables at the end of result that are known to pass
	// checkEnv: service variables the cache checked when it stored them.
	checked int

	// The objects read during the call, so that each is read once however many references name it.
	cms     map[string]*v1.ConfigMap
	secrets map[string]*v1.Secret
	// entries holds each envFrom object's keys sorted, with their values (a Secret's once
	// defined), by the object's pointer.
	entries map[any][]EnvVar

	node      *v1.Node
	nodeErr   error
	nodeDone  bool
	hostIPs   []string
	podIP     string
	podIPs    []string
	podIPDone bool

	warnings []Warning
	// envBytes is what the variables defined so far cost against budget.envBytes.
	envBytes int
}

// set defines a variable; a redefinition keeps the first position and takes the new value. It
// fails when the environment would exceed MaxEnvironmentBytes.
func (b *envBuilder) set(name, value string) error {
	i, ok := b.index[name]
	cost := len(value)
	if ok {
		cost -= len(b.vars[i].Value)
	} else {
		cost += len(name) + envVarBytes
	}
	if err := b.charge(cost, name); err != nil {
		return err
	}
	if ok {
		b.vars[i].Value = value
		return nil
	}
	b.index[name] = len(b.vars)
	b.vars = append(b.vars, EnvVar{Name: name, Value: value})
	return nil
}

// charge adds cost, that of defining or redefining the variable name, to the environment's size,
// failing instead when the size would pass MaxEnvironmentBytes.
func (b *envBuilder) charge(cost int, name string) error {
	if b.budget.envBytes < 0 {
		return nil
	}
	if b.envBytes+cost > b.budget.envBytes {
		return newEnvError(ErrExpansionLimit, fmt.Sprintf("the environment exceeds the limit of %d bytes (ExpansionLimits.MaxEnvironmentBytes) at variable %q",
			b.budget.envBytes, truncateName(name)), nil)
	}
	b.envBytes += cost
	return nil
}

// truncateName shortens a name for an error text: a hostile one may be megabytes long.
func truncateName(name string) string {
	if len(name) > 64 {
		return name[:64] + "..."
	}
	return name
}

// lookup resolves a $(VAR) reference: the variables defined so far, then the service variables.
// Once the result is built it answers as a lookup in the result.
func (b *envBuilder) lookup(name string) (string, bool) {
	if i, ok := b.index[name]; ok {
		return b.vars[i].Value, true
	}
	if i, ok := slices.BinarySearchFunc(b.svc, name, compareEnvName); ok {
		return b.svc[i].Value, true
	}
	return "", false
}

func compareEnvName(e EnvVar, name string) int { return strings.Compare(e.Name, name) }

func (b *envBuilder) addEnv(ev *v1.EnvVar) error {
	value := ev.Value
	if value != "" {
		expanded, err := b.budget.expand(value, b.lookup, "environment variable", ev.Name)
		if err != nil {
			return err
		}
		return b.set(ev.Name, expanded)
	}
	from := ev.ValueFrom
	if from == nil {
		return b.set(ev.Name, "")
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
	case b.gates.EnvFiles && from.FileKeyRef != nil:
		value, keep, err = b.fileKey(ev.Name, from.FileKeyRef)
	}
	if err != nil {
		return err
	}
	if keep {
		return b.set(ev.Name, value)
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
