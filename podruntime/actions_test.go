package podruntime_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/podruntime"
)

// world is what the runtime holds of a pod, built attempt by attempt for the pure tests.
type world struct {
	pod *v1.Pod
	st  *podruntime.PodStatus
	t   time.Time
}

// newWorld is the pod with a ready sandbox of attempt 0 and no container.
func newWorld(pod *v1.Pod) *world {
	w := &world{pod: pod, t: time.Unix(1_700_000_000, 0)}
	w.st = &podruntime.PodStatus{ID: pod.UID, Name: pod.Name, Namespace: pod.Namespace}
	w.sandbox(0, true)
	return w
}

// sandbox adds a newer sandbox.
func (w *world) sandbox(attempt uint32, ready bool) *world {
	state := runtimeapi.PodSandboxState_SANDBOX_NOTREADY
	if ready {
		state = runtimeapi.PodSandboxState_SANDBOX_READY
	}
	mode := runtimeapi.NamespaceMode_POD
	if w.pod.Spec.HostNetwork {
		mode = runtimeapi.NamespaceMode_NODE
	}
	s := &runtimeapi.PodSandboxStatus{Id: "sb-" + string(rune('a'+attempt)), State: state,
		Metadata: &runtimeapi.PodSandboxMetadata{Name: w.pod.Name, Namespace: w.pod.Namespace, Uid: string(w.pod.UID), Attempt: attempt},
		Linux:    &runtimeapi.LinuxPodSandboxStatus{Namespaces: &runtimeapi.Namespace{Options: &runtimeapi.NamespaceOption{Network: mode}}},
		Network:  &runtimeapi.PodSandboxNetworkStatus{Ip: "10.88.0.2"}}
	if w.pod.Spec.HostNetwork {
		s.Network.Ip = ""
	}
	w.st.SandboxStatuses = append([]*runtimeapi.PodSandboxStatus{s}, w.st.SandboxStatuses...)
	w.st.ActiveContainerStatuses = nil
	return w
}

// attempt adds a newer attempt of the named container, of its current spec, in the newest
// sandbox.
func (w *world) attempt(name string, state podruntime.ContainerState, exitCode int) *world {
	w.t = w.t.Add(time.Second)
	prev := w.st.FindContainerStatusByName(name)
	restarts := 0
	if prev != nil {
		restarts = prev.RestartCount + 1
	}
	spec := specOf(w.pod, name)
	cs := &podruntime.ContainerStatus{ID: podruntime.ContainerID{Type: "containerd", ID: name + "-" + string(rune('0'+restarts))},
		Name: name, State: state, CreatedAt: w.t, ExitCode: exitCode, Image: spec.Image, ImageRef: "sha256:" + name,
		Hash: configgen.HashContainer(spec), RestartCount: restarts, PodSandboxID: w.st.SandboxStatuses[0].Id}
	if state != podruntime.ContainerStateCreated {
		cs.StartedAt = w.t
	}
	if state == podruntime.ContainerStateExited {
		cs.FinishedAt = w.t.Add(time.Millisecond)
		cs.Reason = "Completed"
		if exitCode != 0 {
			cs.Reason = "Error"
		}
	}
	w.st.ContainerStatuses = append([]*podruntime.ContainerStatus{cs}, w.st.ContainerStatuses...)
	if w.st.SandboxStatuses[0].State == runtimeapi.PodSandboxState_SANDBOX_READY {
		w.st.ActiveContainerStatuses = append([]*podruntime.ContainerStatus{cs}, w.st.ActiveContainerStatuses...)
	}
	return w
}

func specOf(pod *v1.Pod, name string) *v1.Container {
	for _, list := range [][]v1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range list {
			if list[i].Name == name {
				return &list[i]
			}
		}
	}
	for i := range pod.Spec.EphemeralContainers {
		if pod.Spec.EphemeralContainers[i].Name == name {
			return (*v1.Container)(&pod.Spec.EphemeralContainers[i].EphemeralContainerCommon)
		}
	}
	panic("no container " + name)
}

const (
	created = podruntime.ContainerStateCreated
	running = podruntime.ContainerStateRunning
	exited  = podruntime.ContainerStateExited
	unknown = podruntime.ContainerStateUnknown
)

// withInits gives the pod these init containers ("+name" is a sidecar).
func withInits(names ...string) func(*v1.Pod) {
	return func(p *v1.Pod) {
		for _, n := range names {
			if n[0] == '+' {
				p.Spec.InitContainers = append(p.Spec.InitContainers, sidecar(n[1:]))
				continue
			}
			p.Spec.InitContainers = append(p.Spec.InitContainers, container(n))
		}
	}
}

func policy(rp v1.RestartPolicy) func(*v1.Pod) {
	return func(p *v1.Pod) { p.Spec.RestartPolicy = rp }
}

func both(fs ...func(*v1.Pod)) func(*v1.Pod) {
	return func(p *v1.Pod) {
		for _, f := range fs {
			f(p)
		}
	}
}

// actions is what the tests compare of PodActions: the kills by container name.
type actions struct {
	KillPod, CreateSandbox bool
	Attempt                uint32
	Init, Containers, Eph  []int
	Kill                   []string
}

func summary(a podruntime.PodActions) actions {
	out := actions{KillPod: a.KillPod, CreateSandbox: a.CreateSandbox, Attempt: a.Attempt,
		Init: a.InitContainersToStart, Containers: a.ContainersToStart, Eph: a.EphemeralContainersToStart}
	if len(out.Containers) == 0 {
		out.Containers = nil
	}
	for _, k := range a.ContainersToKill {
		out.Kill = append(out.Kill, k.Name+": "+k.Message)
	}
	return out
}

func TestComputePodActionsIsKubeletsComputePodActions(t *testing.T) {
	exitRule := func(p *v1.Pod) {
		never := v1.ContainerRestartPolicyNever
		p.Spec.Containers[0].RestartPolicy = &never
		p.Spec.Containers[0].RestartPolicyRules = []v1.ContainerRestartRule{{Action: v1.ContainerRestartRuleActionRestart,
			ExitCodes: &v1.ContainerRestartRuleOnExitCodes{Operator: v1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{42}}}}
	}
	for _, tc := range []struct {
		name  string
		pod   func(*v1.Pod)
		world func(*world) *world
		want  actions
	}{
		{"a pod with no sandbox gets one and starts its regular containers", nil,
			func(w *world) *world { w.st.SandboxStatuses = nil; return w },
			actions{KillPod: true, CreateSandbox: true, Containers: []int{0}}},
		{"a pod with no sandbox and init containers starts the first init container only", withInits("a", "b"),
			func(w *world) *world { w.st.SandboxStatuses = nil; return w },
			actions{KillPod: true, CreateSandbox: true, Init: []int{0}}},
		{"a dead sandbox is replaced by one of the next attempt", nil,
			func(w *world) *world {
				w.st.SandboxStatuses[0].State = runtimeapi.PodSandboxState_SANDBOX_NOTREADY
				return w
			},
			actions{KillPod: true, CreateSandbox: true, Attempt: 1, Containers: []int{0}}},
		{"two ready sandboxes are reconciled with a new one", nil,
			func(w *world) *world { return w.sandbox(1, true) },
			actions{KillPod: true, CreateSandbox: true, Attempt: 2, Containers: []int{0}}},
		{"a sandbox whose network mode is not the pod's is replaced", func(p *v1.Pod) {},
			func(w *world) *world { w.pod.Spec.HostNetwork = false; return w.attempt("main", running, 0) },
			actions{KillPod: true, CreateSandbox: true, Attempt: 1, Containers: []int{0}}},
		{"a pod-network sandbox without an IP is replaced", func(p *v1.Pod) { p.Spec.HostNetwork = false },
			func(w *world) *world { w.st.SandboxStatuses[0].Network.Ip = ""; return w },
			actions{KillPod: true, CreateSandbox: true, Attempt: 1, Containers: []int{0}}},
		{"a Never pod that ran gets no new sandbox, only a kill", policy(v1.RestartPolicyNever),
			func(w *world) *world {
				w.attempt("main", exited, 1)
				w.st.SandboxStatuses[0].State = runtimeapi.PodSandboxState_SANDBOX_NOTREADY
				return w
			},
			actions{KillPod: true, Attempt: 1}},
		{"an OnFailure pod whose containers all succeeded gets no new sandbox", policy(v1.RestartPolicyOnFailure),
			func(w *world) *world {
				w.attempt("main", exited, 0)
				w.st.SandboxStatuses[0].State = runtimeapi.PodSandboxState_SANDBOX_NOTREADY
				return w
			},
			actions{KillPod: true, Attempt: 1}},
		{"an OnFailure pod's new sandbox starts only the containers that did not succeed",
			both(policy(v1.RestartPolicyOnFailure), func(p *v1.Pod) { p.Spec.Containers = append(p.Spec.Containers, container("side")) }),
			func(w *world) *world {
				w.attempt("main", exited, 0).attempt("side", exited, 1)
				w.st.SandboxStatuses[0].State = runtimeapi.PodSandboxState_SANDBOX_NOTREADY
				return w
			},
			actions{KillPod: true, CreateSandbox: true, Attempt: 1, Containers: []int{1}}},
		{"an init container that exited 0 lets the next one start", withInits("a", "b"),
			func(w *world) *world { return w.attempt("a", exited, 0) },
			actions{Init: []int{1}}},
		{"the last init container done, the regular containers start", withInits("a", "b"),
			func(w *world) *world { return w.attempt("a", exited, 0).attempt("b", exited, 0) },
			actions{Containers: []int{0}}},
		{"a running init container is waited for", withInits("a"),
			func(w *world) *world { return w.attempt("a", running, 0) },
			actions{}},
		{"an init container left created is started again", withInits("a"),
			func(w *world) *world { return w.attempt("a", created, 0) },
			actions{Init: []int{0}}},
		{"a failed init container under Never kills the pod", both(withInits("a"), policy(v1.RestartPolicyNever)),
			func(w *world) *world { return w.attempt("a", exited, 2) },
			actions{KillPod: true}},
		{"a failed init container under OnFailure is started again", both(withInits("a"), policy(v1.RestartPolicyOnFailure)),
			func(w *world) *world { return w.attempt("a", exited, 2) },
			actions{Init: []int{0}}},
		{"an OOM-killed init container failed even with exit code 0", both(withInits("a"), policy(v1.RestartPolicyNever)),
			func(w *world) *world {
				w.attempt("a", exited, 0)
				w.st.ContainerStatuses[0].Reason = "OOMKilled"
				return w
			},
			actions{KillPod: true}},
		{"an init container in an unknown state under Always is killed and started again", withInits("a"),
			func(w *world) *world { return w.attempt("a", unknown, 0) },
			actions{Init: []int{0}, Kill: []string{`a: Init container is in "unknown" state, try killing it before restart`}}},
		{"a running sidecar lets the next init container start", withInits("+proxy", "b"),
			func(w *world) *world { return w.attempt("proxy", running, 0) },
			actions{Init: []int{1}}},
		{"an exited sidecar is started again beside the regular containers", withInits("+proxy"),
			func(w *world) *world { return w.attempt("proxy", exited, 0).attempt("main", running, 0) },
			actions{Init: []int{0}}},
		{"a sidecar whose attempts are gone is started again once initialised", withInits("+proxy"),
			func(w *world) *world { return w.attempt("main", running, 0) },
			actions{Init: []int{0}}},
		{"a sidecar whose image changed is killed and started again", withInits("+proxy"),
			func(w *world) *world {
				w.attempt("proxy", running, 0).attempt("main", running, 0)
				w.st.FindContainerStatusByName("proxy").Hash = 1
				return w
			},
			actions{Init: []int{0}, Kill: []string{"proxy: Init container proxy definition changed"}}},
		{"sidecars do not keep a pod whose regular containers are done: it is killed", both(withInits("+proxy"), policy(v1.RestartPolicyNever)),
			func(w *world) *world { return w.attempt("proxy", running, 0).attempt("main", exited, 0) },
			actions{KillPod: true}},
		{"a regular container that exited under Always is started again", nil,
			func(w *world) *world { return w.attempt("main", exited, 0) },
			actions{Containers: []int{0}}},
		{"under OnFailure a container that exited 0 is left, and with nothing left the pod is killed", policy(v1.RestartPolicyOnFailure),
			func(w *world) *world { return w.attempt("main", exited, 0) },
			actions{KillPod: true}},
		{"a restart rule matching the exit code restarts a container whose policy is Never", exitRule,
			func(w *world) *world { return w.attempt("main", exited, 42) },
			actions{Containers: []int{0}}},
		{"a restart rule that does not match leaves the container's policy to decide", exitRule,
			func(w *world) *world { return w.attempt("main", exited, 1) },
			actions{KillPod: true}},
		{"a container left created is started again", nil,
			func(w *world) *world { return w.attempt("main", created, 0) },
			actions{Containers: []int{0}}},
		{"a container in an unknown state is killed before it is started again", nil,
			func(w *world) *world { return w.attempt("main", unknown, 0) },
			actions{Containers: []int{0}, Kill: []string{`main: Container is in "unknown" state, try killing it before restart`}}},
		{"a running container whose image changed is killed and started again whatever the policy", policy(v1.RestartPolicyNever),
			func(w *world) *world {
				w.attempt("main", running, 0)
				w.pod.Spec.Containers[0].Image = "registry.example/app:2"
				return w
			},
			actions{Containers: []int{0}, Kill: []string{"main: Container main definition changed, will be restarted"}}},
		{"a running container whose resources changed is kept: only name and image count", nil,
			func(w *world) *world {
				w.attempt("main", running, 0)
				w.pod.Spec.Containers[0].Args = []string{"changed"}
				return w
			},
			actions{}},
		{"a pod being deleted restarts nothing and is killed", func(p *v1.Pod) { now := metav1.Now(); p.DeletionTimestamp = &now },
			func(w *world) *world { return w.attempt("main", exited, 0) },
			actions{KillPod: true}},
		{"an ephemeral container never started is started", func(p *v1.Pod) {
			p.Spec.EphemeralContainers = []v1.EphemeralContainer{{EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: "debug", Image: presentImage}}}
		},
			func(w *world) *world { return w.attempt("main", running, 0) },
			actions{Eph: []int{0}}},
		{"an ephemeral container that ran is never started again", func(p *v1.Pod) {
			p.Spec.EphemeralContainers = []v1.EphemeralContainer{{EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: "debug", Image: presentImage}}}
		},
			func(w *world) *world { return w.attempt("main", running, 0).attempt("debug", exited, 0) },
			actions{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.world(newWorld(testPod(tc.pod)))
			assert.Equal(t, tc.want, summary(podruntime.ComputePodActions(w.pod, w.st)))
		})
	}
}

func TestComputePodActionsOfNothing(t *testing.T) {
	assert.Equal(t, podruntime.PodActions{}, podruntime.ComputePodActions(nil, nil), "a nil pod needs nothing")
	got := podruntime.ComputePodActions(testPod(nil), nil)
	assert.True(t, got.CreateSandbox, "a pod the runtime has nothing of gets a sandbox")
}

func TestPodSandboxChangedGivesKubeletsReasons(t *testing.T) {
	for _, tc := range []struct {
		name    string
		world   func(*world) *world
		changed bool
		attempt uint32
		id      string
		reason  string
	}{
		{"no sandbox", func(w *world) *world { w.st.SandboxStatuses = nil; return w }, true, 0, "", "no pod sandbox exists"},
		{"a ready sandbox is kept", func(w *world) *world { return w }, false, 0, "sb-a", ""},
		{"the newest not ready", func(w *world) *world { return w.sandbox(1, false) }, true, 2, "sb-b", "pod sandbox is not ready"},
		{"two ready", func(w *world) *world { return w.sandbox(1, true) }, true, 2, "sb-b", "multiple pod sandboxes are ready and need to be reconciled"},
		{"the network mode changed", func(w *world) *world { w.pod.Spec.HostNetwork = false; return w }, true, 1, "",
			"network namespace mode changed and sandbox needs to be recreated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.world(newWorld(testPod(nil)))
			changed, attempt, id, reason := podruntime.PodSandboxChanged(w.pod, w.st)
			assert.Equal(t, []any{tc.changed, tc.attempt, tc.id, tc.reason}, []any{changed, attempt, id, reason})
		})
	}
}

func TestContainerShouldRestartFollowsRulesThenContainerThenPodPolicy(t *testing.T) {
	onFailure, never, always := v1.ContainerRestartPolicyOnFailure, v1.ContainerRestartPolicyNever, v1.ContainerRestartPolicyAlways
	rule := func(op v1.ContainerRestartRuleOnExitCodesOperator, action v1.ContainerRestartRuleAction, codes ...int32) v1.ContainerRestartRule {
		return v1.ContainerRestartRule{Action: action, ExitCodes: &v1.ContainerRestartRuleOnExitCodes{Operator: op, Values: codes}}
	}
	for _, tc := range []struct {
		name   string
		c      v1.Container
		pod    v1.RestartPolicy
		exit   int32
		expect bool
	}{
		{"the pod's Always restarts a success", v1.Container{}, v1.RestartPolicyAlways, 0, true},
		{"the pod's OnFailure restarts a failure", v1.Container{}, v1.RestartPolicyOnFailure, 1, true},
		{"the pod's OnFailure leaves a success", v1.Container{}, v1.RestartPolicyOnFailure, 0, false},
		{"the pod's Never leaves a failure", v1.Container{}, v1.RestartPolicyNever, 1, false},
		{"an unset pod policy is Always", v1.Container{}, "", 0, true},
		{"the container's policy wins over the pod's", v1.Container{RestartPolicy: &onFailure}, v1.RestartPolicyNever, 1, true},
		{"the container's Never wins over the pod's Always", v1.Container{RestartPolicy: &never}, v1.RestartPolicyAlways, 0, false},
		{"a matching In rule restarts", v1.Container{RestartPolicy: &never,
			RestartPolicyRules: []v1.ContainerRestartRule{rule(v1.ContainerRestartRuleOnExitCodesOpIn, v1.ContainerRestartRuleActionRestart, 3, 4)}}, v1.RestartPolicyNever, 4, true},
		{"a matching NotIn rule restarts", v1.Container{RestartPolicy: &never,
			RestartPolicyRules: []v1.ContainerRestartRule{rule(v1.ContainerRestartRuleOnExitCodesOpNotIn, v1.ContainerRestartRuleActionRestart, 0)}}, v1.RestartPolicyNever, 9, true},
		{"a RestartAllContainers rule restarts the container", v1.Container{RestartPolicy: &never,
			RestartPolicyRules: []v1.ContainerRestartRule{rule(v1.ContainerRestartRuleOnExitCodesOpIn, v1.ContainerRestartRuleActionRestartAllContainers, 5)}}, v1.RestartPolicyNever, 5, true},
		{"rules are read only with a container policy", v1.Container{
			RestartPolicyRules: []v1.ContainerRestartRule{rule(v1.ContainerRestartRuleOnExitCodesOpIn, v1.ContainerRestartRuleActionRestart, 5)}}, v1.RestartPolicyNever, 5, false},
		{"a sidecar's Always restarts a success", v1.Container{RestartPolicy: &always}, v1.RestartPolicyNever, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.expect, podruntime.ContainerShouldRestart(&tc.c, &v1.PodSpec{RestartPolicy: tc.pod}, tc.exit))
		})
	}
}
