package podruntime

import (
	"context"
	"errors"
	"fmt"
	"net"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/clock"

	"github.com/podconfig/podconfig/backoff"
	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/features"
	"github.com/podconfig/podconfig/internal/errkind"
)

// Generator makes the configs and the directories SyncPod needs, as kubelet's runtime manager
// asks its runtime helper for them. *configgen.Generator implements it; a wrapper may time or
// record the calls.
type Generator interface {
	GeneratePodSandboxConfig(ctx context.Context, pod *v1.Pod, attempt uint32) (*runtimeapi.PodSandboxConfig, error)
	MakePodLogsDirectory(pod *v1.Pod) (string, error)
	GenerateContainerConfig(ctx context.Context, req configgen.ContainerRequest) (*runtimeapi.ContainerConfig, error)
	RestartCountFromLogs(pod *v1.Pod, containerName string) (int, error)
}

var _ Generator = (*configgen.Generator)(nil)

// RuntimeHandlerResolver maps a pod's runtimeClassName to the runtime handler its sandbox and
// image pulls name (kubelet's RuntimeClass manager). security.RuntimeHandlerResolver has the
// same method.
type RuntimeHandlerResolver interface {
	LookupRuntimeHandler(runtimeClassName *string) (string, error)
}

// Options describes the runtime and the node a Manager runs pods on.
type Options struct {
	// Runtime is the CRI runtime service. Required.
	Runtime runtimeapi.RuntimeServiceClient
	// Images is the CRI image service. Required.
	Images runtimeapi.ImageServiceClient
	// Generator makes the sandbox and container configs. Required.
	Generator Generator
	// RuntimeName is the runtime's name, the scheme of status containerIDs ("containerd");
	// empty means New asks the runtime (Version), as kubelet does at start-up.
	RuntimeName string
	// NodeIPs are the node's IPs: status.hostIP(s), the pod IPs of a host-network pod, and the
	// family that orders status.podIPs. Empty leaves hostIP unset, as kubelet without an API
	// server does.
	NodeIPs []net.IP
	// RuntimeHandlers are the handlers the runtime reports with their features
	// (configgen.RuntimeFacts.Handlers): whether a read-only volume mount shows as recursively
	// read-only in the status.
	RuntimeHandlers []*runtimeapi.RuntimeHandler
	// RuntimeClasses maps runtimeClassName to a handler; nil sends every pod to the default
	// handler "", as kubelet without RuntimeClass objects does.
	RuntimeClasses RuntimeHandlerResolver
	// FeatureGates are the node's gates; nil means features.Default(). ContainerStopSignals
	// decides whether status.containerStatuses[].stopSignal is reported.
	FeatureGates *features.Gates
	// CrashLoop is the containers' crash-loop back-off; nil means backoff.NewCrashLoop with
	// kubelet's 10s and 5m over Clock. Share one per node.
	CrashLoop *backoff.CrashLoop
	// Clock times image back-offs, start times and condition transitions; nil is the real clock.
	Clock clock.Clock
	// Events receives the events kubelet records (Pulling, Created, Started, Killing, BackOff,
	// Failed, ...); nil discards them. It is called from the goroutine of the call that records
	// and, while KillPod stops containers, from one goroutine per container.
	Events func(Event)
	// OnWarning receives what kubelet only logs (a sandbox IP that does not parse); nil discards.
	OnWarning func(pod *v1.Pod, message string)
}

// Manager runs pods on a CRI runtime as kubelet's kuberuntime manager
// (kubeGenericRuntimeManager) does: GetPodStatus reads what the runtime holds of a pod, SyncPod
// drives the pod one pass towards its spec, KillPod stops it, GarbageCollectPod removes what is
// dead, and GenerateAPIPodStatus reports the v1.PodStatus kubelet would.
//
// A Manager is safe for concurrent use by several pods. Calls for one pod must not overlap, as
// kubelet's pod worker runs one sync of a pod at a time. Build it with New; the methods of a zero
// Manager return an error and call nothing.
type Manager struct {
	opts        Options
	runtimeName string
	gates       features.Gates
	crashLoop   *backoff.CrashLoop
	images      *imagePuller
	reasons     *ReasonCache
	clock       clock.Clock
}

// ErrNotBuilt is returned by the methods of a Manager that New did not build.
var ErrNotBuilt = errkind.Sentinel(errkind.InvalidOptions, "podruntime: the Manager was not built by podruntime.New")

// New returns a Manager for opts. It fails when a required dependency is missing or, with no
// RuntimeName, when the runtime's Version call fails.
func New(ctx context.Context, opts Options) (*Manager, error) {
	if opts.Runtime == nil || opts.Images == nil || opts.Generator == nil {
		return nil, fmt.Errorf("%w: podruntime: Options.Runtime, Options.Images and Options.Generator are required", errkind.InvalidOptions)
	}
	name := opts.RuntimeName
	if name == "" {
		v, err := opts.Runtime.Version(ctx, &runtimeapi.VersionRequest{})
		if err != nil {
			return nil, fmt.Errorf("podruntime: runtime version: %w", err)
		}
		if name = v.GetRuntimeName(); name == "" {
			return nil, errors.New("podruntime: the runtime reports no name")
		}
	}
	m := &Manager{opts: opts, runtimeName: name, gates: features.Default(), crashLoop: opts.CrashLoop,
		reasons: &ReasonCache{}, clock: opts.Clock}
	if opts.FeatureGates != nil {
		m.gates = *opts.FeatureGates
	}
	if m.clock == nil {
		m.clock = clock.RealClock{}
	}
	if m.crashLoop == nil {
		m.crashLoop = backoff.NewCrashLoop(0, 0, m.clock)
	}
	m.images = newImagePuller(opts.Images, m.clock)
	return m, nil
}

// built fails for a Manager New did not build.
func (m *Manager) built() error {
	if m == nil || m.opts.Runtime == nil || m.images == nil {
		return ErrNotBuilt
	}
	return nil
}

// RuntimeName is the runtime's name, the scheme of the containerIDs in statuses.
func (m *Manager) RuntimeName() string {
	if m == nil {
		return ""
	}
	return m.runtimeName
}

// Reasons is the cache of why containers last failed to start, which SyncPod updates and
// GenerateAPIPodStatus reads.
func (m *Manager) Reasons() *ReasonCache {
	if m == nil {
		return nil
	}
	return m.reasons
}

// ForgetPod drops what the Manager keeps about a pod that is gone: its containers' crash-loop
// back-offs, its image-pull back-offs and its start failures.
func (m *Manager) ForgetPod(pod *v1.Pod) {
	if m.built() != nil || pod == nil {
		return
	}
	for _, c := range allContainers(pod) {
		m.crashLoop.Reset(backoff.GetBackoffKey(pod, c))
	}
	m.images.forgetPod(pod.UID)
	m.reasons.RemovePod(pod.UID)
}

// warn reports what kubelet only logs.
func (m *Manager) warn(pod *v1.Pod, format string, args ...any) {
	if m.opts.OnWarning != nil {
		m.opts.OnWarning(pod, fmt.Sprintf(format, args...))
	}
}

// podDesc names a pod as kubelet's format.Pod does: "name_namespace(uid)".
func podDesc(pod *v1.Pod) string {
	return fmt.Sprintf("%s_%s(%s)", pod.Name, pod.Namespace, pod.UID)
}

// GenerateAPIPodStatus is the package's GenerateAPIPodStatus with the Manager's node: its IPs,
// the runtime handlers' recursive read-only support for the pod, its feature gates, its
// ReasonCache and its clock. old is the status last generated for the pod (nil: pod.Status);
// terminal says the pod was stopped for good (KillPod after its end, or its deletion).
func (m *Manager) GenerateAPIPodStatus(pod *v1.Pod, podStatus *PodStatus, old *v1.PodStatus, terminal bool) v1.PodStatus {
	in := StatusInput{Old: old, Terminal: terminal}
	if m.built() == nil {
		in.Reasons, in.NodeIPs, in.StopSignals, in.Now = m.reasons, m.opts.NodeIPs, m.gates.ContainerStopSignals, m.clock.Now()
		in.SupportsRecursiveReadOnly = m.supportsRecursiveReadOnly(pod)
	}
	return GenerateAPIPodStatus(pod, podStatus, in)
}

// supportsRecursiveReadOnly reports whether the pod's runtime handler supports recursive
// read-only mounts (kubelet's runtimeClassSupportsRecursiveReadOnlyMounts).
func (m *Manager) supportsRecursiveReadOnly(pod *v1.Pod) bool {
	if pod == nil || len(m.opts.RuntimeHandlers) == 0 {
		return false
	}
	handler := ""
	if m.opts.RuntimeClasses != nil {
		h, err := m.opts.RuntimeClasses.LookupRuntimeHandler(pod.Spec.RuntimeClassName)
		if err != nil {
			return false
		}
		handler = h
	}
	for _, h := range m.opts.RuntimeHandlers {
		if h.GetName() == handler {
			return h.GetFeatures().GetRecursiveReadOnlyMounts()
		}
	}
	return false
}
