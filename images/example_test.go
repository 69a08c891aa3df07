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
