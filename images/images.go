package images

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc"
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// StatusClient is the part of the CRI image service GetImageRef uses;
// runtimeapi.ImageServiceClient implements it.
type StatusClient interface {
	ImageStatus(ctx context.Context, in *runtimeapi.ImageStatusRequest, opts ...grpc.CallOption) (*runtimeapi.ImageStatusResponse, error)
}

var _ StatusClient = runtimeapi.ImageServiceClient(nil)

// GetImageRef returns the reference the runtime resolved for an image, the image's id in its
// ImageStatus, as kubelet's GetImageRef does; it is what GenerateContainerConfig takes as the
// image ref. An image the runtime does not have gives "" and no error. Like kubelet's CRI client,
// it rejects an answer whose image has no id or no size. A failed call returns the runtime's
// error unwrapped, as kubelet does.
func GetImageRef(ctx context.Context, client StatusClient, image *runtimeapi.ImageSpec) (string, error) {
	if client == nil {
		return "", errors.New("no image status client")
	}
	resp, err := client.ImageStatus(ctx, &runtimeapi.ImageStatusRequest{Image: image})
	if err != nil {
		return "", err
	}
	img := resp.GetImage()
	if img == nil {
		return "", nil
	}
	if img.Id == "" || img.Size == 0 {
		//lint:ignore ST1005 the text is kubelet's CRI client's
		return "", fmt.Errorf("Id or size of image %q is not set", image.GetImage())
	}
	return img.Id, nil
}

// ShouldPullImage is kubelet's pull decision (its image manager's shouldPullImage): Always
// pulls, Never never does, IfNotPresent (and an empty policy, which the API server defaults)
// pulls an image that is not present.
func ShouldPullImage(policy v1.PullPolicy, present bool) bool {
	switch policy {
	case v1.PullAlways:
		return true
	case v1.PullNever:
		return false
	}
	return !present
}

// ErrImageNeverPullMessage is kubelet's message for a container whose image is missing under
// pull policy Never (reason ErrImageNeverPull).
func ErrImageNeverPullMessage(image string) string {
	return fmt.Sprintf("Container image %q is not present with pull policy of Never", image)
}
