package keylock

import (
	"hash/fnv"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFor(t *testing.T) {
	var s Set
	tests := []struct {
		name string
		key  string
	}{
		{"an empty key has a mutex", ""},
		{"a pod UID", "8f0b6c1e-2d4a-4b7e-9c3f-1a2b3c4d5e6f"},
		{"a path", "/var/lib/kubelet/pods/uid/volume-subpaths/data/app/0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Same(t, s.For(tt.key), s.For(tt.key), "one key, one mutex")
			h := fnv.New32a()
			_, _ = h.Write([]byte(tt.key))
			assert.Same(t, &s.mus[h.Sum32()%stripes], s.For(tt.key), "the stripe is FNV-1a of the key")
		})
	}
	t.Run("the mutex locks", func(t *testing.T) {
		mu := s.For("k")
		mu.Lock()
		assert.False(t, s.For("k").TryLock(), "a second taker of the same key waits")
		mu.Unlock()
	})
}
