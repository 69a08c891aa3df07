package podruntime_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/podruntime"
)

func TestSyncPodStartsInitContainersInOrderThenSidecarsThenContainers(t *testing.T) {
	h := newHarness(t)
	pod := testPod(func(p *v1.Pod) {
		p.Spec.InitContainers = []v1.Container{container("setup"), sidecar("proxy"), container("migrate")}
		p.Spec.Containers = []v1.Container{container("app"), container("worker")}
	})
	seen := 0
	steps := []struct {
		name  string
		exit  string // the container that exits 0 before the pass
		calls []string
	}{
		{"a new pod gets its sandbox and its first init container", "",
			[]string{"RunPodSandbox web/0", "CreateContainer setup/0", "StartContainer setup/0"}},
		{"an init container that exited 0 lets the next, a sidecar, start", "setup",
			[]string{"CreateContainer proxy/0", "StartContainer proxy/0"}},
		{"a running sidecar lets the next init container start", "",
			[]string{"CreateContainer migrate/0", "StartContainer migrate/0"}},
		{"the last init container done, the regular containers start in spec order", "migrate",
			[]string{"CreateContainer app/0", "StartContainer app/0", "CreateContainer worker/0", "StartContainer worker/0"}},
		{"with everything running a pass does nothing", "", []string{}},
	}
	for _, step := range steps {
		if step.exit != "" {
			require.NotEmpty(t, h.rt.ExitNamed(step.exit, 0, "Completed"), step.name)
		}
		res := h.sync(t, pod)
		require.NoError(t, res.Error(), step.name)
		assert.Equal(t, step.calls, h.takeCalls(&seen), step.name)
	}
	s := h.apiStatus(t, pod, nil)
	assert.Equal(t, v1.PodRunning, s.Phase)
	assert.Equal(t, []string{"setup: Container started", "proxy: Container started", "migrate: Container started", "app: Container started", "worker: Container started"},
		h.eventsOf(podruntime.EventStarted), "events name the container, not its ID")
}

func TestSyncPodRestartsAnExitedContainerByRestartPolicy(t *testing.T) {
	for _, tc := range []struct {
		name     string
		policy   v1.RestartPolicy
		exitCode int32
		restart  bool
	}{
		{"Always restarts a container that succeeded", v1.RestartPolicyAlways, 0, true},
		{"Always restarts a container that failed", v1.RestartPolicyAlways, 1, true},
		{"OnFailure restarts a container that failed", v1.RestartPolicyOnFailure, 2, true},
		{"OnFailure leaves a container that succeeded", v1.RestartPolicyOnFailure, 0, false},
		{"Never leaves a container that failed", v1.RestartPolicyNever, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			pod := testPod(func(p *v1.Pod) { p.Spec.RestartPolicy = tc.policy })
			require.NoError(t, h.sync(t, pod).Error())
			require.NotEmpty(t, h.rt.ExitNamed("main", tc.exitCode, "Error"))
			seen := len(h.rt.Calls())
			require.NoError(t, h.sync(t, pod).Error())
			calls := h.takeCalls(&seen)
			if tc.restart {
				assert.Equal(t, []string{"CreateContainer main/1", "StartContainer main/1"}, calls, "the first restart is at once, as attempt 1")
				return
			}
			assert.Equal(t, []string{"StopPodSandbox web/0"}, calls, "nothing is left to run: the pod is killed")
		})
	}
}

func TestSyncPodWaitsOutTheCrashLoopBackOff(t *testing.T) {
	h := newHarness(t)
	pod := testPod(nil)
	require.NoError(t, h.sync(t, pod).Error())
	require.NotEmpty(t, h.rt.ExitNamed("main", 1, "Error"))
	require.NoError(t, h.sync(t, pod).Error(), "the first restart is at once")
	exited := h.clk.Now()
	require.NotEmpty(t, h.rt.ExitNamed("main", 1, "Error"))
	seen := len(h.rt.Calls())

	res := h.sync(t, pod)
	require.Len(t, res.SyncResults, 1)
	r := res.SyncResults[0]
	assert.Equal(t, podruntime.StartContainer, r.Action)
	assert.ErrorIs(t, r.Error, podruntime.ErrCrashLoopBackOff)
	assert.Equal(t, "back-off 10s restarting failed container=main pod=web_default(0b6e3d7a-0000-4000-8000-000000000001)", r.Message)
	until, ok := res.MinBackoffExpiration()
	require.True(t, ok)
	assert.WithinDuration(t, exited.Add(10*time.Second), until, time.Millisecond, "the wait ends 10s after the exit")
	assert.Empty(t, h.takeCalls(&seen), "no call while backing off")

	s := h.apiStatus(t, pod, nil)
	require.Len(t, s.ContainerStatuses, 1)
	cs := s.ContainerStatuses[0]
	require.NotNil(t, cs.State.Waiting)
	assert.Equal(t, "CrashLoopBackOff", cs.State.Waiting.Reason)
	assert.Equal(t, r.Message, cs.State.Waiting.Message)
	require.NotNil(t, cs.LastTerminationState.Terminated)
	assert.Equal(t, int32(1), cs.LastTerminationState.Terminated.ExitCode)
	assert.Equal(t, int32(1), cs.RestartCount)
	assert.Equal(t, v1.PodRunning, s.Phase, "a container that will be restarted keeps the pod Running")

	h.clk.Step(10*time.Second + time.Millisecond)
	require.NoError(t, h.sync(t, pod).Error())
	assert.Equal(t, []string{"CreateContainer main/2", "StartContainer main/2"}, h.takeCalls(&seen), "started again once the back-off passed")
	assert.Equal(t, []string{"main: Back-off restarting failed container main in pod web_default(0b6e3d7a-0000-4000-8000-000000000001)"},
		h.eventsOf(podruntime.EventBackOff))
}

func TestSyncPodPullsImagesByPullPolicy(t *testing.T) {
	for _, tc := range []struct {
		name       string
		image      string
		policy     v1.PullPolicy
		calls      []string
		reason     error
		message    string
		pulledNote string
	}{
		{"IfNotPresent uses a present image", presentImage, v1.PullIfNotPresent,
			[]string{"RunPodSandbox web/0", "CreateContainer main/0", "StartContainer main/0"}, nil, "",
			`Container image "registry.example/app:1" already present on machine and can be accessed by the pod`},
		{"Always pulls a present image", presentImage, v1.PullAlways,
			[]string{"RunPodSandbox web/0", "PullImage registry.example/app:1", "CreateContainer main/0", "StartContainer main/0"}, nil, "", ""},
		{"IfNotPresent pulls a missing image", pulledImage, v1.PullIfNotPresent,
			[]string{"RunPodSandbox web/0", "PullImage registry.example/pulled:1", "CreateContainer main/0", "StartContainer main/0"}, nil, "", ""},
		{"Never refuses a missing image with kubelet's message", pulledImage, v1.PullNever,
			[]string{"RunPodSandbox web/0"}, podruntime.ErrImageNeverPull,
			`Container image "registry.example/pulled:1" is not present with pull policy of Never`, ""},
		{"a pull the registry fails is ErrImagePull", "registry.example/missing:1", v1.PullIfNotPresent,
			[]string{"RunPodSandbox web/0", "PullImage registry.example/missing:1"}, podruntime.ErrImagePull,
			`rpc error: code = NotFound desc = failed to pull and unpack image "registry.example/missing:1": registry.example/missing:1: not found`, ""},
		{"an image name that does not parse is InvalidImageName", "Registry.Example/UPPER:1", v1.PullIfNotPresent,
			[]string{"RunPodSandbox web/0"}, podruntime.ErrInvalidImageName,
			`Failed to apply default image tag "Registry.Example/UPPER:1": couldn't parse image name "Registry.Example/UPPER:1": invalid reference format: repository name (UPPER) must be lowercase`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			pod := testPod(func(p *v1.Pod) {
				p.Spec.Containers[0].Image, p.Spec.Containers[0].ImagePullPolicy = tc.image, tc.policy
			})
			res := h.sync(t, pod)
			assert.Equal(t, tc.calls, h.rt.Calls())
			start := res.SyncResults[len(res.SyncResults)-1]
			if tc.reason == nil {
				require.NoError(t, res.Error())
				if tc.pulledNote != "" {
					assert.Equal(t, []string{"main: " + tc.pulledNote}, h.eventsOf(podruntime.EventPulled))
				}
				return
			}
			assert.ErrorIs(t, start.Error, tc.reason)
			assert.Equal(t, tc.message, start.Message)
			s := h.apiStatus(t, pod, nil)
			require.NotNil(t, s.ContainerStatuses[0].State.Waiting)
			assert.Equal(t, tc.reason.Error(), s.ContainerStatuses[0].State.Waiting.Reason, "the status waits with the reason")
			assert.Equal(t, tc.message, s.ContainerStatuses[0].State.Waiting.Message)
		})
	}
}

func TestSyncPodBacksOffAFailedPull(t *testing.T) {
	h := newHarness(t)
	pod := testPod(func(p *v1.Pod) { p.Spec.Containers[0].Image = "registry.example/missing:1" })
	first := h.sync(t, pod).SyncResults
	require.ErrorIs(t, first[len(first)-1].Error, podruntime.ErrImagePull)
	seen := len(h.rt.Calls())
	res := h.sync(t, pod)
	r := res.SyncResults[0]
	assert.ErrorIs(t, r.Error, podruntime.ErrImagePullBackOff)
	assert.Equal(t, `Back-off pulling image "registry.example/missing:1": ErrImagePull: rpc error: code = NotFound desc = failed to pull and unpack image "registry.example/missing:1": registry.example/missing:1: not found`, r.Message)
	assert.Empty(t, h.takeCalls(&seen), "no pull within the back-off")
	h.clk.Step(10 * time.Second)
	h.sync(t, pod)
	assert.Equal(t, []string{"PullImage registry.example/missing:1"}, h.takeCalls(&seen), "pulled again 10s later")
	h.clk.Step(10 * time.Second)
	h.sync(t, pod)
	assert.Empty(t, h.takeCalls(&seen), "the back-off doubled to 20s")
}

func TestSyncPodReportsAConfigPodconfigRefusesAsCreateContainerConfigError(t *testing.T) {
	h := newHarness(t)
	pod := testPod(func(p *v1.Pod) {
		yes := true
		p.Spec.Containers[0].SecurityContext = &v1.SecurityContext{RunAsNonRoot: &yes}
	})
	res := h.sync(t, pod)
	r := res.SyncResults[len(res.SyncResults)-1]
	assert.ErrorIs(t, r.Error, podruntime.ErrCreateContainerConfig)
	assert.Equal(t, "container has runAsNonRoot and image will run as root (pod: \"web_default(0b6e3d7a-0000-4000-8000-000000000001)\", container: main)", r.Message)
	assert.ErrorIs(t, r.Cause, configgen.ErrInvalidPod, "the Generator's error, with its category, is kept")
	assert.Equal(t, []string{"RunPodSandbox web/0"}, h.rt.Calls(), "the runtime never sees the container")
	assert.Equal(t, []string{"main: Error: " + r.Message}, h.eventsOf(podruntime.EventFailed))
	s := h.apiStatus(t, pod, nil)
	assert.Equal(t, "CreateContainerConfigError", s.ContainerStatuses[0].State.Waiting.Reason)
	assert.Equal(t, v1.PodPending, s.Phase)
}

func TestSyncPodReportsASandboxTheRuntimeRefuses(t *testing.T) {
	h := newHarness(t)
	pod := testPod(nil)
	h.rt.Fail("RunPodSandbox", status.Error(codes.Unknown, "failed to start sandbox: sysctl not allowed"))
	res := h.sync(t, pod)
	require.Len(t, res.SyncResults, 2)
	r := res.SyncResults[1]
	assert.Equal(t, podruntime.CreatePodSandbox, r.Action)
	assert.ErrorIs(t, r.Error, podruntime.ErrCreatePodSandbox)
	assert.Equal(t, `Failed to create sandbox for pod "web_default(0b6e3d7a-0000-4000-8000-000000000001)": rpc error: code = Unknown desc = failed to start sandbox: sysctl not allowed`, r.Message)
	assert.Len(t, h.eventsOf(podruntime.EventFailedCreatePodSandBox), 1)
	s := h.apiStatus(t, pod, nil)
	assert.Equal(t, v1.PodPending, s.Phase)
	ready := s.Conditions[0]
	assert.Equal(t, v1.PodReadyToStartContainers, ready.Type)
	assert.Equal(t, v1.ConditionFalse, ready.Status)
	assert.Equal(t, "no pod sandbox exists", ready.Message)
	assert.Equal(t, "ContainerCreating", s.ContainerStatuses[0].State.Waiting.Reason)
	require.NoError(t, h.sync(t, pod).Error(), "the next pass tries again")
}

func TestSyncPodKillsThePodOnceNothingIsLeftToRun(t *testing.T) {
	h := newHarness(t)
	pod := testPod(func(p *v1.Pod) {
		p.Spec.RestartPolicy = v1.RestartPolicyNever
		p.Spec.InitContainers = []v1.Container{sidecar("proxy")}
	})
	require.NoError(t, h.sync(t, pod).Error())
	require.NoError(t, h.sync(t, pod).Error())
	require.NotEmpty(t, h.rt.ExitNamed("main", 0, "Completed"))
	running := h.apiStatus(t, pod, nil)
	assert.Equal(t, v1.PodRunning, running.Phase, "the sidecar still runs")
	seen := len(h.rt.Calls())
	require.NoError(t, h.sync(t, pod).Error())
	assert.Equal(t, []string{"StopContainer proxy/0 30s", "StopPodSandbox web/0"}, h.takeCalls(&seen),
		"a sidecar does not keep a pod whose regular containers are done")
	done := h.apiStatus(t, pod, &running)
	assert.Equal(t, v1.PodSucceeded, done.Phase)
	require.NoError(t, h.sync(t, pod).Error())
	assert.Equal(t, []string{"StopPodSandbox web/0"}, h.takeCalls(&seen), "a Never pod that ran gets no new sandbox")
}

func TestSyncPodRecreatesADeadSandboxAndStartsInitialisationOver(t *testing.T) {
	h := newHarness(t)
	pod := testPod(func(p *v1.Pod) { p.Spec.InitContainers = []v1.Container{container("setup")} })
	h.sync(t, pod)
	require.NotEmpty(t, h.rt.ExitNamed("setup", 0, "Completed"))
	h.sync(t, pod)
	st := h.status(t, pod)
	rc, _, stop := h.rt.Clients()
	defer stop()
	_, err := rc.StopPodSandbox(context.Background(), runtimeStopRequest(st.SandboxStatuses[0].GetId()))
	require.NoError(t, err)
	seen := len(h.rt.Calls())
	require.NoError(t, h.sync(t, pod).Error())
	assert.Equal(t, []string{"StopPodSandbox web/0", "RemoveContainer setup/0", "RunPodSandbox web/1", "CreateContainer setup/1", "StartContainer setup/1"},
		h.takeCalls(&seen), "the init containers are purged and run again in the new sandbox, attempt 1")
	assert.Equal(t, []string{": Pod sandbox changed, it will be killed and re-created."}, h.eventsOf(podruntime.EventSandboxChanged))
	require.NotEmpty(t, h.rt.ExitNamed("setup", 0, "Completed"))
	require.NoError(t, h.sync(t, pod).Error())
	assert.Equal(t, []string{"CreateContainer main/1", "StartContainer main/1"}, h.takeCalls(&seen),
		"the restart count goes on from the container's attempt in the dead sandbox")
}

func TestSyncPodRestartsARunningContainerWhoseImageChanged(t *testing.T) {
	h := newHarness(t)
	pod := testPod(nil)
	h.sync(t, pod)
	pod.Spec.Containers[0].Image = pulledImage
	seen := len(h.rt.Calls())
	require.NoError(t, h.sync(t, pod).Error())
	assert.Equal(t, []string{"StopContainer main/0 30s", "PullImage registry.example/pulled:1", "CreateContainer main/1", "StartContainer main/1"}, h.takeCalls(&seen))
	assert.Equal(t, []string{"main: Container main definition changed, will be restarted"}, h.eventsOf(podruntime.EventKilling))
}

func TestSyncPodPrunesAllButTheNewestAttemptOfEachInitContainer(t *testing.T) {
	h := newHarness(t)
	pod := testPod(func(p *v1.Pod) {
		p.Spec.RestartPolicy = v1.RestartPolicyOnFailure
		p.Spec.InitContainers = []v1.Container{container("setup")}
	})
	h.sync(t, pod)
	for range 3 {
		require.NotEmpty(t, h.rt.ExitNamed("setup", 1, "Error"))
		h.clk.Step(10 * time.Minute) // past any back-off
		require.NoError(t, h.sync(t, pod).Error())
	}
	assert.Contains(t, h.rt.Calls(), "RemoveContainer setup/0")
	assert.Contains(t, h.rt.Calls(), "RemoveContainer setup/1")
	assert.NotContains(t, h.rt.Calls(), "RemoveContainer setup/2", "the newest exited attempt stays, for its status")
}

func TestSyncPodStopsAnInitContainerThatFailedUnderNever(t *testing.T) {
	h := newHarness(t)
	pod := testPod(func(p *v1.Pod) {
		p.Spec.RestartPolicy = v1.RestartPolicyNever
		p.Spec.InitContainers = []v1.Container{container("setup")}
	})
	h.sync(t, pod)
	require.NotEmpty(t, h.rt.ExitNamed("setup", 3, "Error"))
	s := h.apiStatus(t, pod, nil)
	assert.Equal(t, v1.PodFailed, s.Phase)
	seen := len(h.rt.Calls())
	require.NoError(t, h.sync(t, pod).Error())
	assert.Equal(t, []string{"StopPodSandbox web/0"}, h.takeCalls(&seen), "the pod is killed; the regular containers never start")
}

func TestKillPodStopsEachContainerWithinItsGracePeriodAndSidecarsLast(t *testing.T) {
	int64p := func(v int64) *int64 { return &v }
	for _, tc := range []struct {
		name     string
		mutate   func(*v1.Pod)
		override *int64
		calls    []string
	}{
		{"terminationGracePeriodSeconds is each container's timeout; sidecars stop after the regular containers", nil, nil,
			[]string{"StopContainer main/0 30s", "StopContainer proxy/0 30s", "StopPodSandbox web/0"}},
		{"the deletion grace period takes precedence", func(p *v1.Pod) { p.DeletionGracePeriodSeconds = int64p(5) }, nil,
			[]string{"StopContainer main/0 5s", "StopContainer proxy/0 5s", "StopPodSandbox web/0"}},
		{"an override replaces it, but 2s always remain", nil, int64p(1),
			[]string{"StopContainer main/0 2s", "StopContainer proxy/0 2s", "StopPodSandbox web/0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			pod := testPod(func(p *v1.Pod) { p.Spec.InitContainers = []v1.Container{sidecar("proxy")} })
			h.sync(t, pod)
			h.sync(t, pod)
			if tc.mutate != nil {
				tc.mutate(pod)
			}
			seen := len(h.rt.Calls())
			require.NoError(t, h.m.KillPod(context.Background(), pod, h.status(t, pod), tc.override))
			assert.Equal(t, tc.calls, h.takeCalls(&seen))
			s := h.m.GenerateAPIPodStatus(pod, h.status(t, pod), nil, true)
			assert.Equal(t, v1.PodFailed, s.Phase, "stopped for good, a container killed with 137 failed the pod")
		})
	}
}

func TestKillPodReportsAContainerTheRuntimeCannotStop(t *testing.T) {
	h := newHarness(t)
	pod := testPod(nil)
	h.sync(t, pod)
	h.rt.Fail("StopContainer", errors.New("shim disconnected"))
	err := h.m.KillPod(context.Background(), pod, h.status(t, pod), nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, podruntime.ErrKillContainer)
	assert.Contains(t, err.Error(), `failed to "KillContainer" for "main" with KillContainerError: "rpc error: code = Unknown desc = shim disconnected"`)
	require.NoError(t, h.m.KillPod(context.Background(), pod, h.status(t, pod), nil), "the next attempt stops it")
}

func TestGarbageCollectPodKeepsTheNewestExitedAttemptUntilThePodIsRemoved(t *testing.T) {
	h := newHarness(t)
	pod := testPod(nil)
	h.sync(t, pod)
	for range 3 {
		require.NotEmpty(t, h.rt.ExitNamed("main", 1, "Error"))
		h.clk.Step(10 * time.Minute)
		require.NoError(t, h.sync(t, pod).Error())
	}
	require.NotEmpty(t, h.rt.ExitNamed("main", 1, "Error"))
	ctx := context.Background()
	require.NoError(t, h.m.GarbageCollectPod(ctx, pod.UID, false))
	st := h.status(t, pod)
	require.Len(t, st.ContainerStatuses, 1, "one dead container per container is kept")
	assert.Equal(t, 3, st.ContainerStatuses[0].RestartCount, "the newest")
	assert.Len(t, st.SandboxStatuses, 1, "the newest sandbox is kept")

	require.NoError(t, h.m.KillPod(ctx, pod, st, nil))
	require.NoError(t, h.m.GarbageCollectPod(ctx, pod.UID, true))
	sandboxes, containers := h.rt.Counts()
	assert.Zero(t, sandboxes, "a removed pod leaves no sandbox")
	assert.Zero(t, containers, "a removed pod leaves no container")
}

func TestGarbageCollectPodLeavesRunningContainersAndReadySandboxes(t *testing.T) {
	h := newHarness(t)
	pod := testPod(nil)
	h.sync(t, pod)
	require.NoError(t, h.m.GarbageCollectPod(context.Background(), pod.UID, true))
	sandboxes, containers := h.rt.Counts()
	assert.Equal(t, 1, sandboxes)
	assert.Equal(t, 1, containers)
}

func TestGetPodStatusReadsThePodsSandboxesAndContainersNewestFirst(t *testing.T) {
	h := newHarness(t)
	pod := testPod(func(p *v1.Pod) { p.Spec.HostNetwork = false })
	h.sync(t, pod)
	require.NotEmpty(t, h.rt.ExitNamed("main", 1, "Error"))
	h.sync(t, pod)
	st := h.status(t, pod)
	assert.Equal(t, []string{"10.88.0.2"}, st.IPs)
	require.Len(t, st.ContainerStatuses, 2)
	assert.Equal(t, podruntime.ContainerStateRunning, st.ContainerStatuses[0].State)
	assert.Equal(t, 1, st.ContainerStatuses[0].RestartCount)
	assert.Equal(t, podruntime.ContainerStateExited, st.ContainerStatuses[1].State)
	assert.Len(t, st.ActiveContainerStatuses, 2, "both ran in the ready sandbox")
	assert.Equal(t, "podruntimetest", st.ContainerStatuses[0].ID.Type)

	other, err := h.m.GetPodStatus(context.Background(), "another-uid", "other", "default")
	require.NoError(t, err)
	assert.Empty(t, other.SandboxStatuses, "only the pod's own UID counts")
	assert.Empty(t, other.ContainerStatuses)
}

func TestAZeroManagerRefusesEveryCall(t *testing.T) {
	var m podruntime.Manager
	ctx := context.Background()
	pod := testPod(nil)
	_, err := m.GetPodStatus(ctx, pod.UID, pod.Name, pod.Namespace)
	assert.ErrorIs(t, err, podruntime.ErrNotBuilt)
	assert.ErrorIs(t, m.SyncPod(ctx, pod, nil, nil).Error(), podruntime.ErrNotBuilt)
	assert.ErrorIs(t, m.KillPod(ctx, pod, &podruntime.PodStatus{}, nil), podruntime.ErrNotBuilt)
	assert.ErrorIs(t, m.GarbageCollectPod(ctx, pod.UID, true), podruntime.ErrNotBuilt)
	_, err = podruntime.New(ctx, podruntime.Options{})
	assert.EqualError(t, err, "invalid options: podruntime: Options.Runtime, Options.Images and Options.Generator are required")
}
