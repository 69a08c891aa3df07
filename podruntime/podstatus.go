package podruntime

import (
	"sort"
	"strconv"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/logs"
)

// ContainerState is a container's state as kubelet's runtime manager sees it (kubecontainer.State):
// the CRI state, with every state the CRI adds later read as unknown.
type ContainerState string

// The container states.
const (
	ContainerStateCreated ContainerState = "created"
	ContainerStateRunning ContainerState = "running"
	ContainerStateExited  ContainerState = "exited"
	ContainerStateUnknown ContainerState = "unknown"
)

// containerStateFromCRI is kubelet's toKubeContainerState.
func containerStateFromCRI(s runtimeapi.ContainerState) ContainerState {
	switch s {
	case runtimeapi.ContainerState_CONTAINER_CREATED:
		return ContainerStateCreated
	case runtimeapi.ContainerState_CONTAINER_RUNNING:
		return ContainerStateRunning
	case runtimeapi.ContainerState_CONTAINER_EXITED:
		return ContainerStateExited
	}
	return ContainerStateUnknown
}

// ContainerID is a container's ID in the runtime with the runtime's name (kubelet's
// kubecontainer.ContainerID); String gives the form status.containerStatuses[].containerID
// takes, "containerd://<id>".
type ContainerID struct {
	// Type is the runtime's name as its Version call reports it, e.g. "containerd".
	Type string
	// ID is the runtime's ID of the container.
	ID string
}

// String returns "<type>://<id>".
func (c ContainerID) String() string { return c.Type + "://" + c.ID }

// ContainerStatus is one container of a pod as the runtime holds it (kubelet's
// kubecontainer.Status): one attempt, so a container restarted twice has three.
type ContainerStatus struct {
	// ID is the attempt's ID in the runtime.
	ID ContainerID
	// Name is the container's name in the pod spec, from the io.kubernetes.container.name label.
	Name string
	// State is the attempt's state in the runtime.
	State ContainerState
	// CreatedAt is when the runtime created the container; StartedAt is set once it was started
	// (any state but created), FinishedAt and the exit fields once it exited.
	CreatedAt, StartedAt, FinishedAt time.Time
	// ExitCode is the exit code of an exited container.
	ExitCode int
	// Reason and Message are the runtime's for an exited container (OOMKilled, Error,
	// Completed, ContainerCannotRun), Message followed by the termination message as kubelet
	// reads it (logs.ContainerStatusMessage).
	Reason, Message string
	// Image is the image the container was created from; ImageRef the reference the runtime
	// resolved it to (status.containerStatuses[].imageID); ImageID the image's ID.
	Image, ImageRef, ImageID string
	// ImageRuntimeHandler is the runtime handler the image was pulled for.
	ImageRuntimeHandler string
	// Hash is the io.kubernetes.container.hash annotation (configgen.HashContainer of the spec
	// the container was created from): a different hash means the spec changed.
	Hash uint64
	// RestartCount is the io.kubernetes.container.restartCount annotation.
	RestartCount int
	// Resources are the CPU and memory the runtime reports for the container, nil when it
	// reports none.
	Resources *ContainerResources
	// User is the identity the container's first process runs as, when the runtime reports it.
	User *v1.ContainerUser
	// StopSignal is the signal the runtime stops the container with, when it reports one.
	StopSignal *v1.Signal

	// PodSandboxID is the sandbox the container belongs to.
	PodSandboxID string
	// LogPath is where the runtime writes the container's output (the CRI status's log_path).
	LogPath string
	// Annotations are the container's annotations as the runtime reports them.
	Annotations map[string]string
}

// ContainerResources are a container's CPU and memory as the runtime reports them
// (kubecontainer.ContainerResources); nil fields were not reported.
type ContainerResources struct {
	// CPURequest is from the container's cpu.shares, CPULimit from its CFS quota and period,
	// MemoryLimit from its memory limit.
	CPURequest, CPULimit, MemoryLimit *resource.Quantity
}

// PodStatus is a pod as the runtime holds it (kubelet's kubecontainer.PodStatus): its sandboxes
// and every container attempt still in the runtime. GetPodStatus builds it; ComputePodActions,
// SyncPod and GenerateAPIPodStatus read it and never change it.
type PodStatus struct {
	// ID, Name and Namespace are the pod's.
	ID        types.UID
	Name      string
	Namespace string
	// IPs are the IPs of the newest sandbox when it is ready, in the runtime's order.
	IPs []string
	// SandboxStatuses are the pod's sandboxes, the newest first.
	SandboxStatuses []*runtimeapi.PodSandboxStatus
	// ContainerStatuses are every container attempt of the pod, the newest first.
	ContainerStatuses []*ContainerStatus
	// ActiveContainerStatuses are the attempts in the newest sandbox when it is ready, the
	// newest first.
	ActiveContainerStatuses []*ContainerStatus
	// TimeStamp is when the status was read.
	TimeStamp time.Time
}

// FindContainerStatusByName returns the newest attempt of the named container, or nil.
func (s *PodStatus) FindContainerStatusByName(name string) *ContainerStatus {
	if s == nil {
		return nil
	}
	return findByName(s.ContainerStatuses, name)
}

// FindActiveContainerStatusByName returns the newest attempt of the named container in the
// active sandbox, or nil.
func (s *PodStatus) FindActiveContainerStatusByName(name string) *ContainerStatus {
	if s == nil {
		return nil
	}
	return findByName(s.ActiveContainerStatuses, name)
}

func findByName(list []*ContainerStatus, name string) *ContainerStatus {
	for _, c := range list {
		if c != nil && c.Name == name {
			return c
		}
	}
	return nil
}

// sortNewestFirst orders attempts by creation, the newest first (kubelet's
// containerStatusByCreated).
func sortNewestFirst(list []*ContainerStatus) {
	sort.SliceStable(list, func(i, j int) bool { return list[i].CreatedAt.After(list[j].CreatedAt) })
}

// ContainerStatusFromCRI converts the runtime's status of a container into a ContainerStatus
// as kubelet's convertToKubeContainerStatus does: the container's name from its labels, hash and
// restart count from its annotations, times from the runtime's nanoseconds, and for an exited
// container the runtime's message followed by the termination message (read from the file
// mounted at the container's terminationMessagePath, or from the end of its log under
// FallbackToLogsOnError: logs.ContainerStatusMessage). runtimeName is ContainerID.Type. A nil
// status gives nil.
func ContainerStatusFromCRI(status *runtimeapi.ContainerStatus, runtimeName string) *ContainerStatus {
	if status == nil {
		return nil
	}
	ann := status.GetAnnotations()
	cs := &ContainerStatus{
		ID:                  ContainerID{Type: runtimeName, ID: status.GetId()},
		Name:                status.GetLabels()[configgen.LabelContainerName],
		State:               containerStateFromCRI(status.GetState()),
		CreatedAt:           time.Unix(0, status.GetCreatedAt()),
		Image:               status.GetImage().GetImage(),
		ImageRef:            status.GetImageRef(),
		ImageID:             status.GetImageRef(),
		ImageRuntimeHandler: status.GetImage().GetRuntimeHandler(),
		Hash:                parseHash(ann[configgen.AnnotationContainerHash]),
		RestartCount:        parseInt(ann[configgen.AnnotationContainerRestartCount]),
		Resources:           resourcesFromCRI(status.GetResources()),
		User:                userFromCRI(status.GetUser()),
		StopSignal:          stopSignalFromCRI(status.GetStopSignal()),
		LogPath:             status.GetLogPath(),
		Annotations:         ann,
	}
	// Runtimes from v1.30's CRI on report the image's ID apart from the reference.
	if id := status.GetImageId(); id != "" {
		cs.ImageID = id
	}
	if cs.State != ContainerStateCreated {
		cs.StartedAt = time.Unix(0, status.GetStartedAt())
	}
	if cs.State == ContainerStateExited {
		cs.ExitCode = int(status.GetExitCode())
		cs.Reason = status.GetReason()
		cs.FinishedAt = time.Unix(0, status.GetFinishedAt())
		policy := v1.TerminationMessagePolicy(ann[configgen.AnnotationContainerTerminationMessagePolicy])
		cs.Message = logs.ContainerStatusMessage(status, policy, ann[configgen.AnnotationContainerTerminationMessagePath])
	}
	return cs
}

// parseHash reads the hash annotation, hexadecimal; what does not parse is 0, as in kubelet.
func parseHash(s string) uint64 {
	h, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		return 0
	}
	return h
}

// parseInt reads the restart-count annotation; what does not parse is 0, as in kubelet.
func parseInt(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return n
}

// Kubelet's CPU conversions (pkg/kubelet/cm): millicores per core, and cpu.shares per core.
const (
	milliCPUToCPU = 1000
	sharesPerCPU  = 1024
	minShares     = 2
)

// resourcesFromCRI is kubelet's toKubeContainerResources on Linux: the CFS quota and period as
// a CPU limit, cpu.shares as a CPU request, the memory limit; nil when none is reported.
func resourcesFromCRI(r *runtimeapi.ContainerResources) *ContainerResources {
	l := r.GetLinux()
	if l == nil {
		return nil
	}
	out := &ContainerResources{}
	if l.GetCpuPeriod() > 0 {
		if milli := quotaToMilliCPU(l.GetCpuQuota(), l.GetCpuPeriod()); milli > 0 {
			out.CPULimit = resource.NewMilliQuantity(milli, resource.DecimalSI)
		}
	}
	if l.GetCpuShares() > 0 {
		if milli := sharesToMilliCPU(l.GetCpuShares()); milli > 0 {
			out.CPURequest = resource.NewMilliQuantity(milli, resource.DecimalSI)
		}
	}
	if l.GetMemoryLimitInBytes() > 0 {
		out.MemoryLimit = resource.NewQuantity(l.GetMemoryLimitInBytes(), resource.BinarySI)
	}
	if out.CPULimit == nil && out.CPURequest == nil && out.MemoryLimit == nil {
		return nil
	}
	return out
}

// sharesToMilliCPU is kubelet's SharesToMilliCPU: shares below the minimum are no request.
func sharesToMilliCPU(shares int64) int64 {
	if shares < minShares {
		return 0
	}
	// The ceiling of shares*1000/1024, in integers.
	return (shares*milliCPUToCPU + sharesPerCPU - 1) / sharesPerCPU
}

// quotaToMilliCPU is kubelet's QuotaToMilliCPU: a quota of -1 is no limit.
func quotaToMilliCPU(quota, period int64) int64 {
	if quota == -1 {
		return 0
	}
	return quota * milliCPUToCPU / period
}

// userFromCRI is kubelet's toKubeContainerUser on Linux.
func userFromCRI(u *runtimeapi.ContainerUser) *v1.ContainerUser {
	if u == nil {
		return nil
	}
	out := &v1.ContainerUser{}
	if l := u.GetLinux(); l != nil {
		out.Linux = &v1.LinuxContainerUser{UID: l.GetUid(), GID: l.GetGid(), SupplementalGroups: l.GetSupplementalGroups()}
	}
	return out
}

// stopSignalFromCRI is the signal a runtime reports, nil for none (RUNTIME_DEFAULT, which an
// older runtime reports for every container).
func stopSignalFromCRI(s runtimeapi.Signal) *v1.Signal {
	if s == runtimeapi.Signal_SIGNAL_RUNTIME_DEFAULT {
		return nil
	}
	name, ok := runtimeapi.Signal_name[int32(s)]
	if !ok {
		return nil
	}
	// The enum spells SIGRTMIN+1 as SIGNAL_SIGRTMINPLUS1 and SIGRTMAX-1 as SIGNAL_SIGRTMAXMINUS1.
	name = strings.TrimPrefix(name, "SIGNAL_")
	name = strings.NewReplacer("PLUS", "+", "MINUS", "-").Replace(name)
	sig := v1.Signal(name)
	return &sig
}

// allContainers are the pod's init, regular and ephemeral containers.
func allContainers(pod *v1.Pod) []*v1.Container {
	var out []*v1.Container
	for i := range pod.Spec.InitContainers {
		out = append(out, &pod.Spec.InitContainers[i])
	}
	for i := range pod.Spec.Containers {
		out = append(out, &pod.Spec.Containers[i])
	}
	for i := range pod.Spec.EphemeralContainers {
		out = append(out, (*v1.Container)(&pod.Spec.EphemeralContainers[i].EphemeralContainerCommon))
	}
	return out
}

// containerSpec finds a container of the pod by name: regular, init or ephemeral.
func containerSpec(pod *v1.Pod, name string) *v1.Container {
	for _, c := range allContainers(pod) {
		if c.Name == name {
			return c
		}
	}
	return nil
}
