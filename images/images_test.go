package images_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"google.golang.org/grpc"
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/images"
)

type statusFunc func(*runtimeapi.ImageStatusRequest) (*runtimeapi.ImageStatusResponse, error)

func (f statusFunc) ImageStatus(_ context.Context, in *runtimeapi.ImageStatusRequest, _ ...grpc.CallOption) (*runtimeapi.ImageStatusResponse, error) {
	return f(in)
}

func TestGetImageRef(t *testing.T) {
	failure := errors.New("runtime down")
	for _, tc := range []struct {
		name    string
		resp    *runtimeapi.ImageStatusResponse
		err     error
		want    string
		wantErr string
	}{
		{"the image's id", &runtimeapi.ImageStatusResponse{Image: &runtimeapi.Image{Id: "sha256:abc", Size: 10}}, nil, "sha256:abc", ""},
		{"an image the runtime does not have is empty, no error", &runtimeapi.ImageStatusResponse{}, nil, "", ""},
		{"an image with no id is refused as kubelet's CRI client does", &runtimeapi.ImageStatusResponse{Image: &runtimeapi.Image{Size: 10}}, nil, "", `Id or size of image "busybox:1" is not set`},
		{"an image with no size is refused", &runtimeapi.ImageStatusResponse{Image: &runtimeapi.Image{Id: "sha256:abc"}}, nil, "", `Id or size of image "busybox:1" is not set`},
		{"the runtime's error as it came", nil, failure, "", "runtime down"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client := statusFunc(func(in *runtimeapi.ImageStatusRequest) (*runtimeapi.ImageStatusResponse, error) {
				assert.Equal(t, "busybox:1", in.GetImage().GetImage())
				assert.False(t, in.Verbose)
				return tc.resp, tc.err
			})
			got, err := images.GetImageRef(context.Background(), client, &runtimeapi.ImageSpec{Image: "busybox:1"})
			if tc.wantErr != "" {
				assert.EqualError(t, err, tc.wantErr)
				if tc.err != nil {
					assert.Same(t, tc.err, err)
				}
				return
			}
			assert.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestShouldPullImage(t *testing.T) {
	for _, tc := range []struct {
		name    string
		policy  v1.PullPolicy
		present bool
		want    bool
	}{
		{"Always pulls a present image", v1.PullAlways, true, true},
		{"Always pulls a missing image", v1.PullAlways, false, true},
		{"IfNotPresent keeps a present image", v1.PullIfNotPresent, true, false},
		{"IfNotPresent pulls a missing image", v1.PullIfNotPresent, false, true},
		{"Never keeps a present image", v1.PullNever, true, false},
		{"Never does not pull a missing image", v1.PullNever, false, false},
		{"an empty policy is IfNotPresent", "", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, images.ShouldPullImage(tc.policy, tc.present))
		})
	}
}

func TestErrImageNeverPullMessage(t *testing.T) {
	assert.Equal(t, `Container image "busybox:1" is not present with pull policy of Never`, images.ErrImageNeverPullMessage("busybox:1"))
}
