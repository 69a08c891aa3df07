package manifest

import (
	"fmt"
	"maps"
	"slices"

	"github.com/podconfig/podconfig/images"
)

// checkImageUsers refuses a RenderContext's imageUsers key that is no image reference or
// repository pattern, and two keys that name one image with different users: a map has no order
// to choose between them.
func checkImageUsers(users map[string]ImageUser) error {
	var seen images.PatternMap[string]
	for _, key := range slices.Sorted(maps.Keys(users)) {
		p, err := images.ParsePattern(key)
		if err != nil {
			return fmt.Errorf("imageUsers: %w", err)
		}
		if other, ok := seen.Get(p); ok && !users[other].Equal(users[key]) {
			return fmt.Errorf("imageUsers: %q and %q both name %s, with different users", other, key, p)
		}
		seen.Set(p, key)
	}
	return nil
}

// Equal tells whether u and o are one user.
func (u ImageUser) Equal(o ImageUser) bool {
	if (u.UID == nil) != (o.UID == nil) || (u.UID != nil && *u.UID != *o.UID) {
		return false
	}
	return u.Username == o.Username
}
