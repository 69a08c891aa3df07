package podruntimetest_test

import (
	"context"
	"fmt"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/podruntime/podruntimetest"
)

// A test drives the code under test over the runtime's CRI clients, then makes a container exit
// and reads what was called.
func Example() {
	rt := &podruntimetest.Runtime{}
	rt.AddImage("busybox:1.36", "sha256:b1", 1<<20)
	runtime, _, closeClients := rt.Clients()
	defer closeClients()
	ctx := context.Background()

	sb, err := runtime.RunPodSandbox(ctx, &runtimeapi.RunPodSandboxRequest{Config: &runtimeapi.PodSandboxConfig{
		Metadata: &runtimeapi.PodSandboxMetadata{Name: "job", Namespace: "default", Uid: "u1"}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := runtime.CreateContainer(ctx, &runtimeapi.CreateContainerRequest{PodSandboxId: sb.PodSandboxId,
		Config: &runtimeapi.ContainerConfig{Metadata: &runtimeapi.ContainerMetadata{Name: "work"}, Image: &runtimeapi.ImageSpec{Image: "busybox:1.36"}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := runtime.StartContainer(ctx, &runtimeapi.StartContainerRequest{ContainerId: c.ContainerId}); err != nil {
		fmt.Println(err)
		return
	}
	rt.ExitNamed("work", 0, "Completed")
	st, err := runtime.ContainerStatus(ctx, &runtimeapi.ContainerStatusRequest{ContainerId: c.ContainerId})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st.Status.State, st.Status.ExitCode, st.Status.Reason)
	fmt.Println(rt.Calls())
	// Output:
	// CONTAINER_EXITED 0 Completed
	// [RunPodSandbox job/0 CreateContainer work/0 StartContainer work/0]
}
