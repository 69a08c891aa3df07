package kubeletside

import (
	"fmt"
	"unsafe"

	cadvisorapi "github.com/google/cadvisor/lib/model"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/component-base/logs/logreduction"
	internalapi "k8s.io/cri-api/pkg/apis"
	"k8s.io/kubernetes/pkg/kubelet/allocation/state"
	kubeletconfig "k8s.io/kubernetes/pkg/kubelet/apis/config"
	"k8s.io/kubernetes/pkg/kubelet/cm"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	"k8s.io/kubernetes/pkg/kubelet/images"
	"k8s.io/kubernetes/pkg/kubelet/logs"
	proberesults "k8s.io/kubernetes/pkg/kubelet/prober/results"
	"k8s.io/kubernetes/pkg/kubelet/runtimeclass"
	"k8s.io/kubernetes/pkg/kubelet/util/cache"
)

// runtimeManager mirrors the layout of kuberuntime's kubeGenericRuntimeManager in v1.37.1, field
// for field (unexported types replaced by types of the same size), so the harness can set the
// kubelet settings newFakeKubeRuntimeManager leaves at test values. checkLayout verifies it
// against the values that constructor sets.
type runtimeManager struct {
	runtimeName                  string
	recorder                     record.EventRecorderLogger
	osInterface                  kubecontainer.OSInterface
	machineInfo                  *cadvisorapi.MachineInfo
	containerGC                  unsafe.Pointer
	runner                       kubecontainer.HandlerRunner
	runtimeHelper                kubecontainer.RuntimeHelper
	livenessManager              proberesults.Manager
	readinessManager             proberesults.Manager
	startupManager               proberesults.Manager
	singleProcessOOMKill         *bool
	cpuCFSQuota                  bool
	cpuCFSQuotaPeriod            metav1.Duration
	defaultPodSysctls            map[string]string
	imagePuller                  images.ImageManager
	runtimeService               internalapi.RuntimeService
	imageService                 internalapi.ImageManagerService
	versionCache                 *cache.ObjectCache
	seccompProfileRoot           string
	containerManager             cm.ContainerManager
	internalLifecycle            cm.InternalContainerLifecycle
	logManager                   logs.ContainerLogManager
	runtimeClassManager          *runtimeclass.Manager
	actuatedState                state.State
	logReduction                 *logreduction.LogReduction
	podStateProvider             interface{ IsPodTerminationRequested() }
	seccompDefault               bool
	memorySwapBehavior           string
	getNodeAllocatable           func() v1.ResourceList
	memoryThrottlingFactor       *float64
	memoryReservationPolicy      kubeletconfig.MemoryReservationPolicy
	podLogsDirectory             string
	getSwapControllerAvailable   func() bool
	podInitContainerTimeRecorder interface{ RecordInitContainerStarted() }
}

// checkLayout fails when the mirror does not line up with what newFakeKubeRuntimeManager set.
func (m *runtimeManager) checkLayout(helper kubecontainer.RuntimeHelper) error {
	if m.seccompProfileRoot != "/fakeSeccompProfileRoot" || m.podLogsDirectory != "/var/log/pods" ||
		m.runtimeHelper != helper || m.getSwapControllerAvailable == nil || m.getNodeAllocatable == nil {
		return fmt.Errorf("kuberuntime's kubeGenericRuntimeManager does not have the layout this harness mirrors (kubelet v1.37.1)")
	}
	return nil
}
