package keylock

import "sync"

// stripes is the number of mutexes in a Set.
const stripes = 64

// Set is a fixed set of mutexes. The zero value is ready to use; a Set must not be copied.
type Set struct {
	mus [stripes]sync.Mutex
}

// For returns key's mutex, unlocked or not.
func (s *Set) For(key string) *sync.Mutex {
	// FNV-1a, inline: hash/fnv's interface would allocate a copy of key.
	h := uint32(2166136261)
	for i := 0; i < len(key); i++ {
		h = (h ^ uint32(key[i])) * 16777619
	}
	return &s.mus[h%stripes]
}
