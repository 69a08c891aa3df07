package podruntimetest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/podruntime/podruntimetest"
)

func sandboxConfig(attempt uint32) *runtimeapi.PodSandboxConfig {
	return &runtimeapi.PodSandboxConfig{Metadata: &runtimeapi.PodSandboxMetadata{Name: "web", Namespace: "default", Uid: "u1", Attempt: attempt},
		Labels: map[string]string{"io.kubernetes.pod.uid": "u1"}, LogDirectory: "/var/log/pods/default_web_u1"}
}

func containerConfig(attempt uint32) *runtimeapi.ContainerConfig {
	return &runtimeapi.ContainerConfig{Metadata: &runtimeapi.ContainerMetadata{Name: "main", Attempt: attempt},
		Image: &runtimeapi.ImageSpec{Image: "sha256:app", UserSpecifiedImage: "app:1"}, LogPath: "main/0.log",
		Labels: map[string]string{"io.kubernetes.pod.uid": "u1", "io.kubernetes.container.name": "main"}}
}

func TestRuntimeMovesContainersThroughTheCRIStatesAsContainerdDoes(t *testing.T) {
	r := &podruntimetest.Runtime{}
	rt, _, closeConn := r.Clients()
	defer closeConn()
	ctx := context.Background()
	sb, err := rt.RunPodSandbox(ctx, &runtimeapi.RunPodSandboxRequest{Config: sandboxConfig(0)})
	require.NoError(t, err)
	sbs, err := rt.PodSandboxStatus(ctx, &runtimeapi.PodSandboxStatusRequest{PodSandboxId: sb.PodSandboxId})
	require.NoError(t, err)
	assert.Equal(t, runtimeapi.PodSandboxState_SANDBOX_READY, sbs.Status.State)
	assert.Equal(t, podruntimetest.DefaultPodIP, sbs.Status.Network.Ip, "a sandbox with its own network has the pod IP")

	c, err := rt.CreateContainer(ctx, &runtimeapi.CreateContainerRequest{PodSandboxId: sb.PodSandboxId, Config: containerConfig(0), SandboxConfig: sandboxConfig(0)})
	require.NoError(t, err)
	_, err = rt.CreateContainer(ctx, &runtimeapi.CreateContainerRequest{PodSandboxId: sb.PodSandboxId, Config: containerConfig(0)})
	assert.Equal(t, codes.AlreadyExists, status.Code(err), "a name and attempt are taken once per sandbox")
	_, err = rt.StartContainer(ctx, &runtimeapi.StartContainerRequest{ContainerId: c.ContainerId})
	require.NoError(t, err)
	_, err = rt.RemoveContainer(ctx, &runtimeapi.RemoveContainerRequest{ContainerId: c.ContainerId})
	assert.Equal(t, codes.FailedPrecondition, status.Code(err), "a running container is not removed")

	require.True(t, r.Exit(c.ContainerId, 3, "Error"))
	cs, err := rt.ContainerStatus(ctx, &runtimeapi.ContainerStatusRequest{ContainerId: c.ContainerId})
	require.NoError(t, err)
	assert.Equal(t, runtimeapi.ContainerState_CONTAINER_EXITED, cs.Status.State)
	assert.Equal(t, int32(3), cs.Status.ExitCode)
	assert.Equal(t, "/var/log/pods/default_web_u1/main/0.log", cs.Status.LogPath)
	assert.Equal(t, "app:1", cs.Status.Image.Image)
	assert.Equal(t, "sha256:app", cs.Status.ImageRef)
	assert.False(t, r.Exit(c.ContainerId, 0, ""), "an exited container does not exit again")

	list, err := rt.ListContainers(ctx, &runtimeapi.ListContainersRequest{Filter: &runtimeapi.ContainerFilter{LabelSelector: map[string]string{"io.kubernetes.pod.uid": "other"}}})
	require.NoError(t, err)
	assert.Empty(t, list.Containers, "the label selector filters")

	_, err = rt.RemovePodSandbox(ctx, &runtimeapi.RemovePodSandboxRequest{PodSandboxId: sb.PodSandboxId})
	assert.Equal(t, codes.FailedPrecondition, status.Code(err), "a ready sandbox is not removed")
	_, err = rt.StopPodSandbox(ctx, &runtimeapi.StopPodSandboxRequest{PodSandboxId: sb.PodSandboxId})
	require.NoError(t, err)
	_, err = rt.RemovePodSandbox(ctx, &runtimeapi.RemovePodSandboxRequest{PodSandboxId: sb.PodSandboxId})
	require.NoError(t, err)
	sandboxes, containers := r.Counts()
	assert.Equal(t, []int{0, 0}, []int{sandboxes, containers}, "removing a sandbox removes its containers")
	assert.Equal(t, []string{"RunPodSandbox web/0", "CreateContainer main/0", "CreateContainer main/0", "StartContainer main/0",
		"RemoveContainer main/0", "RemovePodSandbox web/0", "StopPodSandbox web/0", "RemovePodSandbox web/0"}, r.Calls())
}

func TestRuntimeFailsTheCallsItIsToldTo(t *testing.T) {
	r := &podruntimetest.Runtime{Registry: map[string]string{"app:1": "sha256:app"}}
	rt, images, closeConn := r.Clients()
	defer closeConn()
	ctx := context.Background()
	r.Fail("PullImage", status.Error(codes.Unavailable, "registry down"))
	_, err := images.PullImage(ctx, &runtimeapi.PullImageRequest{Image: &runtimeapi.ImageSpec{Image: "app:1"}})
	assert.Equal(t, "rpc error: code = Unavailable desc = registry down", err.Error())
	pulled, err := images.PullImage(ctx, &runtimeapi.PullImageRequest{Image: &runtimeapi.ImageSpec{Image: "app:1"}})
	require.NoError(t, err, "one failure per Fail")
	assert.Equal(t, "sha256:app", pulled.ImageRef)
	st, err := images.ImageStatus(ctx, &runtimeapi.ImageStatusRequest{Image: &runtimeapi.ImageSpec{Image: "app:1"}})
	require.NoError(t, err)
	assert.Equal(t, "sha256:app", st.Image.Id, "a pulled image is present")
	_, err = images.PullImage(ctx, &runtimeapi.PullImageRequest{Image: &runtimeapi.ImageSpec{Image: "missing:1"}})
	assert.Equal(t, codes.NotFound, status.Code(err), "an image the registry lacks")
	r.Fail("RunPodSandbox", errors.New("no network"))
	_, err = rt.RunPodSandbox(ctx, &runtimeapi.RunPodSandboxRequest{Config: sandboxConfig(0)})
	assert.ErrorContains(t, err, "no network")
	_, err = images.RemoveImage(ctx, &runtimeapi.RemoveImageRequest{})
	assert.Equal(t, codes.Unimplemented, status.Code(err), "what podruntime never calls is not implemented")
}

func TestAZeroRuntimeIsReadyToUse(t *testing.T) {
	var r podruntimetest.Runtime
	assert.Empty(t, r.Calls())
	assert.Empty(t, r.ExitNamed("main", 0, ""))
	r.AddImage("app:1", "sha256:app", 1)
	sandboxes, containers := r.Counts()
	assert.Zero(t, sandboxes+containers)
}
