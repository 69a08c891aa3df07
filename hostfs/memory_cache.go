package hostfs

import (
	"hash/maphash"
	"sync/atomic"
)

// lookupCacheSlots is how many resolved paths a Memory remembers. Colliding paths replace each
// other, so the cache never grows.
const lookupCacheSlots = 256

// lookupCache remembers the file a path resolved to, so a path that is looked up again (a pod's
// directories, on every call for the pod) costs one hash instead of a lookup per component.
//
// Only paths that resolved to an existing file that is not a symlink, without following a final
// symlink, are kept: for those, every lookup mode that only needs the file (lstat, stat, open,
// chmod, mkdir -p, and an open for writing without a trailing "/") finds the same file. Creating
// a file, directory or symlink cannot change where an existing path leads (it only fills a name
// that was missing), nor can a write or a chmod; only Remove can, and it makes every entry stale
// by moving Memory.gen on. Readers fill slots holding only the read lock, so a slot is swapped
// atomically; an entry is never modified.
type lookupCache struct {
	seed  maphash.Seed
	slots [lookupCacheSlots]atomic.Pointer[cachedLookup]
}

type cachedLookup struct {
	path string
	n    *node
	gen  uint64
}

func (c *lookupCache) slot(p string) *atomic.Pointer[cachedLookup] {
	return &c.slots[maphash.String(c.seed, p)%lookupCacheSlots]
}

// resolve is walk for callers that need only the file a path leads to (res.n, and res.trailing
// for openCreate), answered from the cache when it can be. The caller holds m.mu.
func (m *Memory) resolve(p string, mode walkMode) (walkResult, error) {
	if p == "" || mode == create || mode == openCreate && p[len(p)-1] == '/' {
		return m.walk(p, mode)
	}
	root := m.rootLocked()
	slot := m.cache.slot(p)
	if e := slot.Load(); e != nil && e.gen == m.gen && e.path == p {
		return walkResult{n: e.n}, nil
	}
	res, err := m.walkIn(root, p, mode)
	if err == nil && res.n != nil && res.n.kind != kindSymlink && !res.linkedLast {
		slot.Store(&cachedLookup{path: p, n: res.n, gen: m.gen})
	}
	return res, err
}
