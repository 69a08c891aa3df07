package kubeletside

import (
	"context"
	"sync"
	"time"
	"unsafe"

	cadvisorapi "github.com/google/cadvisor/lib/model"
	"go.opentelemetry.io/otel/trace"
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	internalapi "k8s.io/cri-api/pkg/apis"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/kubernetes/pkg/kubelet"
	"k8s.io/kubernetes/pkg/kubelet/cm"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
)

// Kubelet's unexported functions and host facts, reached by name. The module's tests and
// benchmarks are built with -ldflags=-checklinkname=0; a kubelet version that renames one of these
// fails to link rather than silently testing something else.

//go:linkname newFakeKubeRuntimeManager k8s.io/kubernetes/pkg/kubelet/kuberuntime.newFakeKubeRuntimeManager
func newFakeKubeRuntimeManager(ctx context.Context, runtimeService internalapi.RuntimeService, imageService internalapi.ImageManagerService, machineInfo *cadvisorapi.MachineInfo, osInterface kubecontainer.OSInterface, runtimeHelper kubecontainer.RuntimeHelper, tracer trace.Tracer, recorder *record.FakeRecorder) (unsafe.Pointer, error)

//go:linkname generateContainerConfig k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*kubeGenericRuntimeManager).generateContainerConfig
func generateContainerConfig(m unsafe.Pointer, ctx context.Context, container *v1.Container, pod *v1.Pod, restartCount int, podIP, imageRef string, podIPs []string, nsTarget *kubecontainer.ContainerID, imageVolumes kubecontainer.ImageVolumes) (*runtimeapi.ContainerConfig, func(), error)

//go:linkname generatePodSandboxConfig k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*kubeGenericRuntimeManager).generatePodSandboxConfig
func generatePodSandboxConfig(m unsafe.Pointer, ctx context.Context, pod *v1.Pod, attempt uint32) (*runtimeapi.PodSandboxConfig, error)

//go:linkname makePodDataDirs k8s.io/kubernetes/pkg/kubelet.(*Kubelet).makePodDataDirs
func makePodDataDirs(kl *kubelet.Kubelet, pod *v1.Pod) error

//go:linkname newRuntimeState k8s.io/kubernetes/pkg/kubelet.newRuntimeState
func newRuntimeState(runtimeSyncThreshold time.Duration) unsafe.Pointer

//go:linkname setRuntimeHandlers k8s.io/kubernetes/pkg/kubelet.(*runtimeState).setRuntimeHandlers
func setRuntimeHandlers(s unsafe.Pointer, rtHandlers []kubecontainer.RuntimeHandler)

//go:linkname getPodContainerName k8s.io/kubernetes/pkg/kubelet/cm.(*podContainerManagerImpl).GetPodContainerName
func getPodContainerName(m unsafe.Pointer, pod *v1.Pod) (cm.CgroupName, string)

// kuberuntime's cgroup-version hook and page size.
//
//go:linkname kuberuntimeIsCgroup2 k8s.io/kubernetes/pkg/kubelet/kuberuntime.isCgroup2UnifiedMode
var kuberuntimeIsCgroup2 func() bool

//go:linkname kuberuntimePageSize k8s.io/kubernetes/pkg/kubelet/kuberuntime.defaultPageSize
var kuberuntimePageSize int64

// runc's cgroup library caches the cgroup version and hugepage sizes behind sync.Onces.
//
//go:linkname cgroupsIsUnifiedOnce github.com/opencontainers/cgroups.isUnifiedOnce
var cgroupsIsUnifiedOnce sync.Once

//go:linkname cgroupsIsUnified github.com/opencontainers/cgroups.isUnified
var cgroupsIsUnified bool

//go:linkname cgroupsHugePagesOnce github.com/opencontainers/cgroups.initHPSOnce
var cgroupsHugePagesOnce sync.Once

//go:linkname cgroupsHugePageSizes github.com/opencontainers/cgroups.hugePageSizes
var cgroupsHugePageSizes []string

// selinuxState mirrors the start of go-selinux's state: the fields GetEnabled reads.
type selinuxState struct {
	//lint:ignore U1000 mirrors go-selinux's layout
	mcsList    map[string]struct{}
	enabledSet bool
	enabled    bool
	sync.Mutex
}

//go:linkname goSELinuxState github.com/opencontainers/selinux/go-selinux.state
var goSELinuxState selinuxState
