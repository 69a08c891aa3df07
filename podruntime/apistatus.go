package podruntime

import (
	"fmt"
	"net"
	"sort"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	netutils "k8s.io/utils/net"

	"github.com/podconfig/podconfig/resources"
)

// Kubelet's limit on all of a pod's termination messages in its status together, shared evenly
// by its containers.
const maxPodTerminationMessageLogLength = 1024 * 12

// StatusInput is what GenerateAPIPodStatus needs besides the pod and what the runtime holds.
type StatusInput struct {
	// Old is the status last generated for the pod (kubelet's status manager keeps it); nil
	// means pod.Status, as the API server has it.
	Old *v1.PodStatus
	// Terminal says the pod was stopped for good and its containers will not run again
	// (kubelet's podIsTerminal, once its pod worker terminated the pod): all exited, the phase
	// is Succeeded or Failed whatever the restart policy.
	Terminal bool
	// Reasons are why containers last failed to start (Manager.Reasons); nil means none.
	Reasons *ReasonCache
	// NodeIPs are the node's IPs, for status.hostIP(s), a host-network pod's IPs and the order
	// of status.podIPs; empty leaves hostIP unset, as kubelet without an API server does.
	NodeIPs []net.IP
	// SupportsRecursiveReadOnly says the pod's runtime handler supports recursive read-only
	// mounts: what the volume mounts' status says of recursiveReadOnly IfPossible.
	SupportsRecursiveReadOnly bool
	// StopSignals is the ContainerStopSignals feature gate: report each container's stop signal.
	StopSignals bool
	// Now is the status's time: the start time of a pod that has none, and the transition time
	// of a condition that changed. Zero means time.Now().
	Now time.Time
}

// GenerateAPIPodStatus returns the pod's v1.PodStatus as kubelet v1.37 computes it with no
// probes and no device plugins: its generateAPIPodStatus from what the runtime holds, then what
// its status manager adds when it stores the status.
//
// Containers: each init, regular and ephemeral container's state, last termination state, exit
// code, reason and termination message, restart count, image and imageID, containerID, user,
// allocated resources and resources, volume mounts; a container never started waits with reason
// ContainerCreating (PodInitializing while the pod has init containers); one that is to start
// again and failed to start waits with the failure's reason (CrashLoopBackOff, ErrImagePull,
// CreateContainerConfigError, ...; Reasons). With no probes, a container is started and ready
// while it runs, and an init container is ready once it exited 0.
//
// Pod: phase (PodPhase), kept once terminal; conditions PodReadyToStartContainers, Initialized,
// Ready, ContainersReady and PodScheduled (transition times kept while unchanged) beside the
// pod's conditions kubelet does not own; podIP(s) in the node's family order; hostIP(s); the
// start time; qosClass; observedGeneration. Timestamps are truncated to seconds and termination
// messages to a share of 12 KiB, as the status manager does. A status that would take a
// container out of a terminated state it cannot leave is refused as the status manager refuses
// it: the old status is returned.
//
// It is pure: it reads nothing but its arguments. A nil pod gives an empty status.
func GenerateAPIPodStatus(pod *v1.Pod, podStatus *PodStatus, in StatusInput) v1.PodStatus {
	if pod == nil {
		return v1.PodStatus{}
	}
	if podStatus == nil {
		podStatus = &PodStatus{ID: pod.UID, Name: pod.Name, Namespace: pod.Namespace}
	}
	if in.Now.IsZero() {
		in.Now = time.Now()
	}
	old := pod.Status
	if in.Old != nil {
		old = *in.Old
	}
	s := generateAPIPodStatus(pod, podStatus, old, in)
	return setPodStatus(pod, old, s, in.Now)
}

// generateAPIPodStatus is kubelet's generateAPIPodStatus.
func generateAPIPodStatus(pod *v1.Pod, podStatus *PodStatus, old v1.PodStatus, in StatusInput) v1.PodStatus {
	s := convertStatusToAPIStatus(pod, podStatus, old, in)
	all := append(append([]v1.ContainerStatus{}, s.ContainerStatuses...), s.InitContainerStatuses...)
	s.Phase = PodPhase(pod, all, in.Terminal, hasAnyActiveRegularContainerStarted(&pod.Spec, podStatus))
	if !isTerminalPhase(s.Phase) {
		// A phase once terminal stays so, whether the status manager or the API server saw it.
		switch {
		case isTerminalPhase(old.Phase):
			s.Phase = old.Phase
		case isTerminalPhase(pod.Status.Phase):
			s.Phase = pod.Status.Phase
		}
	}
	if s.Phase == old.Phase {
		s.Reason, s.Message = old.Reason, old.Message
		if s.Reason == "" {
			s.Reason = pod.Status.Reason
		}
		if s.Message == "" {
			s.Message = pod.Status.Message
		}
	}
	if isTerminalPhase(pod.Status.Phase) {
		s.Phase = pod.Status.Phase
	}
	setStartedAndReady(pod, &s)
	s.Conditions = make([]v1.PodCondition, 0, len(pod.Status.Conditions)+5)
	for _, c := range pod.Status.Conditions {
		if !podConditionByKubelet(c.Type) {
			s.Conditions = append(s.Conditions, c)
		}
	}
	if c := findCondition(old.Conditions, v1.DisruptionTarget); c != nil {
		s.Conditions = replaceOrAppendCondition(s.Conditions, *c)
	}
	allStatuses := append(append([]v1.ContainerStatus{}, s.InitContainerStatuses...), s.ContainerStatuses...)
	s.Conditions = append(s.Conditions,
		podReadyToStartContainersCondition(pod, podStatus),
		podInitializedCondition(pod, &old, allStatuses, s.Phase),
		podReadyCondition(pod, s.Conditions, allStatuses, s.Phase),
		containersReadyCondition(pod, allStatuses, s.Phase),
		v1.PodCondition{Type: v1.PodScheduled, ObservedGeneration: pod.Generation, Status: v1.ConditionTrue})
	if allContainersCouldRestart(&pod.Spec) {
		s.Conditions = append(s.Conditions, allContainersRestartingCondition(pod, s.Phase))
	}
	setHostIPs(pod, &s, in.NodeIPs)
	return s
}

// convertStatusToAPIStatus is kubelet's: pod IPs and QoS class, and the containers' statuses.
func convertStatusToAPIStatus(pod *v1.Pod, podStatus *PodStatus, old v1.PodStatus, in StatusInput) v1.PodStatus {
	var s v1.PodStatus
	for _, ip := range sortPodIPs(podStatus.IPs, in.NodeIPs) {
		s.PodIPs = append(s.PodIPs, v1.PodIP{IP: ip})
	}
	if len(s.PodIPs) > 0 {
		s.PodIP = s.PodIPs[0].IP
	}
	s.QOSClass = resources.GetPodQOS(pod, true)
	hasInit := len(pod.Spec.InitContainers) > 0
	conv := statusConverter{pod: pod, podStatus: podStatus, in: in}
	s.ContainerStatuses = conv.containerStatuses(old.ContainerStatuses, pod.Spec.Containers, hasInit, false)
	s.InitContainerStatuses = conv.containerStatuses(old.InitContainerStatuses, pod.Spec.InitContainers, hasInit, true)
	var eph []v1.Container
	for i := range pod.Spec.EphemeralContainers {
		eph = append(eph, v1.Container(pod.Spec.EphemeralContainers[i].EphemeralContainerCommon))
	}
	s.EphemeralContainerStatuses = conv.containerStatuses(old.EphemeralContainerStatuses, eph, hasInit, false)
	return s
}

// setStartedAndReady is what kubelet's probe manager adds with no probe: a container is started
// while it runs; a regular container or sidecar is ready while it runs; a regular init
// container is ready once it exited 0.
func setStartedAndReady(pod *v1.Pod, s *v1.PodStatus) {
	for i := range s.ContainerStatuses {
		cs := &s.ContainerStatuses[i]
		started := cs.State.Running != nil
		cs.Started = &started
		if started {
			cs.Ready = true
		}
	}
	for i := range s.InitContainerStatuses {
		cs := &s.InitContainerStatuses[i]
		started := cs.State.Running != nil
		cs.Started = &started
		c := containerSpec(pod, cs.Name)
		if c == nil || !IsRestartableInitContainer(c) {
			if cs.State.Terminated != nil && cs.State.Terminated.ExitCode == 0 {
				cs.Ready = true
			}
			continue
		}
		if started {
			cs.Ready = true
		}
	}
}

// setHostIPs sets status.hostIP(s) to the node's IPs (the first, then the first of the other
// family) and gives a host-network pod with no pod IP the node's, as kubelet does when it knows
// its node.
func setHostIPs(pod *v1.Pod, s *v1.PodStatus, nodeIPs []net.IP) {
	hostIPs := nodeHostIPs(nodeIPs)
	if len(hostIPs) == 0 {
		return
	}
	s.HostIP = hostIPs[0].String()
	s.HostIPs = []v1.HostIP{{IP: s.HostIP}}
	if len(hostIPs) == 2 {
		s.HostIPs = append(s.HostIPs, v1.HostIP{IP: hostIPs[1].String()})
	}
	if !pod.Spec.HostNetwork {
		return
	}
	if s.PodIP == "" {
		s.PodIP = hostIPs[0].String()
		s.PodIPs = []v1.PodIP{{IP: s.PodIP}}
	}
	if len(hostIPs) == 2 && len(s.PodIPs) == 1 && netutils.IsIPv6String(s.PodIPs[0].IP) != netutils.IsIPv6(hostIPs[1]) {
		s.PodIPs = append(s.PodIPs, v1.PodIP{IP: hostIPs[1].String()})
	}
}

// nodeHostIPs is kubelet's GetNodeHostIPs over the node's IPs: the first, and on a dual-stack
// node the first of the other family.
func nodeHostIPs(nodeIPs []net.IP) []net.IP {
	var out []net.IP
	for _, ip := range nodeIPs {
		if ip == nil {
			continue
		}
		if len(out) == 0 || (len(out) == 1 && netutils.IsIPv6(ip) != netutils.IsIPv6(out[0])) {
			out = append(out, ip)
		}
	}
	return out
}

// sortPodIPs is kubelet's sortPodIPs: the first IP of the node's family (IPv4 when the node has
// no IP), then the first of the other, each parsed and printed again; at most two.
func sortPodIPs(podIPs []string, nodeIPs []net.IP) []string {
	primaryV6 := len(nodeIPs) > 0 && nodeIPs[0] != nil && netutils.IsIPv6(nodeIPs[0])
	ips := make([]string, 0, 2)
	for _, wantV6 := range []bool{primaryV6, !primaryV6} {
		for _, s := range podIPs {
			ip := netutils.ParseIPSloppy(s)
			if ip != nil && netutils.IsIPv6(ip) == wantV6 {
				ips = append(ips, ip.String())
				break
			}
		}
	}
	return ips
}

func isTerminalPhase(p v1.PodPhase) bool { return p == v1.PodSucceeded || p == v1.PodFailed }

// setPodStatus is what kubelet's status manager does with a status it stores: observedGeneration,
// a refusal of illegal container transitions (keeping the old status), transition times of
// unchanged conditions and the start time kept, timestamps truncated to seconds, termination
// messages truncated, and the containers' statuses sorted.
func setPodStatus(pod *v1.Pod, old, s v1.PodStatus, now time.Time) v1.PodStatus {
	s.ObservedGeneration = pod.Generation
	if err := checkContainerStateTransition(&old, &s, &pod.Spec); err != nil {
		return old
	}
	for _, t := range []v1.PodConditionType{v1.ContainersReady, v1.PodReady, v1.PodInitialized, v1.PodReadyToStartContainers,
		v1.PodScheduled, v1.DisruptionTarget, v1.AllContainersRestarting} {
		updateLastTransitionTime(&s, &old, t, now)
	}
	if old.StartTime != nil && !old.StartTime.IsZero() {
		s.StartTime = old.StartTime.DeepCopy()
	} else if s.StartTime.IsZero() {
		t := metav1.NewTime(now)
		s.StartTime = &t
	}
	if len(old.VolumeHealth) > 0 && len(s.VolumeHealth) == 0 {
		s.VolumeHealth = old.VolumeHealth
	}
	if old.ObservedGeneration > s.ObservedGeneration {
		s.ObservedGeneration = old.ObservedGeneration
	}
	normalizeStatus(pod, &s)
	return s
}

// updateLastTransitionTime keeps a condition's transition time while its status is unchanged.
func updateLastTransitionTime(s, old *v1.PodStatus, t v1.PodConditionType, now time.Time) {
	c := findConditionPtr(s.Conditions, t)
	if c == nil {
		return
	}
	c.LastTransitionTime = metav1.NewTime(now)
	if o := findCondition(old.Conditions, t); o != nil && o.Status == c.Status {
		c.LastTransitionTime = o.LastTransitionTime
	}
}

// normalizeStatus is the status manager's: RFC 3339 times, termination messages cut to the
// container's share, regular and ephemeral statuses by name, init statuses in spec order.
func normalizeStatus(pod *v1.Pod, s *v1.PodStatus) {
	perStatus := maxPodTerminationMessageLogLength
	if n := len(pod.Spec.Containers) + len(pod.Spec.InitContainers) + len(pod.Spec.EphemeralContainers); n > 0 {
		perStatus /= n
	}
	norm := func(t *metav1.Time) { *t = t.Rfc3339Copy() }
	normState := func(st *v1.ContainerState) {
		if st.Running != nil {
			norm(&st.Running.StartedAt)
		}
		if st.Terminated != nil {
			norm(&st.Terminated.StartedAt)
			norm(&st.Terminated.FinishedAt)
			if len(st.Terminated.Message) > perStatus {
				st.Terminated.Message = st.Terminated.Message[:perStatus]
			}
		}
	}
	if s.StartTime != nil {
		norm(s.StartTime)
	}
	for i := range s.Conditions {
		norm(&s.Conditions[i].LastProbeTime)
		norm(&s.Conditions[i].LastTransitionTime)
	}
	for _, list := range [][]v1.ContainerStatus{s.ContainerStatuses, s.InitContainerStatuses, s.EphemeralContainerStatuses} {
		for i := range list {
			normState(&list[i].State)
			normState(&list[i].LastTerminationState)
		}
	}
	byName := func(list []v1.ContainerStatus) {
		sort.SliceStable(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	}
	byName(s.ContainerStatuses)
	byName(s.EphemeralContainerStatuses)
	sortInitContainerStatuses(pod, s.InitContainerStatuses)
}

// sortInitContainerStatuses orders init statuses as the spec orders the containers.
func sortInitContainerStatuses(pod *v1.Pod, statuses []v1.ContainerStatus) {
	current := 0
	for _, c := range pod.Spec.InitContainers {
		for j := current; j < len(statuses); j++ {
			if statuses[j].Name == c.Name {
				statuses[current], statuses[j] = statuses[j], statuses[current]
				current++
				break
			}
		}
	}
}

// checkContainerStateTransition refuses a status that takes a container out of the
// terminated state when nothing may restart it (the status manager's check).
func checkContainerStateTransition(old, s *v1.PodStatus, spec *v1.PodSpec) error {
	if spec.RestartPolicy == v1.RestartPolicyAlways || allContainersCouldRestart(spec) {
		return nil
	}
	check := func(olds, news []v1.ContainerStatus, containers []v1.Container, init bool) error {
		for _, o := range olds {
			c := findContainer(containers, o.Name)
			if init && c == nil {
				return fmt.Errorf("found mismatch between pod spec and status, container: %v", o.Name)
			}
			if (init && IsRestartableInitContainer(c)) || o.State.Terminated == nil {
				continue
			}
			if o.State.Terminated.ExitCode != 0 && spec.RestartPolicy == v1.RestartPolicyOnFailure {
				continue
			}
			if c != nil && ContainerShouldRestart(c, spec, o.State.Terminated.ExitCode) {
				continue
			}
			for _, n := range news {
				if n.Name == o.Name && n.State.Terminated == nil {
					what := "container"
					if init {
						what = "init container"
					}
					return fmt.Errorf("terminated %s %v attempted illegal transition to non-terminated state", what, n.Name)
				}
			}
		}
		return nil
	}
	if err := check(old.ContainerStatuses, s.ContainerStatuses, spec.Containers, false); err != nil {
		return err
	}
	return check(old.InitContainerStatuses, s.InitContainerStatuses, spec.InitContainers, true)
}

func findContainer(list []v1.Container, name string) *v1.Container {
	for i := range list {
		if list[i].Name == name {
			return &list[i]
		}
	}
	return nil
}
