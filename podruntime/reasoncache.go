package podruntime

import (
	"sync"

	"k8s.io/apimachinery/pkg/types"
)

// maxReasons bounds a ReasonCache as kubelet bounds its own (1000 entries, for 100 pods of a
// node); past it the oldest entry goes.
const maxReasons = 1000

// ReasonItem is why a container last failed to start: the brief error (its text is the waiting
// reason, e.g. CrashLoopBackOff) and kubelet's message.
type ReasonItem struct {
	// Err is the brief error, its text the waiting reason.
	Err error
	// Message is kubelet's message, the waiting message.
	Message string
}

// ReasonCache keeps, per pod and container, why the container's last start failed (kubelet's
// ReasonCache): GenerateAPIPodStatus shows it as the waiting state of a container that is to be
// started again. It holds at most 1000 entries, dropping the oldest. The zero value is ready to
// use; it is safe for concurrent use.
type ReasonCache struct {
	mu    sync.Mutex
	items map[reasonKey]ReasonItem
	order []reasonKey // insertion order, for dropping the oldest
}

type reasonKey struct {
	uid  types.UID
	name string
}

// Update records a pass's outcome for the pod: a StartContainer result that failed sets the
// container's reason, one that succeeded clears it; other actions do not change the cache.
func (c *ReasonCache) Update(uid types.UID, result PodSyncResult) {
	if c == nil {
		return
	}
	for _, r := range result.SyncResults {
		if r == nil || r.Action != StartContainer {
			continue
		}
		if r.Error != nil {
			c.add(reasonKey{uid, r.Target}, ReasonItem{Err: r.Error, Message: r.Message})
		} else {
			c.Remove(uid, r.Target)
		}
	}
}

func (c *ReasonCache) add(k reasonKey, item ReasonItem) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.items == nil {
		c.items = map[reasonKey]ReasonItem{}
	}
	if _, ok := c.items[k]; !ok {
		c.order = append(c.order, k)
	}
	c.items[k] = item
	for len(c.items) > maxReasons {
		oldest := c.order[0]
		c.order = c.order[1:]
		delete(c.items, oldest)
	}
}

// Get returns why the container last failed to start, if it did.
func (c *ReasonCache) Get(uid types.UID, name string) (ReasonItem, bool) {
	if c == nil {
		return ReasonItem{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	item, ok := c.items[reasonKey{uid, name}]
	return item, ok
}

// Remove forgets the container's reason.
func (c *ReasonCache) Remove(uid types.UID, name string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.removeLocked(func(k reasonKey) bool { return k == reasonKey{uid, name} })
}

// RemovePod forgets the reasons of every container of the pod.
func (c *ReasonCache) RemovePod(uid types.UID) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.removeLocked(func(k reasonKey) bool { return k.uid == uid })
}

func (c *ReasonCache) removeLocked(match func(reasonKey) bool) {
	kept := c.order[:0]
	for _, k := range c.order {
		if match(k) {
			delete(c.items, k)
			continue
		}
		kept = append(kept, k)
	}
	c.order = kept
}
