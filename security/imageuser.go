package security

import (
	"context"
	"fmt"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// ImageUserResolver reports the user an image runs as: a uid when the image's user is numeric,
// otherwise the user name. It mirrors kubelet's getImageUser, so an image that is unknown or names
// no user must come back as uid 0 (root), never as (nil, "").
type ImageUserResolver interface {
	ImageUser(ctx context.Context, image string) (uid *int64, username string, err error)
}

// ImageUserFromStatus turns an ImageStatus answer into the image user as kubelet's getImageUser
// does: the uid when the runtime reports one, else the user name when it is not empty, else uid 0,
// because an image that does not say who it runs as runs as root. A nil image (the runtime does not
// have it) also yields uid 0.
func ImageUserFromStatus(image *runtimeapi.Image) (uid *int64, username string) {
	if image != nil {
		if image.Uid != nil {
			v := image.Uid.Value
			return &v, ""
		}
		if image.Username != "" {
			return nil, image.Username
		}
	}
	return new(int64), ""
}

// CRIImageUser is the ImageUserResolver of a kubelet: it asks the CRI image service for the image's
// status (not verbose) and reads the user from it with ImageUserFromStatus.
type CRIImageUser struct {
	// Client is the runtime's image service, e.g. runtimeapi.NewImageServiceClient(conn).
	Client runtimeapi.ImageServiceClient
}

var _ ImageUserResolver = CRIImageUser{}

// ImageUser implements ImageUserResolver. Like kubelet's CRI client, it rejects an answer whose
// image has no id or no size, since such a status cannot be trusted to describe the image. A failed
// call returns the runtime's (gRPC status) error unwrapped, as kubelet does.
func (c CRIImageUser) ImageUser(ctx context.Context, image string) (*int64, string, error) {
	if c.Client == nil {
		return nil, "", fmt.Errorf("image user of %q: no CRI image service client: %w", image, ErrInvalidInput)
	}
	resp, err := c.Client.ImageStatus(ctx, &runtimeapi.ImageStatusRequest{
		Image:   &runtimeapi.ImageSpec{Image: image},
		Verbose: false,
	})
	if err != nil {
		// Kubelet's getImageUser passes the runtime's error on as it came; so does this, so that
		// the container's failure reads the same.
		return nil, "", err
	}
	img := resp.GetImage()
	if img != nil && (img.Id == "" || img.Size == 0) {
		//lint:ignore ST1005 the text is kubelet's CRI client's
		return nil, "", fmt.Errorf("Id or size of image %q is not set", image)
	}
	uid, username := ImageUserFromStatus(img)
	return uid, username, nil
}

// ImageUser is the user one image runs as: UID when the image's user is numeric, else Username.
// Neither set means root, as an image that does not say who it runs as runs as root.
type ImageUser struct {
	UID      *int64
	Username string
}

// ImageUserMap is an ImageUserResolver over what a provider already knows about its images (its
// registry's or its runtime's metadata), keyed by the image reference as the container's image
// field names it. An image not in the map runs as uid 0, as kubelet's getImageUser answers for an
// image the runtime does not know, so runAsNonRoot refuses it rather than trusting a guess.
// Read-only use is safe for concurrent callers.
type ImageUserMap map[string]ImageUser

var _ ImageUserResolver = ImageUserMap(nil)

// ImageUser implements ImageUserResolver.
func (m ImageUserMap) ImageUser(_ context.Context, image string) (*int64, string, error) {
	uid, username := m[image].resolve()
	return uid, username, nil
}

// resolve returns u as ImageUserResolver reports it, never (nil, "").
func (u ImageUser) resolve() (*int64, string) {
	if u.UID != nil {
		v := *u.UID
		return &v, ""
	}
	if u.Username != "" {
		return nil, u.Username
	}
	return new(int64), ""
}

// ImageUserFunc adapts a function, e.g. a lookup in a provider's image cache, to
// ImageUserResolver. An answer with neither a uid nor a user name becomes uid 0, as the
// interface requires; an error is passed on as it is.
type ImageUserFunc func(ctx context.Context, image string) (uid *int64, username string, err error)

var _ ImageUserResolver = ImageUserFunc(nil)

// ImageUser calls f.
func (f ImageUserFunc) ImageUser(ctx context.Context, image string) (*int64, string, error) {
	if f == nil {
		return nil, "", fmt.Errorf("%w: nil ImageUserFunc", ErrInvalidInput)
	}
	uid, username, err := f(ctx, image)
	if err != nil {
		return nil, "", err
	}
	uid, username = ImageUser{UID: uid, Username: username}.resolve()
	return uid, username, nil
}
