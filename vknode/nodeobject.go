package vknode

import (
	"runtime"
	"syscall"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/resources"
)

// KubeletVersion is the Kubernetes version whose kubelet the provider reproduces, reported in
// the Node's nodeInfo.
const KubeletVersion = "v1.37.2"

// defaultMaxPods is kubelet's default --max-pods, the node's pods capacity.
const defaultMaxPods = 110

// nodeObject is the Node the provider registers and podconfig's environment reads: addresses
// for status.hostIP, the host's CPUs, memory and root-directory disk as capacity and allocatable
// (nothing reserved), kubelet's node info, and the conditions of a healthy node.
func nodeObject(cfg Config, version *runtimeapi.VersionResponse) (*v1.Node, error) {
	host, err := resources.HostNode()
	if err != nil {
		return nil, err
	}
	n := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: cfg.NodeName, Labels: map[string]string{
		v1.LabelHostname:   cfg.NodeName,
		v1.LabelOSStable:   runtime.GOOS,
		v1.LabelArchStable: runtime.GOARCH,
	}}}
	for _, ip := range cfg.NodeIPs {
		n.Status.Addresses = append(n.Status.Addresses, v1.NodeAddress{Type: v1.NodeInternalIP, Address: ip.String()})
	}
	n.Status.Addresses = append(n.Status.Addresses, v1.NodeAddress{Type: v1.NodeHostName, Address: cfg.NodeName})
	capacity := v1.ResourceList{
		v1.ResourceCPU:    *resource.NewQuantity(int64(runtime.NumCPU()), resource.DecimalSI),
		v1.ResourceMemory: *resource.NewQuantity(host.MemoryCapacity, resource.BinarySI),
		v1.ResourcePods:   *resource.NewQuantity(int64(cfg.MaxPods), resource.DecimalSI),
	}
	var fs syscall.Statfs_t
	if err := syscall.Statfs(cfg.RootDir, &fs); err == nil {
		capacity[v1.ResourceEphemeralStorage] = *resource.NewQuantity(int64(fs.Blocks)*fs.Bsize, resource.BinarySI)
	}
	n.Status.Capacity = capacity
	n.Status.Allocatable = capacity.DeepCopy()
	n.Status.NodeInfo = v1.NodeSystemInfo{
		KubeletVersion:          KubeletVersion,
		OperatingSystem:         runtime.GOOS,
		Architecture:            runtime.GOARCH,
		ContainerRuntimeVersion: version.GetRuntimeName() + "://" + version.GetRuntimeVersion(),
	}
	now := metav1.Now()
	condition := func(t v1.NodeConditionType, s v1.ConditionStatus, reason, message string) v1.NodeCondition {
		return v1.NodeCondition{Type: t, Status: s, Reason: reason, Message: message, LastHeartbeatTime: now, LastTransitionTime: now}
	}
	n.Status.Conditions = []v1.NodeCondition{
		condition(v1.NodeReady, v1.ConditionTrue, "KubeletReady", "kubelet is posting ready status"),
		condition(v1.NodeMemoryPressure, v1.ConditionFalse, "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
		condition(v1.NodeDiskPressure, v1.ConditionFalse, "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
		condition(v1.NodePIDPressure, v1.ConditionFalse, "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
	}
	return n, nil
}
