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

// ApplyTo writes the resolved environment into pod's containers, matched by kind and name: init
// containers (sidecars among them), regular and ephemeral containers. Each container's env
// becomes its plain values and its envFrom is cleared, since the values already hold what envFrom
// gave, as a provider that passes a resolved pod on to its runtime wants. pod may be the pod the
// environment was resolved from or a copy of it (DeepCopy). A container of e missing from pod is
// an ErrInvalidOptions *Error naming it, and then pod is left unchanged.
func (e PodEnv) ApplyTo(pod *v1.Pod) error {
	if pod == nil {
		return asError(errkind.New(ErrInvalidOptions, "cannot apply environment variables to a nil pod", nil), ReasonFailedToCreateEnvVars, nil, nil)
	}
	targets := make([]*v1.Container, len(e))
	for i := range e {
		ce := &e[i]
		if ce.Container == nil {
			return asError(errkind.New(ErrInvalidOptions, "cannot apply environment variables of a container with no spec", nil), ReasonFailedToCreateEnvVars, pod, nil)
		}
		targets[i] = containerOfKind(pod, ce.Kind, ce.Container.Name)
		if targets[i] == nil && ce.Kind != ContainerKindEphemeral {
			return asError(errkind.New(ErrInvalidOptions, fmt.Sprintf("no %s container %q in the pod", ce.Kind, ce.Container.Name), nil), ReasonFailedToCreateEnvVars, pod, ce.Container)
		}
		if targets[i] == nil && findEphemeral(pod, ce.Container.Name) == nil {
			return asError(errkind.New(ErrInvalidOptions, fmt.Sprintf("no ephemeral container %q in the pod", ce.Container.Name), nil), ReasonFailedToCreateEnvVars, pod, ce.Container)
		}
	}
	for i := range e {
		env := append([]v1.EnvVar(nil), e[i].Env...)
		if c := targets[i]; c != nil {
			c.Env, c.EnvFrom = env, nil
			continue
		}
		ec := findEphemeral(pod, e[i].Container.Name)
		ec.Env, ec.EnvFrom = env, nil
	}
	return nil
}

// containerOfKind returns pod's init or regular container of that kind and name; nil for none and
// for an ephemeral container, which is not a v1.Container.
func containerOfKind(pod *v1.Pod, kind ContainerKind, name string) *v1.Container {
	var list []v1.Container
	switch kind {
	case ContainerKindInit, ContainerKindSidecar:
		list = pod.Spec.InitContainers
	case ContainerKindRegular:
		list = pod.Spec.Containers
	}
	for i := range list {
		if list[i].Name == name {
			return &list[i]
		}
	}
	return nil
}

// findEphemeral returns pod's ephemeral container of that name, nil for none.
func findEphemeral(pod *v1.Pod, name string) *v1.EphemeralContainer {
	for i := range pod.Spec.EphemeralContainers {
		if ec := &pod.Spec.EphemeralContainers[i]; ec.Name == name {
			return ec
		}
	}
	return nil
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
}

// MakePodEnvironmentVariables resolves the environment of every container of in.Pod (init,
// sidecar, regular and ephemeral, in PodContainers' order) with MakeEnvironmentVariables, for a
// provider that passes plain values to its runtime. The Services are listed, and their variables
// built, once for the whole pod.
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
	}}
	if in.Services != nil {
		call.Services = &listedServices{lister: in.Services}
	}
	// Every container sees the same Services, so their variables are built once.
	call.serviceCache = &serviceEnvCache{}
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
// from MakePodEnvironmentVariables, expand subPathExpr; a container missing from envs expands
// against nothing. supportsRecursiveReadOnly says whether the provider's runtime supports
// recursive read-only mounts. Errors are *Error naming the container.
func MakePodVolumeMounts(pod *v1.Pod, envs []ContainerEnv, supportsRecursiveReadOnly bool) ([]ContainerMounts, error) {
	containers := PodContainers(pod)
	out := make([]ContainerMounts, len(containers))
	for i, pc := range containers {
		var env map[string]string
		for _, ce := range envs {
			if ce.Container != nil && ce.Container.Name == pc.Container.Name && ce.Kind == pc.Kind {
				env = make(map[string]string, len(ce.Env))
				for _, e := range ce.Env {
					env[e.Name] = e.Value
				}
				break
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
