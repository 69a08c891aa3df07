package configgen

import (
	"context"
	"fmt"
	"net"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/features"
	"github.com/podconfig/podconfig/internal/errkind"
	"github.com/podconfig/podconfig/mounts"
)

// ContainerKind is the kind of a container within its pod.
type ContainerKind string

// The kinds of containers, in the order kubelet starts them.
const (
	// ContainerKindInit is an init container that runs to completion.
	ContainerKindInit ContainerKind = "init"
	// ContainerKindSidecar is an init container with restartPolicy Always.
	ContainerKindSidecar ContainerKind = "sidecar"
	// ContainerKindRegular is one of spec.containers.
	ContainerKindRegular ContainerKind = "regular"
	// ContainerKindEphemeral is one of spec.ephemeralContainers.
	ContainerKindEphemeral ContainerKind = "ephemeral"
)

// PodContainer is one container of a pod, as the Generator's calls take it.
type PodContainer struct {
	Kind ContainerKind
	// Container points into the pod's spec, or for an ephemeral container to a shallow copy of
	// its EphemeralContainerCommon as a v1.Container.
	Container *v1.Container
	// TargetContainerName is an ephemeral container's targetContainerName; empty otherwise.
	TargetContainerName string
}

// PodContainers returns every container of the pod: init containers (sidecars among them, in
// their places), then regular containers, then ephemeral containers. Nil for a nil pod.
func PodContainers(pod *v1.Pod) []PodContainer {
	if pod == nil {
		return nil
	}
	spec := &pod.Spec
	out := make([]PodContainer, 0, len(spec.InitContainers)+len(spec.Containers)+len(spec.EphemeralContainers))
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		kind := ContainerKindInit
		if c.RestartPolicy != nil && *c.RestartPolicy == v1.ContainerRestartPolicyAlways {
			kind = ContainerKindSidecar
		}
		out = append(out, PodContainer{Kind: kind, Container: c})
	}
	for i := range spec.Containers {
		out = append(out, PodContainer{Kind: ContainerKindRegular, Container: &spec.Containers[i]})
	}
	for i := range spec.EphemeralContainers {
		ec := &spec.EphemeralContainers[i]
		out = append(out, PodContainer{Kind: ContainerKindEphemeral, Container: ephemeralContainerAsContainer(ec), TargetContainerName: ec.TargetContainerName})
	}
	return out
}

// ephemeralContainerAsContainer returns an ephemeral container as the v1.Container kubelet runs
// it as (its EphemeralContainerCommon). The result is a shallow copy: its slices are the
// ephemeral container's.
func ephemeralContainerAsContainer(ec *v1.EphemeralContainer) *v1.Container {
	c := v1.Container(ec.EphemeralContainerCommon)
	return &c
}

// ContainerEnv is one container's resolved environment.
type ContainerEnv struct {
	PodContainer
	// Env is the environment in MakeEnvironmentVariables' order, every variable a plain value,
	// as the API's type, ready to write into a v1.Container (see PodEnv.ApplyTo).
	Env []v1.EnvVar
	// Vars is the same environment as MakeEnvironmentVariables returns it for this container, so
	// that code written for the single-container call takes the whole-pod result unchanged.
	Vars []EnvVar
}

// PodEnv is the resolved environment of every container of a pod, in PodContainers' order, as
// MakePodEnvironmentVariables returns it.
type PodEnv []ContainerEnv

// ApplyTo writes the resolved environment into pod's containers, position by position in
// PodContainers' order: init containers (sidecars among them), then regular, then ephemeral
// containers. Each container's env becomes its plain values and its envFrom is cleared, since the
// values already hold what envFrom gave, as a provider that passes a resolved pod on to its
// runtime wants.
//
// pod must be the pod the environment was resolved from or a copy of it (DeepCopy): containers
// are matched by position, not by name, since a pod that never passed an API server may have
// containers with no name or the same name. A pod of another shape (a container more or fewer,
// or one of another kind or name at some position) is an ErrInvalidOptions *Error naming the
// container and its position, and then pod is left unchanged.
func (e PodEnv) ApplyTo(pod *v1.Pod) error {
	if pod == nil {
		return asError(errkind.New(ErrInvalidOptions, "cannot apply environment variables to a nil pod", nil), ReasonFailedToCreateEnvVars, nil, nil)
	}
	if err := checkPodShape(pod, e, ReasonFailedToCreateEnvVars); err != nil {
		return err
	}
	spec := &pod.Spec
	for i := range e {
		env := append([]v1.EnvVar(nil), e[i].Env...)
		switch n, m := len(spec.InitContainers), len(spec.Containers); {
		case i < n:
			spec.InitContainers[i].Env, spec.InitContainers[i].EnvFrom = env, nil
		case i < n+m:
			spec.Containers[i-n].Env, spec.Containers[i-n].EnvFrom = env, nil
		default:
			spec.EphemeralContainers[i-n-m].Env, spec.EphemeralContainers[i-n-m].EnvFrom = env, nil
		}
	}
	return nil
}

// checkPodShape fails, with an ErrInvalidOptions *Error of reason naming the container and its
// position, unless pod's containers in PodContainers' order are of the kinds and names of envs',
// one for one.
func checkPodShape(pod *v1.Pod, envs []ContainerEnv, reason string) error {
	n := len(pod.Spec.InitContainers) + len(pod.Spec.Containers) + len(pod.Spec.EphemeralContainers)
	for i := range max(n, len(envs)) {
		if i < len(envs) && envs[i].Container == nil {
			return shapeError(pod, reason, "", fmt.Sprintf("the resolved environment at position %d has no container spec", i))
		}
		if i >= n {
			return shapeError(pod, reason, envs[i].Container.Name,
				fmt.Sprintf("the pod has no container at position %d for %s container %q", i, envs[i].Kind, envs[i].Container.Name))
		}
		kind, name := podContainerAt(pod, i)
		if i >= len(envs) {
			return shapeError(pod, reason, name, fmt.Sprintf("the pod's %s container %q at position %d has no environment", kind, name, i))
		}
		if ce := &envs[i]; ce.Kind != kind || ce.Container.Name != name {
			return shapeError(pod, reason, name, fmt.Sprintf("the pod's container at position %d is %s container %q, not %s container %q as resolved",
				i, kind, name, ce.Kind, ce.Container.Name))
		}
	}
	return nil
}

// shapeError is checkPodShape's error about the pod's container named container.
func shapeError(pod *v1.Pod, reason, container, msg string) error {
	err := errkind.New(ErrInvalidOptions, msg, nil)
	return &Error{Category: category(err), Reason: reason, Err: err, Pod: pod.Namespace + "/" + pod.Name, Container: container}
}

// podContainerAt is the kind and name of the container at position i of PodContainers(pod), which
// must hold one, without building the list.
func podContainerAt(pod *v1.Pod, i int) (ContainerKind, string) {
	spec := &pod.Spec
	if i < len(spec.InitContainers) {
		c := &spec.InitContainers[i]
		if c.RestartPolicy != nil && *c.RestartPolicy == v1.ContainerRestartPolicyAlways {
			return ContainerKindSidecar, c.Name
		}
		return ContainerKindInit, c.Name
	}
	if i -= len(spec.InitContainers); i < len(spec.Containers) {
		return ContainerKindRegular, spec.Containers[i].Name
	}
	return ContainerKindEphemeral, spec.EphemeralContainers[i-len(spec.Containers)].Name
}

// PodEnvInput is the input of MakePodEnvironmentVariables: EnvInput without the container, since
// the call resolves every container of the pod. Each field means what EnvInput's does.
type PodEnvInput struct {
	// Pod is the pod; pod.spec.enableServiceLinks must be set, as the API server's defaulting does.
	Pod *v1.Pod
	// PodIPs are the sandbox IPs as the runtime reported them; none while the pod has no IP.
	PodIPs []string
	// NodeIPs are the kubelet's configured node IPs (--node-ip); see EnvInput.NodeIPs.
	NodeIPs []net.IP
	// Volumes are the pod's mounted volumes, for fileKeyRef.
	Volumes mounts.VolumeMap
	// ConfigMaps, Secrets, Services and Node serve the pod's references; nil as in EnvInput.
	ConfigMaps ConfigMapGetter
	Secrets    SecretGetter
	Services   ServiceLister
	Node       NodeGetter
	// Files reads the env files of fileKeyRef; nil is the host's file system.
	Files EnvFileFS
	// FeatureGates are the node's feature gates; nil means features.Default().
	FeatureGates *features.Gates
	// UnknownIPs says what status.podIP(s) and status.hostIP(s) become before they are known.
	// The zero value, UnknownIPsAsKubelet, is kubelet's behaviour, as in EnvInput; a provider
	// that resolves the environment before the pod has an IP chooses UnknownIPsEmpty to go on,
	// or UnknownIPsFail to retry once the IPs are known.
	UnknownIPs UnknownIPPolicy
	// ExpansionLimits bounds the $(VAR) expansion of env values; the zero value is the defaults.
	ExpansionLimits ExpansionLimits
	// ServiceEnvCache, when not nil, keeps the service variables from one call to the next while
	// the Services are unchanged. A provider keeps one for its node and sets it in every call:
	// without it each call builds them again (once for the whole pod).
	ServiceEnvCache *ServiceEnvCache
}

// MakePodEnvironmentVariables resolves the environment of every container of in.Pod (init,
// sidecar, regular and ephemeral, in PodContainers' order) with MakeEnvironmentVariables, for a
// provider that passes plain values to its runtime. The Services are listed once for the whole
// pod, and their variables built once for it, or reused from in.ServiceEnvCache.
//
// The warnings of every container come back together, each naming its container. The first
// container that fails stops the call with its *Error, which names the container.
func MakePodEnvironmentVariables(ctx context.Context, in PodEnvInput) (PodEnv, []Warning, error) {
	if in.Pod == nil {
		return nil, nil, asError(newEnvError(ErrInvalidPod, "invalid input, pod cannot be nil", nil), ReasonFailedToCreateEnvVars, nil, nil)
	}
	call := envCall{EnvInput: EnvInput{
		Pod: in.Pod, PodIPs: in.PodIPs, NodeIPs: in.NodeIPs, Volumes: in.Volumes,
		ConfigMaps: in.ConfigMaps, Secrets: in.Secrets, Node: in.Node, Files: in.Files,
		FeatureGates: in.FeatureGates, UnknownIPs: in.UnknownIPs, ExpansionLimits: in.ExpansionLimits,
		ServiceEnvCache: in.ServiceEnvCache,
	}}
	if in.Services != nil {
		call.Services = &listedServices{lister: in.Services}
	}
	if call.ServiceEnvCache == nil {
		// Every container sees the same Services, so their variables are built once.
		call.ServiceEnvCache = &ServiceEnvCache{}
	}
	containers := PodContainers(in.Pod)
	out := make(PodEnv, len(containers))
	var warnings []Warning
	for i, pc := range containers {
		call.Container = pc.Container
		envs, ws, err := makeEnvironmentVariables(ctx, call)
		warnings = append(warnings, ws...)
		if err != nil {
			return nil, warnings, asError(err, ReasonFailedToCreateEnvVars, in.Pod, pc.Container)
		}
		out[i] = ContainerEnv{PodContainer: pc, Env: toAPIEnv(envs), Vars: envs}
	}
	return out, warnings, nil
}

// toAPIEnv converts to the API's type, nil for none.
func toAPIEnv(envs []EnvVar) []v1.EnvVar {
	if len(envs) == 0 {
		return nil
	}
	out := make([]v1.EnvVar, len(envs))
	for i, e := range envs {
		out[i] = v1.EnvVar{Name: e.Name, Value: e.Value}
	}
	return out
}

// listedServices lists each namespace once for one MakePodEnvironmentVariables call, so that
// every container sees the same Services. It passes the lister's sync state on.
type listedServices struct {
	lister ServiceLister
	n      int
	ns     [2]string
	lists  [2][]*v1.Service
}

func (l *listedServices) ListServices(ctx context.Context, namespace string) ([]*v1.Service, error) {
	for i := 0; i < l.n; i++ {
		if l.ns[i] == namespace {
			return l.lists[i], nil
		}
	}
	list, err := l.lister.ListServices(ctx, namespace)
	if err == nil && l.n < len(l.ns) {
		l.ns[l.n], l.lists[l.n] = namespace, list
		l.n++
	}
	return list, err
}

func (l *listedServices) HasSynced() bool {
	sc, ok := l.lister.(ServiceSyncChecker)
	return !ok || sc.HasSynced()
}

// ContainerMounts is one container's volumeMounts, resolved with no host paths.
type ContainerMounts struct {
	PodContainer
	Mounts []mounts.VolumeMount
}

// MakePodVolumeMounts resolves every container's volumeMounts with mounts.ContainerVolumeMounts
// (kubelet's rules, no host paths), for a provider that mounts the pod's volumes itself. envs,
// from MakePodEnvironmentVariables for this pod, expand subPathExpr, container by container in
// PodContainers' order; with no envs every subPathExpr expands against nothing. envs of another
// shape than the pod's are refused as PodEnv.ApplyTo refuses them, so that no container expands
// against another's environment. supportsRecursiveReadOnly says whether the provider's runtime
// supports recursive read-only mounts. Errors are *Error naming the container.
func MakePodVolumeMounts(pod *v1.Pod, envs []ContainerEnv, supportsRecursiveReadOnly bool) ([]ContainerMounts, error) {
	if pod != nil && len(envs) > 0 {
		if err := checkPodShape(pod, envs, ReasonCreateContainerConfigError); err != nil {
			return nil, err
		}
	}
	containers := PodContainers(pod)
	out := make([]ContainerMounts, len(containers))
	for i, pc := range containers {
		var env map[string]string
		if len(envs) > 0 {
			env = make(map[string]string, len(envs[i].Env))
			for _, e := range envs[i].Env {
				env[e.Name] = e.Value
			}
		}
		ms, err := mounts.ContainerVolumeMounts(mounts.VolumeMountsInput{
			Pod: pod, Container: pc.Container, Env: env, SupportsRecursiveReadOnly: supportsRecursiveReadOnly,
		})
		if err != nil {
			return nil, asError(err, ReasonCreateContainerConfigError, pod, pc.Container)
		}
		out[i] = ContainerMounts{PodContainer: pc, Mounts: ms}
	}
	return out, nil
}
