package benchpod_test

import (
	"fmt"

	"github.com/podconfig/podconfig/internal/benchpod"
)

// The pod, its container and where its volumes are mounted on a node with kubelet's root dir.
func ExamplePod() {
	pod := benchpod.Pod()
	c := benchpod.Container(pod)
	vols := benchpod.Volumes(benchpod.NodeFacts().RootDir)
	fmt.Println(pod.Namespace+"/"+pod.Name, c.Name, len(c.Env), len(c.VolumeMounts))
	fmt.Println(vols["data"].HostPath)
	// Output:
	// shop/web-7d9f8c6b5-x2k4q web 13 6
	// /var/lib/kubelet/pods/3f0d6b8e-5a8c-4d7e-9b1a-2c4e6f8a0b1c/volumes/kubernetes.io~csi/web-data/mount
}
