package securitytest

import (
	"context"

	"github.com/podconfig/podconfig/security"
)

// ImageUser is the user one image runs as: UID when the image's user is numeric, else Username.
type ImageUser struct {
	UID      *int64
	Username string
}

// ImageUserMap is an in-memory security.ImageUserResolver keyed by image reference, as the
// container's image field names it. Read-only use is safe for concurrent callers.
type ImageUserMap map[string]ImageUser

var _ security.ImageUserResolver = ImageUserMap(nil)

// ImageUser implements security.ImageUserResolver. An image not in the map, or one whose entry
// names no user, runs as uid 0, as in kubelet's getImageUser.
func (m ImageUserMap) ImageUser(_ context.Context, image string) (*int64, string, error) {
	u, ok := m[image]
	if !ok {
		return new(int64), "", nil
	}
	if u.UID != nil {
		v := *u.UID
		return &v, "", nil
	}
	if u.Username != "" {
		return nil, u.Username, nil
	}
	return new(int64), "", nil
}
