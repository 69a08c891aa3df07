package hostfs

import (
	"hash/maphash"
	"sync/atomic"
)

// The lookup cache has lookupSets sets of lookupWays entries: a path can be kept in any entry of
// the set its hash picks, so a few paths that hash alike do not push each other out.
const (
	lookupSets = 64
	lookupWays = 4
)

// lookupCache remembers the file a path resolved to, so a path that is looked up again (a pod's
// directories, on every call for the pod) costs one hash instead of a lookup per component. It
// never grows: a full set replaces an entry.
//
// Only paths that resolved to an existing file that is not a symlink, without following a final
// symlink, are kept: for those, every lookup mode that only needs the file (lstat, stat, open,
// chmod, mkdir -p, and an open for writing without a trailing "/") finds the same file. Creating
// a file, directory or symlink cannot change where an existing path leads (it only fills a name
// that was missing), nor can a write or a chmod; only Remove can, and it makes every entry stale
// by moving Memory.gen on. Readers fill entries holding only the read lock, so an entry is
// swapped atomically; a cachedLookup is never modified.
type lookupCache struct {
	seed    maphash.Seed
	entries [lookupSets * lookupWays]atomic.Pointer[cachedLookup]
}

type cachedLookup struct {
	path string
	n    *node
	gen  uint64
}

// set returns the entries path may be kept in, and the path's hash.
func (c *lookupCache) set(p string) ([]atomic.Pointer[cachedLookup], uint64) {
	h := maphash.String(c.seed, p)
	i := int(h%lookupSets) * lookupWays
	return c.entries[i : i+lookupWays], h
}

// resolve is walk for callers that need only the file a path leads to (res.n, and res.trailing
// for openCreate), answered from the cache when it can be. The caller holds m.mu.
func (m *Memory) resolve(p string, mode walkMode) (walkResult, error) {
	if p == "" || mode == create || mode == openCreate && p[len(p)-1] == '/' {
		return m.walk(p, mode)
	}
	root := m.rootLocked()
	set, h := m.cache.set(p)
	for i := range set {
		if e := set[i].Load(); e != nil && e.gen == m.gen && e.path == p {
			return walkResult{n: e.n}, nil
		}
	}
	res, err := m.walkIn(root, p, mode)
	if err == nil && res.n != nil && res.n.kind != kindSymlink && !res.linkedLast {
		// An empty or stale entry if there is one, else one the hash picks.
		victim := &set[(h>>32)%lookupWays]
		for i := range set {
			if e := set[i].Load(); e == nil || e.gen != m.gen {
				victim = &set[i]
				break
			}
		}
		victim.Store(&cachedLookup{path: p, n: res.n, gen: m.gen})
	}
	return res, err
}
