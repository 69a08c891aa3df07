package images_test

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/images"
)

// A kubelet asks the runtime for the image, pulls it when the pull policy says so, and gives
// GenerateContainerConfig the reference the runtime resolved.
func ExampleGetImageRef() {
	// runtime stands for runtimeapi.NewImageServiceClient(conn).
	runtime := statusFunc(func(*runtimeapi.ImageStatusRequest) (*runtimeapi.ImageStatusResponse, error) {
		return &runtimeapi.ImageStatusResponse{Image: &runtimeapi.Image{Id: "sha256:4a2f", Size: 2150400}}, nil
	})
	ref, err := images.GetImageRef(context.Background(), runtime, &runtimeapi.ImageSpec{Image: "busybox:1.36"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("pull:", images.ShouldPullImage(v1.PullIfNotPresent, ref != ""))
	fmt.Println("image ref:", ref)
	// Output:
	// pull: false
	// image ref: sha256:4a2f
}

// A container's image names an image as kubelet and the runtime read it; what is known of images
// is found by reference, else by repository.
func ExamplePatternMap() {
	var users images.PatternMap[int64]
	for pattern, uid := range map[string]int64{"nginx:*": 101, "registry.k8s.io/pause:3.10": 65535} {
		p, err := images.ParsePattern(pattern)
		if err != nil {
			fmt.Println(err)
			return
		}
		users.Set(p, uid)
	}
	for _, image := range []string{"nginx", "docker.io/library/nginx:1.27", "registry.k8s.io/pause:3.10", "busybox"} {
		ref, err := images.ParseReference(image)
		if err != nil {
			fmt.Println(err)
			return
		}
		uid, known := users.Match(ref)
		fmt.Println(ref, uid, known)
	}
	// Output:
	// docker.io/library/nginx:latest 101 true
	// docker.io/library/nginx:1.27 101 true
	// registry.k8s.io/pause:3.10 65535 true
	// docker.io/library/busybox:latest 0 false
}
