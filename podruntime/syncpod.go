package podruntime

import (
	"context"
	"errors"
	"fmt"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/internal/errkind"
	"github.com/podconfig/podconfig/mounts"
)

// SyncPod drives the pod one pass towards its spec, as kubelet's runtime manager SyncPod does,
// from podStatus (GetPodStatus, read just before). volumes are the pod's mounted volumes but its
// image volumes, which SyncPod pulls itself as kubelet's runtime manager does. In order:
//
//  1. ComputePodActions decides the pass.
//  2. When the pod is to be killed (a new sandbox, or nothing left to run), KillPod stops it,
//     and before a new sandbox its init containers are removed; otherwise the containers to
//     kill are stopped.
//  3. Exited init containers but the newest of each are removed.
//  4. A new sandbox: its config is generated (configgen), the pod's log directory made, the
//     sandbox run and its IPs read.
//  5. Ephemeral containers, then init containers in order (a regular init container that fails
//     to start ends the pass; a sidecar's failure does not), then regular containers are
//     started (startContainer), each after its crash-loop back-off (doBackOff).
//
// The result lists each action's outcome; SyncPod also records the start failures in the
// Manager's ReasonCache, which GenerateAPIPodStatus reads, as kubelet's syncPod does. Calls that
// create or start run to their end: pass a context that is not cancelled while the pod is
// stopped (kubelet passes context.WithoutCancel).
//
// Not done, as the package does no more than kubelet's runtime manager without probes: lifecycle
// hooks, in-place resize, pull secrets, the legacy log symlinks, and the restart of every
// container a RestartAllContainers rule asks for (the exited container alone restarts).
func (m *Manager) SyncPod(ctx context.Context, pod *v1.Pod, podStatus *PodStatus, volumes mounts.VolumeMap) PodSyncResult {
	var result PodSyncResult
	if err := m.built(); err != nil {
		result.SyncError = err
		return result
	}
	if pod == nil {
		result.SyncError = fmt.Errorf("%w: SyncPod: pod must not be nil", errkind.InvalidPod)
		return result
	}
	if podStatus == nil {
		podStatus = &PodStatus{ID: pod.UID, Name: pod.Name, Namespace: pod.Namespace}
	}
	defer func() { m.reasons.Update(pod.UID, result) }()
	actions := ComputePodActions(pod, podStatus)
	if actions.CreateSandbox && actions.SandboxID != "" {
		m.event(pod, v1.EventTypeNormal, EventSandboxChanged, "Pod sandbox changed, it will be killed and re-created.")
	}
	if !m.killStep(ctx, pod, podStatus, actions, &result) {
		return result
	}
	m.pruneInitContainersBeforeStart(ctx, pod, podStatus)

	podIPs := sortPodIPs(podStatus.IPs, m.opts.NodeIPs)
	t := &startTarget{sandboxID: actions.SandboxID, podIPs: podIPs, volumes: volumes}
	if actions.CreateSandbox {
		r := result.add(CreatePodSandbox, podDesc(pod))
		id, cfg, msg, err := m.createPodSandbox(ctx, pod, actions.Attempt)
		if err != nil {
			r.Fail(ErrCreatePodSandbox, msg, err)
			m.event(pod, v1.EventTypeWarning, EventFailedCreatePodSandBox, fmt.Sprintf("Failed to create pod sandbox: %v", err))
			return result
		}
		t.sandboxID, t.sandbox = id, cfg
		resp, err := m.opts.Runtime.PodSandboxStatus(ctx, &runtimeapi.PodSandboxStatusRequest{PodSandboxId: id})
		if err != nil {
			m.event(pod, v1.EventTypeWarning, EventFailedPodSandBoxStatus, fmt.Sprintf("Unable to get pod sandbox status: %v", err))
			result.SyncError = err
			return result
		}
		if resp.GetStatus() == nil {
			result.SyncError = errors.New("pod sandbox status is nil")
			return result
		}
		if !pod.Spec.HostNetwork {
			t.podIPs = m.sandboxIPs(pod, resp.GetStatus())
		}
	}
	if len(actions.EphemeralContainersToStart)+len(actions.InitContainersToStart)+len(actions.ContainersToStart) == 0 {
		return result
	}
	if !m.prepareStart(ctx, pod, actions, t, &result) {
		return result
	}
	for _, i := range actions.EphemeralContainersToStart {
		ec := &pod.Spec.EphemeralContainers[i]
		m.startWithBackOff(ctx, pod, podStatus, (*v1.Container)(&ec.EphemeralContainerCommon), ec, t, &result)
	}
	for _, i := range actions.InitContainersToStart {
		c := &pod.Spec.InitContainers[i]
		if err := m.startWithBackOff(ctx, pod, podStatus, c, nil, t, &result); err != nil && !IsRestartableInitContainer(c) {
			// The pod cannot initialise past a regular init container that did not start.
			return result
		}
	}
	for _, i := range actions.ContainersToStart {
		m.startWithBackOff(ctx, pod, podStatus, &pod.Spec.Containers[i], nil, t, &result)
	}
	return result
}

// killStep is SyncPod's second step; it reports whether the pass goes on.
func (m *Manager) killStep(ctx context.Context, pod *v1.Pod, podStatus *PodStatus, actions PodActions, result *PodSyncResult) bool {
	if actions.KillPod {
		kill := m.killPodWithSyncResult(ctx, pod, podStatus, nil)
		result.merge(kill)
		if kill.Error() != nil {
			return false
		}
		if actions.CreateSandbox {
			m.purgeInitContainers(ctx, pod, podStatus)
		}
		return true
	}
	for _, k := range actions.ContainersToKill {
		r := result.add(KillContainer, k.Name)
		if err := m.killContainer(ctx, pod, k.ID, k.Name, k.Message, nil, nil); err != nil {
			r.Fail(ErrKillContainer, err.Error(), err)
			return false
		}
	}
	return true
}

// prepareStart makes what starting containers needs once per pass: the sandbox's config (made
// when the sandbox was created, else generated again for the existing sandbox's attempt) and
// the image volumes. It reports whether containers can start.
func (m *Manager) prepareStart(ctx context.Context, pod *v1.Pod, actions PodActions, t *startTarget, result *PodSyncResult) bool {
	if t.sandbox == nil {
		cfg, err := m.opts.Generator.GeneratePodSandboxConfig(ctx, pod, actions.Attempt)
		if err != nil {
			result.SyncError = fmt.Errorf("GeneratePodSandboxConfig for pod %q failed: %w", podDesc(pod), err)
			return false
		}
		t.sandbox = cfg
	}
	t.imageVolumes = m.pullImageVolumes(ctx, pod, t.sandbox)
	return true
}

// startWithBackOff starts one container unless it waits out its back-off, recording the
// StartContainer result; it returns the result's error.
func (m *Manager) startWithBackOff(ctx context.Context, pod *v1.Pod, podStatus *PodStatus, c *v1.Container, eph *v1.EphemeralContainer, t *startTarget, result *PodSyncResult) error {
	r := result.add(StartContainer, c.Name)
	if wait, msg, err := m.doBackOff(pod, c, podStatus); wait {
		r.Fail(err, msg, nil)
		return err
	}
	msg, reason, cause := m.startContainer(ctx, pod, podStatus, c, eph, t)
	if reason != nil {
		r.Fail(reason, msg, cause)
		return reason
	}
	return nil
}

// createPodSandbox makes the pod's sandbox as kubelet's createPodSandbox does: its config from
// the Generator for the attempt, the pod's log directory, then RunPodSandbox with the pod's
// runtime handler. It returns the sandbox's ID and config, or kubelet's message and the error.
func (m *Manager) createPodSandbox(ctx context.Context, pod *v1.Pod, attempt uint32) (string, *runtimeapi.PodSandboxConfig, string, error) {
	cfg, err := m.opts.Generator.GeneratePodSandboxConfig(ctx, pod, attempt)
	if err != nil {
		return "", nil, fmt.Sprintf("Failed to generate sandbox config for pod %q: %v", podDesc(pod), err), err
	}
	if _, err := m.opts.Generator.MakePodLogsDirectory(pod); err != nil {
		return "", nil, fmt.Sprintf("Failed to create log directory for pod %q: %v", podDesc(pod), err), err
	}
	handler := ""
	if m.opts.RuntimeClasses != nil {
		if handler, err = m.opts.RuntimeClasses.LookupRuntimeHandler(pod.Spec.RuntimeClassName); err != nil {
			return "", nil, fmt.Sprintf("Failed to create sandbox for pod %q: %v", podDesc(pod), err), err
		}
	}
	resp, err := m.opts.Runtime.RunPodSandbox(ctx, &runtimeapi.RunPodSandboxRequest{Config: cfg, RuntimeHandler: handler})
	if err != nil {
		return "", nil, fmt.Sprintf("Failed to create sandbox for pod %q: %v", podDesc(pod), err), err
	}
	return resp.GetPodSandboxId(), cfg, "", nil
}

// sandboxIPs are a sandbox's IPs (configgen.PodSandboxIPs, kubelet's determinePodSandboxIPs);
// an IP that does not parse is reported and leaves the pod without IPs.
func (m *Manager) sandboxIPs(pod *v1.Pod, st *runtimeapi.PodSandboxStatus) []string {
	ips, warnings := configgen.PodSandboxIPs(st)
	for _, w := range warnings {
		m.warn(pod, "%s", w.Message)
	}
	return ips
}

// add appends a result for action on target and returns it, for the caller to fail.
func (p *PodSyncResult) add(action SyncAction, target string) *SyncResult {
	r := &SyncResult{Action: action, Target: target}
	p.SyncResults = append(p.SyncResults, r)
	return r
}

// merge appends another pass's results and takes its error.
func (p *PodSyncResult) merge(o PodSyncResult) {
	p.SyncResults = append(p.SyncResults, o.SyncResults...)
	p.SyncError = o.SyncError
}
