package podruntime_test

import (
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/podruntime"
)

var statusNow = time.Unix(1_700_000_100, 0)

// generate is GenerateAPIPodStatus at statusNow on the node 10.0.0.1.
func generate(w *world, in podruntime.StatusInput) v1.PodStatus {
	in.Now = statusNow
	if in.NodeIPs == nil {
		in.NodeIPs = []net.IP{net.ParseIP("10.0.0.1")}
	}
	return podruntime.GenerateAPIPodStatus(w.pod, w.st, in)
}

// conditions sums up the status's conditions as "Type=Status reason: message".
func conditions(s v1.PodStatus) []string {
	var out []string
	for _, c := range s.Conditions {
		line := string(c.Type) + "=" + string(c.Status)
		if c.Reason != "" {
			line += " " + c.Reason
		}
		if c.Message != "" {
			line += ": " + c.Message
		}
		out = append(out, line)
	}
	return out
}

// state sums up a container state as "waiting Reason", "running" or "terminated code Reason".
func state(s v1.ContainerState) string {
	switch {
	case s.Waiting != nil:
		return strings.TrimSpace("waiting " + s.Waiting.Reason)
	case s.Running != nil:
		return "running"
	case s.Terminated != nil:
		return strings.TrimSpace("terminated " + string(rune('0'+s.Terminated.ExitCode)) + " " + s.Terminated.Reason)
	}
	return "none"
}

// containers sums up each container's status as "name: state (last: state) restarts started ready".
func containers(list []v1.ContainerStatus) []string {
	var out []string
	for _, c := range list {
		line := c.Name + ": " + state(c.State)
		if last := state(c.LastTerminationState); last != "none" {
			line += " (last: " + last + ")"
		}
		line += " restarts=" + string(rune('0'+c.RestartCount))
		if c.Started != nil && *c.Started {
			line += " started"
		}
		if c.Ready {
			line += " ready"
		}
		out = append(out, line)
	}
	return out
}

func TestGenerateAPIPodStatusIsKubeletsStatusWithoutProbes(t *testing.T) {
	reasons := &podruntime.ReasonCache{}
	crashPod := testPod(nil)
	reasons.Update(crashPod.UID, podruntime.PodSyncResult{SyncResults: []*podruntime.SyncResult{{Action: podruntime.StartContainer, Target: "main",
		Error: &podruntime.BackoffError{Err: podruntime.ErrCrashLoopBackOff}, Message: "back-off 10s restarting failed container=main pod=web_default(uid)"}}})
	for _, tc := range []struct {
		name       string
		pod        func(*v1.Pod)
		world      func(*world) *world
		in         podruntime.StatusInput
		phase      v1.PodPhase
		init       []string
		containers []string
		conditions []string
	}{
		{"a container with no attempt waits ContainerCreating and the pod is Pending", nil,
			func(w *world) *world { return w }, podruntime.StatusInput{}, v1.PodPending, nil,
			[]string{"main: waiting ContainerCreating restarts=0"},
			[]string{"PodReadyToStartContainers=True", "Initialized=True", "Ready=False ContainersNotReady: containers with unready status: [main]",
				"ContainersReady=False ContainersNotReady: containers with unready status: [main]", "PodScheduled=True"}},
		{"a pod with no sandbox is not ready to start containers", nil,
			func(w *world) *world { w.st.SandboxStatuses = nil; return w }, podruntime.StatusInput{}, v1.PodPending, nil,
			[]string{"main: waiting ContainerCreating restarts=0"},
			[]string{"PodReadyToStartContainers=False PodSandboxNotReady: no pod sandbox exists", "Initialized=True",
				"Ready=False ContainersNotReady: containers with unready status: [main]",
				"ContainersReady=False ContainersNotReady: containers with unready status: [main]", "PodScheduled=True"}},
		{"while init containers run, the regular containers wait PodInitializing", withInits("setup"),
			func(w *world) *world { return w.attempt("setup", running, 0) }, podruntime.StatusInput{}, v1.PodPending,
			[]string{"setup: running restarts=0 started"},
			[]string{"main: waiting PodInitializing restarts=0"},
			[]string{"PodReadyToStartContainers=True", "Initialized=False ContainersNotInitialized: containers with incomplete status: [setup]",
				"Ready=False ContainersNotReady: containers with unready status: [main]",
				"ContainersReady=False ContainersNotReady: containers with unready status: [main]", "PodScheduled=True"}},
		{"a running container is started and ready with no probe, and the pod Running and Ready", withInits("setup"),
			func(w *world) *world { return w.attempt("setup", exited, 0).attempt("main", running, 0) }, podruntime.StatusInput{}, v1.PodRunning,
			[]string{"setup: terminated 0 Completed restarts=0 ready"},
			[]string{"main: running restarts=0 started ready"},
			[]string{"PodReadyToStartContainers=True", "Initialized=True", "Ready=True", "ContainersReady=True", "PodScheduled=True"}},
		{"a sidecar is ready while it runs", withInits("+proxy"),
			func(w *world) *world { return w.attempt("proxy", running, 0).attempt("main", running, 0) }, podruntime.StatusInput{}, v1.PodRunning,
			[]string{"proxy: running restarts=0 started ready"},
			[]string{"main: running restarts=0 started ready"},
			[]string{"PodReadyToStartContainers=True", "Initialized=True", "Ready=True", "ContainersReady=True", "PodScheduled=True"}},
		{"all containers exited 0 under Never: Succeeded, not ready with PodCompleted", policy(v1.RestartPolicyNever),
			func(w *world) *world { return w.attempt("main", exited, 0) }, podruntime.StatusInput{}, v1.PodSucceeded, nil,
			[]string{"main: terminated 0 Completed restarts=0"},
			[]string{"PodReadyToStartContainers=True", "Initialized=True PodCompleted", "Ready=False PodCompleted", "ContainersReady=False PodCompleted", "PodScheduled=True"}},
		{"a container failed under Never: Failed, not ready with PodFailed", policy(v1.RestartPolicyNever),
			func(w *world) *world { return w.attempt("main", exited, 2) }, podruntime.StatusInput{}, v1.PodFailed, nil,
			[]string{"main: terminated 2 Error restarts=0"},
			[]string{"PodReadyToStartContainers=True", "Initialized=True", "Ready=False PodFailed", "ContainersReady=False PodFailed", "PodScheduled=True"}},
		{"an exited container that will be restarted keeps the pod Running", nil,
			func(w *world) *world { return w.attempt("main", exited, 1) }, podruntime.StatusInput{}, v1.PodRunning, nil,
			[]string{"main: terminated 1 Error restarts=0"},
			[]string{"PodReadyToStartContainers=True", "Initialized=True", "Ready=False ContainersNotReady: containers with unready status: [main]",
				"ContainersReady=False ContainersNotReady: containers with unready status: [main]", "PodScheduled=True"}},
		{"stopped for good, exited containers end the pod whatever the policy", nil,
			func(w *world) *world { return w.attempt("main", exited, 0) }, podruntime.StatusInput{Terminal: true}, v1.PodSucceeded, nil,
			[]string{"main: terminated 0 Completed restarts=0"},
			[]string{"PodReadyToStartContainers=True", "Initialized=True PodCompleted", "Ready=False PodCompleted", "ContainersReady=False PodCompleted", "PodScheduled=True"}},
		{"the attempt before the newest is the last termination state", nil,
			func(w *world) *world { return w.attempt("main", exited, 1).attempt("main", running, 0) }, podruntime.StatusInput{}, v1.PodRunning, nil,
			[]string{"main: running (last: terminated 1 Error) restarts=1 started ready"},
			[]string{"PodReadyToStartContainers=True", "Initialized=True", "Ready=True", "ContainersReady=True", "PodScheduled=True"}},
		{"a container to restart that failed to start waits with the failure's reason", func(p *v1.Pod) { p.UID = crashPod.UID },
			func(w *world) *world { return w.attempt("main", exited, 1).attempt("main", exited, 1) }, podruntime.StatusInput{Reasons: reasons}, v1.PodRunning, nil,
			[]string{"main: waiting CrashLoopBackOff (last: terminated 1 Error) restarts=1"},
			[]string{"PodReadyToStartContainers=True", "Initialized=True", "Ready=False ContainersNotReady: containers with unready status: [main]",
				"ContainersReady=False ContainersNotReady: containers with unready status: [main]", "PodScheduled=True"}},
		{"a regular init container failed under Never fails the pod", both(withInits("setup"), policy(v1.RestartPolicyNever)),
			func(w *world) *world { return w.attempt("setup", exited, 3) }, podruntime.StatusInput{}, v1.PodFailed,
			[]string{"setup: terminated 3 Error restarts=0"},
			[]string{"main: waiting PodInitializing restarts=0"},
			[]string{"PodReadyToStartContainers=True", "Initialized=False ContainersNotInitialized: containers with incomplete status: [setup]",
				"Ready=False PodFailed", "ContainersReady=False PodFailed", "PodScheduled=True"}},
		{"an init container the runtime removed after the pod initialised completed", withInits("setup"),
			func(w *world) *world { return w.attempt("main", running, 0) }, podruntime.StatusInput{}, v1.PodRunning,
			[]string{"setup: terminated 0 Completed restarts=0 ready"},
			[]string{"main: running restarts=0 started ready"},
			[]string{"PodReadyToStartContainers=True", "Initialized=True", "Ready=True", "ContainersReady=True", "PodScheduled=True"}},
		{"a readiness gate not met keeps the pod not ready", func(p *v1.Pod) {
			p.Spec.ReadinessGates = []v1.PodReadinessGate{{ConditionType: "example.com/lb"}}
		},
			func(w *world) *world { return w.attempt("main", running, 0) }, podruntime.StatusInput{}, v1.PodRunning, nil,
			[]string{"main: running restarts=0 started ready"},
			[]string{"PodReadyToStartContainers=True", "Initialized=True",
				`Ready=False ReadinessGatesNotReady: corresponding condition of pod readiness gate "example.com/lb" does not exist.`,
				"ContainersReady=True", "PodScheduled=True"}},
		{"conditions kubelet does not own are kept ahead of its own", func(p *v1.Pod) {
			p.Spec.ReadinessGates = []v1.PodReadinessGate{{ConditionType: "example.com/lb"}}
			p.Status.Conditions = []v1.PodCondition{{Type: "example.com/lb", Status: v1.ConditionTrue}, {Type: v1.PodReady, Status: v1.ConditionFalse}}
		},
			func(w *world) *world { return w.attempt("main", running, 0) }, podruntime.StatusInput{}, v1.PodRunning, nil,
			[]string{"main: running restarts=0 started ready"},
			[]string{"example.com/lb=True", "PodReadyToStartContainers=True", "Initialized=True", "Ready=True", "ContainersReady=True", "PodScheduled=True"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.world(newWorld(testPod(tc.pod)))
			s := generate(w, tc.in)
			assert.Equal(t, tc.phase, s.Phase)
			assert.Equal(t, tc.init, containers(s.InitContainerStatuses))
			assert.Equal(t, tc.containers, containers(s.ContainerStatuses))
			assert.Equal(t, tc.conditions, conditions(s))
		})
	}
}

func TestGenerateAPIPodStatusCarriesTheAttemptsDetails(t *testing.T) {
	w := newWorld(testPod(policy(v1.RestartPolicyNever))).attempt("main", exited, 3)
	cs := w.st.ContainerStatuses[0]
	cs.Message = "bye"
	cs.User = &v1.ContainerUser{Linux: &v1.LinuxContainerUser{UID: 1000, GID: 1000}}
	s := generate(w, podruntime.StatusInput{})
	require.Len(t, s.ContainerStatuses, 1)
	got := s.ContainerStatuses[0]
	assert.Equal(t, "containerd://main-0", got.ContainerID)
	assert.Equal(t, presentImage, got.Image)
	assert.Equal(t, "sha256:main", got.ImageID, "imageID is the reference the runtime resolved")
	assert.Equal(t, &v1.ContainerStateTerminated{ExitCode: 3, Reason: "Error", Message: "bye", StartedAt: metav1.NewTime(cs.StartedAt).Rfc3339Copy(),
		FinishedAt: metav1.NewTime(cs.FinishedAt).Rfc3339Copy(), ContainerID: "containerd://main-0"}, got.State.Terminated,
		"times are truncated to seconds, as the status manager stores them")
	assert.NotEqual(t, cs.FinishedAt, got.State.Terminated.FinishedAt.Time, "the runtime's time had milliseconds")
	assert.Equal(t, cs.User, got.User)
	assert.Equal(t, v1.PodQOSBestEffort, s.QOSClass)
	assert.Equal(t, "10.0.0.1", s.HostIP)
	assert.Equal(t, []v1.HostIP{{IP: "10.0.0.1"}}, s.HostIPs)
	assert.Equal(t, []v1.PodIP{{IP: "10.0.0.1"}}, s.PodIPs, "a host-network pod has the node's IP")
	assert.Equal(t, statusNow.Unix(), s.StartTime.Unix())
	for _, c := range s.Conditions {
		assert.Equal(t, statusNow.Unix(), c.LastTransitionTime.Unix(), "%s is new", c.Type)
	}
}

func TestGenerateAPIPodStatusKeepsWhatTheStatusManagerKeeps(t *testing.T) {
	earlier := metav1.NewTime(time.Unix(1_600_000_000, 0))
	w := newWorld(testPod(nil)).attempt("main", running, 0)
	old := generate(w, podruntime.StatusInput{})
	for i := range old.Conditions {
		old.Conditions[i].LastTransitionTime = earlier
	}
	old.StartTime = &earlier
	w.attempt("main", exited, 1)
	s := podruntime.GenerateAPIPodStatus(w.pod, w.st, podruntime.StatusInput{Old: &old, Now: statusNow.Add(time.Hour)})
	assert.Equal(t, earlier.Unix(), s.StartTime.Unix(), "the start time does not change")
	for _, c := range s.Conditions {
		switch c.Type {
		case v1.PodReady, v1.ContainersReady:
			assert.Equal(t, statusNow.Add(time.Hour).Unix(), c.LastTransitionTime.Unix(), "%s changed", c.Type)
		default:
			assert.Equal(t, earlier.Unix(), c.LastTransitionTime.Unix(), "%s did not change", c.Type)
		}
	}
}

func TestGenerateAPIPodStatusNeverLeavesATerminalPhase(t *testing.T) {
	w := newWorld(testPod(nil)).attempt("main", running, 0)
	old := v1.PodStatus{Phase: v1.PodSucceeded, Reason: "Done"}
	s := generate(w, podruntime.StatusInput{Old: &old})
	assert.Equal(t, v1.PodSucceeded, s.Phase)
	assert.Equal(t, "Done", s.Reason, "the reason of a phase that did not change is kept")
	w.pod.Status.Phase = v1.PodFailed
	assert.Equal(t, v1.PodFailed, generate(w, podruntime.StatusInput{}).Phase, "the API server's terminal phase wins")
}

func TestGenerateAPIPodStatusRefusesToRestartATerminatedContainer(t *testing.T) {
	w := newWorld(testPod(policy(v1.RestartPolicyNever))).attempt("main", exited, 0)
	old := generate(w, podruntime.StatusInput{})
	w.attempt("main", running, 0)
	s := generate(w, podruntime.StatusInput{Old: &old})
	assert.Equal(t, old, s, "the status manager keeps the old status rather than show a run-once container running again")
}

func TestGenerateAPIPodStatusInfersAContainerTheRuntimeLost(t *testing.T) {
	w := newWorld(testPod(nil)).attempt("main", running, 0)
	old := generate(w, podruntime.StatusInput{})
	w.st.ContainerStatuses, w.st.ActiveContainerStatuses = nil, nil
	s := generate(w, podruntime.StatusInput{Old: &old})
	got := s.ContainerStatuses[0]
	assert.Equal(t, "waiting ContainerCreating", state(got.State))
	assert.Equal(t, &v1.ContainerStateTerminated{ExitCode: 137, Reason: "ContainerStatusUnknown",
		Message: "The container could not be located when the pod was deleted.  The container used to be Running"}, got.LastTerminationState.Terminated)
	assert.Equal(t, int32(1), got.RestartCount)
}

func TestGenerateAPIPodStatusCutsTerminationMessagesToThePodsShare(t *testing.T) {
	w := newWorld(testPod(func(p *v1.Pod) {
		p.Spec.RestartPolicy = v1.RestartPolicyNever
		p.Spec.Containers = append(p.Spec.Containers, container("b"), container("c"))
	})).attempt("main", exited, 1).attempt("b", exited, 0).attempt("c", exited, 0)
	w.st.FindContainerStatusByName("main").Message = strings.Repeat("x", 10000)
	s := generate(w, podruntime.StatusInput{})
	assert.Len(t, s.ContainerStatuses[2].State.Terminated.Message, 12*1024/3, "a third of 12 KiB for each of three containers")
	assert.Equal(t, []string{"b", "c", "main"}, []string{s.ContainerStatuses[0].Name, s.ContainerStatuses[1].Name, s.ContainerStatuses[2].Name},
		"regular containers are sorted by name")
}

func TestGenerateAPIPodStatusOrdersPodIPsByTheNodesFamily(t *testing.T) {
	for _, tc := range []struct {
		name    string
		nodeIPs []net.IP
		podIPs  []string
		want    []v1.PodIP
		host    []v1.HostIP
	}{
		{"an IPv4 node lists the IPv4 first", []net.IP{net.ParseIP("10.0.0.1")}, []string{"fd00::2", "10.88.0.2"},
			[]v1.PodIP{{IP: "10.88.0.2"}, {IP: "fd00::2"}}, []v1.HostIP{{IP: "10.0.0.1"}}},
		{"an IPv6 node lists the IPv6 first", []net.IP{net.ParseIP("fd00::1"), net.ParseIP("10.0.0.1")}, []string{"10.88.0.2", "fd00::2"},
			[]v1.PodIP{{IP: "fd00::2"}, {IP: "10.88.0.2"}}, []v1.HostIP{{IP: "fd00::1"}, {IP: "10.0.0.1"}}},
		{"one IP per family, re-printed", []net.IP{net.ParseIP("10.0.0.1")}, []string{"010.88.0.2", "10.88.0.3", "fd00:0::2"},
			[]v1.PodIP{{IP: "10.88.0.2"}, {IP: "fd00::2"}}, []v1.HostIP{{IP: "10.0.0.1"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(testPod(func(p *v1.Pod) { p.Spec.HostNetwork = false }))
			w.st.IPs = tc.podIPs
			s := generate(w, podruntime.StatusInput{NodeIPs: tc.nodeIPs})
			assert.Equal(t, tc.want, s.PodIPs)
			assert.Equal(t, tc.want[0].IP, s.PodIP)
			assert.Equal(t, tc.host, s.HostIPs)
		})
	}
}

func TestGenerateAPIPodStatusReportsResourcesAndVolumeMounts(t *testing.T) {
	rro := v1.RecursiveReadOnlyIfPossible
	w := newWorld(testPod(func(p *v1.Pod) {
		p.Spec.Containers[0].Resources = v1.ResourceRequirements{
			Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("100m"), v1.ResourceMemory: resource.MustParse("64Mi")},
			Limits:   v1.ResourceList{v1.ResourceCPU: resource.MustParse("500m"), v1.ResourceMemory: resource.MustParse("128Mi")},
		}
		p.Spec.Containers[0].VolumeMounts = []v1.VolumeMount{{Name: "data", MountPath: "/data", ReadOnly: true, RecursiveReadOnly: &rro}, {Name: "tmp", MountPath: "/tmp"}}
	}))
	// The volume mounts are worked out while the container waits, then kept: kubelet's CRI
	// status does not know the volumes' names.
	waiting := generate(w, podruntime.StatusInput{SupportsRecursiveReadOnly: true})
	w.attempt("main", running, 0)
	w.st.ContainerStatuses[0].Resources = &podruntime.ContainerResources{
		CPURequest: resource.NewMilliQuantity(100, resource.DecimalSI), CPULimit: resource.NewMilliQuantity(500, resource.DecimalSI),
		MemoryLimit: resource.NewQuantity(128<<20, resource.BinarySI)}
	s := generate(w, podruntime.StatusInput{SupportsRecursiveReadOnly: true, Old: &waiting})
	got := s.ContainerStatuses[0]
	assert.Equal(t, v1.PodQOSBurstable, s.QOSClass)
	assert.Equal(t, w.pod.Spec.Containers[0].Resources.Requests, got.AllocatedResources)
	require.NotNil(t, got.Resources)
	assert.Equal(t, "500m", got.Resources.Limits.Cpu().String())
	assert.Equal(t, "128Mi", got.Resources.Limits.Memory().String())
	assert.Equal(t, "64Mi", got.Resources.Requests.Memory().String(), "the runtime reports no memory request: the allocated one stands")
	enabled := v1.RecursiveReadOnlyEnabled
	assert.Equal(t, []v1.VolumeMountStatus{{Name: "data", MountPath: "/data", ReadOnly: true, RecursiveReadOnly: &enabled}, {Name: "tmp", MountPath: "/tmp"}}, got.VolumeMounts)
	w.st.ContainerStatuses, w.st.ActiveContainerStatuses = nil, nil
	s = generate(w, podruntime.StatusInput{})
	disabled := v1.RecursiveReadOnlyDisabled
	assert.Equal(t, &disabled, s.ContainerStatuses[0].VolumeMounts[0].RecursiveReadOnly, "IfPossible on a runtime without support")
}

func TestGenerateAPIPodStatusOfNothing(t *testing.T) {
	assert.Equal(t, v1.PodStatus{}, podruntime.GenerateAPIPodStatus(nil, nil, podruntime.StatusInput{}), "a nil pod has an empty status")
	s := podruntime.GenerateAPIPodStatus(testPod(nil), nil, podruntime.StatusInput{Now: statusNow})
	assert.Equal(t, v1.PodPending, s.Phase, "a pod the runtime has nothing of is Pending")
}

func TestPodPhaseIsKubeletsGetPhase(t *testing.T) {
	run := v1.ContainerState{Running: &v1.ContainerStateRunning{}}
	wait := v1.ContainerState{Waiting: &v1.ContainerStateWaiting{}}
	term := func(code int32) v1.ContainerState {
		return v1.ContainerState{Terminated: &v1.ContainerStateTerminated{ExitCode: code}}
	}
	yes := true
	st := func(name string, s v1.ContainerState, last ...v1.ContainerState) v1.ContainerStatus {
		out := v1.ContainerStatus{Name: name, State: s, Started: &yes}
		if len(last) > 0 {
			out.LastTerminationState = last[0]
		}
		return out
	}
	for _, tc := range []struct {
		name        string
		pod         func(*v1.Pod)
		statuses    []v1.ContainerStatus
		terminal    bool
		initialized bool
		want        v1.PodPhase
	}{
		{"a container with no status is Pending", nil, nil, false, false, v1.PodPending},
		{"a waiting container that never ran is Pending", nil, []v1.ContainerStatus{st("main", wait)}, false, false, v1.PodPending},
		{"a running container is Running", nil, []v1.ContainerStatus{st("main", run)}, false, true, v1.PodRunning},
		{"a waiting container that ran is stopped, and Running under Always", nil, []v1.ContainerStatus{st("main", wait, term(1))}, false, true, v1.PodRunning},
		{"under OnFailure a failure still restarts: Running", policy(v1.RestartPolicyOnFailure), []v1.ContainerStatus{st("main", term(1))}, false, true, v1.PodRunning},
		{"under OnFailure every success is Succeeded", policy(v1.RestartPolicyOnFailure), []v1.ContainerStatus{st("main", term(0))}, false, true, v1.PodSucceeded},
		{"under Never a failure is Failed", policy(v1.RestartPolicyNever), []v1.ContainerStatus{st("main", term(1))}, false, true, v1.PodFailed},
		{"terminal, a success under Always is Succeeded", nil, []v1.ContainerStatus{st("main", term(0))}, true, true, v1.PodSucceeded},
		{"terminal, a failure under Always is Failed", nil, []v1.ContainerStatus{st("main", term(1))}, true, true, v1.PodFailed},
		{"terminal, a static pod stays out of the terminal phases", func(p *v1.Pod) {
			p.Annotations = map[string]string{"kubernetes.io/config.source": "file"}
		}, []v1.ContainerStatus{st("main", term(1))}, true, true, v1.PodRunning},
		{"a running init container is Pending", withInits("setup"), []v1.ContainerStatus{st("setup", run), st("main", wait)}, false, false, v1.PodPending},
		{"an init container that failed and restarts is Pending", withInits("setup"), []v1.ContainerStatus{st("setup", wait, term(1)), st("main", wait)}, false, false, v1.PodPending},
		{"an init container that failed under Never is Failed", both(withInits("setup"), policy(v1.RestartPolicyNever)),
			[]v1.ContainerStatus{st("setup", term(1)), st("main", wait)}, false, false, v1.PodFailed},
		{"a sidecar not yet started before initialisation is Pending", withInits("+proxy"),
			[]v1.ContainerStatus{{Name: "proxy", State: run}, st("main", run)}, false, false, v1.PodPending},
		{"a sidecar restarting after initialisation keeps the pod Running", withInits("+proxy"),
			[]v1.ContainerStatus{st("proxy", wait, term(1)), st("main", run)}, false, true, v1.PodRunning},
		{"a sidecar waiting that never ran makes the pod Pending, even initialised", withInits("+proxy"),
			[]v1.ContainerStatus{st("proxy", wait), st("main", run)}, false, true, v1.PodPending},
		{"a terminated sidecar does not count", both(withInits("+proxy"), policy(v1.RestartPolicyNever)),
			[]v1.ContainerStatus{st("proxy", term(137)), st("main", term(0))}, false, true, v1.PodSucceeded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, podruntime.PodPhase(testPod(tc.pod), tc.statuses, tc.terminal, tc.initialized))
		})
	}
	assert.Equal(t, v1.PodPending, podruntime.PodPhase(nil, nil, false, false), "a nil pod is Pending")
}

func TestReasonCacheKeepsTheLastStartFailureOfEachContainer(t *testing.T) {
	var c podruntime.ReasonCache
	fail := func(name string, err error) podruntime.PodSyncResult {
		return podruntime.PodSyncResult{SyncResults: []*podruntime.SyncResult{{Action: podruntime.StartContainer, Target: name, Error: err, Message: "m"}}}
	}
	c.Update("u", fail("a", podruntime.ErrImagePull))
	c.Update("u", podruntime.PodSyncResult{SyncResults: []*podruntime.SyncResult{{Action: podruntime.KillContainer, Target: "a", Error: errors.New("x")}}})
	got, ok := c.Get("u", "a")
	require.True(t, ok)
	assert.Equal(t, podruntime.ReasonItem{Err: podruntime.ErrImagePull, Message: "m"}, got, "only StartContainer results change the cache")
	c.Update("u", fail("a", nil))
	_, ok = c.Get("u", "a")
	assert.False(t, ok, "a successful start clears the reason")
	for i := range 1001 {
		c.Update("u", fail(string(rune('a'+i%26))+string(rune(i)), podruntime.ErrImagePull))
	}
	_, ok = c.Get("u", "a"+string(rune(0)))
	assert.False(t, ok, "past 1000 entries the oldest goes")
	c.RemovePod("u")
	_, ok = c.Get("u", "b"+string(rune(1)))
	assert.False(t, ok, "a pod's reasons go with it")
}
