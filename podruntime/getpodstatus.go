package podruntime

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
)

// GetPodStatus reads what the runtime holds of the pod with this UID, as kubelet's
// GetPodStatus does (its generic PLEG's relist): the sandboxes labelled with the UID, the
// newest first, and the IPs of the newest when it is ready; every container labelled with the
// UID, the newest first, converted by ContainerStatusFromCRI (termination messages read); and
// which of them are in the newest ready sandbox. A sandbox or container removed between the
// list and its status is skipped. name and namespace are the pod's, for the status.
func (m *Manager) GetPodStatus(ctx context.Context, uid types.UID, name, namespace string) (*PodStatus, error) {
	if err := m.built(); err != nil {
		return nil, err
	}
	filter := map[string]string{configgen.LabelPodUID: string(uid)}
	out := &PodStatus{ID: uid, Name: name, Namespace: namespace, IPs: []string{}, TimeStamp: m.clock.Now()}
	sandboxes, err := m.opts.Runtime.ListPodSandbox(ctx, &runtimeapi.ListPodSandboxRequest{Filter: &runtimeapi.PodSandboxFilter{LabelSelector: filter}})
	if err != nil {
		return nil, fmt.Errorf("ListPodSandbox: %w", err)
	}
	list := sandboxes.GetItems()
	// The newest first, ties by ID (kubelet's podSandboxByCreatedThenID).
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].GetCreatedAt() == list[j].GetCreatedAt() {
			return list[i].GetId() < list[j].GetId()
		}
		return list[i].GetCreatedAt() > list[j].GetCreatedAt()
	})
	active := ""
	for i, sb := range list {
		resp, err := m.opts.Runtime.PodSandboxStatus(ctx, &runtimeapi.PodSandboxStatusRequest{PodSandboxId: sb.GetId()})
		if status.Code(err) == codes.NotFound {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("PodSandboxStatus %s: %w", sb.GetId(), err)
		}
		st := resp.GetStatus()
		if st == nil {
			return nil, errors.New("pod sandbox status is nil")
		}
		out.SandboxStatuses = append(out.SandboxStatuses, st)
		if i == 0 && st.GetState() == runtimeapi.PodSandboxState_SANDBOX_READY {
			out.IPs = m.sandboxIPs(podRef(uid, name, namespace), st)
			active = sb.GetId()
		}
	}
	containers, err := m.opts.Runtime.ListContainers(ctx, &runtimeapi.ListContainersRequest{Filter: &runtimeapi.ContainerFilter{LabelSelector: filter}})
	if err != nil {
		return nil, fmt.Errorf("ListContainers: %w", err)
	}
	for _, c := range containers.GetContainers() {
		resp, err := m.opts.Runtime.ContainerStatus(ctx, &runtimeapi.ContainerStatusRequest{ContainerId: c.GetId()})
		if status.Code(err) == codes.NotFound {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("ContainerStatus %s: %w", c.GetId(), err)
		}
		if resp.GetStatus() == nil {
			return nil, errors.New("container status is nil")
		}
		cs := ContainerStatusFromCRI(resp.GetStatus(), m.runtimeName)
		cs.PodSandboxID = c.GetPodSandboxId()
		out.ContainerStatuses = append(out.ContainerStatuses, cs)
		if active != "" && cs.PodSandboxID == active {
			out.ActiveContainerStatuses = append(out.ActiveContainerStatuses, cs)
		}
	}
	sortNewestFirst(out.ContainerStatuses)
	sortNewestFirst(out.ActiveContainerStatuses)
	return out, nil
}

// podRef is a pod carrying only its identity, for warnings about a pod known by its status.
func podRef(uid types.UID, name, namespace string) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{UID: uid, Name: name, Namespace: namespace}}
}
