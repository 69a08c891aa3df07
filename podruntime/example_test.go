package podruntime_test

import (
	"context"
	"fmt"
	"net"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/defaults"
	"github.com/podconfig/podconfig/podruntime"
	"github.com/podconfig/podconfig/podruntime/podruntimetest"
)

// A node's loop for one pod, as kubelet's pod worker runs it: read what the runtime holds,
// generate the status, sync while the phase is not terminal; then stop the pod and remove it.
// Here the runtime is podruntimetest's, in memory, and the Generator an offline one; on a node
// they are the CRI clients of containerd's socket and configgen.New's Generator.
func Example() {
	ctx := context.Background()
	fake := &podruntimetest.Runtime{}
	fake.AddImage("registry.example/job:1", "sha256:job1", 1<<20)
	runtime, images, closeConn := fake.Clients()
	defer closeConn()
	gen, _ := configgentest.NewNode().Generator()
	m, err := podruntime.New(ctx, podruntime.Options{Runtime: runtime, Images: images, Generator: gen,
		NodeIPs: []net.IP{net.ParseIP("10.0.0.1")}})
	if err != nil {
		fmt.Println(err)
		return
	}

	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "job", Namespace: "default", UID: "5f3c0000-0000-4000-8000-000000000001"},
		Spec: v1.PodSpec{RestartPolicy: v1.RestartPolicyNever, HostNetwork: true,
			InitContainers: []v1.Container{{Name: "setup", Image: "registry.example/job:1"}},
			Containers:     []v1.Container{{Name: "work", Image: "registry.example/job:1"}}}}
	defaults.SetObjectDefaultsPod(pod)

	var status v1.PodStatus
	for pass := 1; pass <= 4; pass++ {
		st, _ := m.GetPodStatus(ctx, pod.UID, pod.Name, pod.Namespace)
		status = m.GenerateAPIPodStatus(pod, st, &status, false)
		fmt.Printf("pass %d: %s\n", pass, status.Phase)
		if status.Phase == v1.PodSucceeded || status.Phase == v1.PodFailed {
			break
		}
		if err := m.SyncPod(ctx, pod, st, nil).Error(); err != nil {
			fmt.Println(err)
		}
		// The containers do their work.
		fake.ExitNamed("setup", 0, "Completed")
		fake.ExitNamed("work", 0, "Completed")
	}
	st, _ := m.GetPodStatus(ctx, pod.UID, pod.Name, pod.Namespace)
	_ = m.KillPod(ctx, pod, st, nil)
	_ = m.GarbageCollectPod(ctx, pod.UID, true)
	work := status.ContainerStatuses[0]
	fmt.Println(work.Name, work.State.Terminated.Reason, work.State.Terminated.ExitCode)
	fmt.Println(fake.Calls())
	// Output:
	// pass 1: Pending
	// pass 2: Pending
	// pass 3: Succeeded
	// work Completed 0
	// [RunPodSandbox job/0 CreateContainer setup/0 StartContainer setup/0 CreateContainer work/0 StartContainer work/0 StopPodSandbox job/0 RemoveContainer setup/0 RemoveContainer work/0 StopPodSandbox job/0 RemovePodSandbox job/0]
}
