package vknode_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/podconfig/podconfig/defaults"
	"github.com/podconfig/podconfig/podruntime/podruntimetest"
	"github.com/podconfig/podconfig/vknode"
)

// A provider runs a pod bound to its node on a CRI runtime (here podruntimetest's, in memory;
// cmd/vknode dials containerd's socket) and reports its status as kubelet computes it. In a
// node, virtual-kubelet's PodController calls CreatePod and passes the statuses to the API
// server.
func Example() {
	rt := &podruntimetest.Runtime{}
	rt.AddImage("registry.example/job:1", "sha256:job1", 1<<20)
	runtime, images, closeConn := rt.Clients()
	defer closeConn()
	dir, err := os.MkdirTemp("", "vknode-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = os.RemoveAll(dir) }()

	ctx := context.Background()
	p, err := vknode.New(ctx, vknode.Config{
		NodeName: "node-1", Runtime: runtime, Images: images, Client: fake.NewClientset(),
		NodeIPs: []net.IP{net.ParseIP("10.0.0.1")},
		RootDir: filepath.Join(dir, "kubelet"), PodLogsDir: filepath.Join(dir, "pods"),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	phases := make(chan v1.PodPhase, 100)
	p.NotifyPods(ctx, func(pod *v1.Pod) {
		select {
		case phases <- pod.Status.Phase:
		default: // never block the provider
		}
	})

	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "job", UID: "7b2e0000-0000-4000-8000-000000000001"},
		Spec: v1.PodSpec{NodeName: "node-1", RestartPolicy: v1.RestartPolicyNever, ServiceAccountName: "default",
			EnableServiceLinks: new(bool), Containers: []v1.Container{{Name: "work", Image: "registry.example/job:1"}}},
	}
	defaults.SetObjectDefaultsPod(pod)
	if err := p.CreatePod(ctx, pod); err != nil {
		fmt.Println(err)
		return
	}
	for phase := range phases {
		if phase == v1.PodRunning && rt.ExitNamed("work", 0, "Completed") != "" {
			fmt.Println("running, then the container exits 0")
		}
		if phase == v1.PodSucceeded {
			fmt.Println(phase)
			break
		}
	}
	if err := p.DeletePod(ctx, pod); err != nil {
		fmt.Println(err)
		return
	}
	waitCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	fmt.Println(p.Wait(waitCtx))
	// Output:
	// running, then the container exits 0
	// Succeeded
	// <nil>
}
