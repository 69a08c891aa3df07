package backoff

import (
	"hash/fnv"
	"strconv"
	"strings"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/clock"
)

// Kubelet's crash-loop back-off settings.
const (
	// InitialCrashLoopBackOff is the back-off after a container's second exit (kubelet:
	// initialCrashLoopBackOff); the first restart is immediate.
	InitialCrashLoopBackOff = 10 * time.Second
	// MaxCrashLoopBackOff is the default cap of the back-off (kubelet: MaxCrashLoopBackOff,
	// the KubeletConfiguration default of crashLoopBackOff.maxContainerRestartPeriod).
	MaxCrashLoopBackOff = 300 * time.Second
	// CrashLoopBackOffReset is how long after the last restart an exit starts the back-off over
	// from InitialCrashLoopBackOff: a container that ran that long is not crash-looping (kubelet's
	// crashLoopBackOff.HasExpiredFunc).
	CrashLoopBackOffReset = 600 * time.Second
)

// CrashLoop is kubelet's crash-loop back-off (its crashLoopBackOff, a client-go
// flowcontrol.Backoff with kubelet's settings), keyed by container (GetBackoffKey). Kubelet uses
// it on every sync of a container that has exited: while IsInBackOffSince the exit's finish
// time, the container waits (CrashLoopBackOff) until FinishedAt + Get; otherwise the node calls
// Next and starts the container. The back-off starts at the initial period after the first
// restart, doubles with each restart and never exceeds the maximum; it cannot overflow, however
// long a container keeps exiting. Entries of containers that stopped restarting are dropped by
// GC, which the node calls periodically, or by Reset when a pod goes away.
//
// A CrashLoop is safe for concurrent use. The zero value is not usable; build one with
// NewCrashLoop.
type CrashLoop struct {
	initial, max time.Duration
	clock        clock.PassiveClock

	mu      sync.Mutex
	entries map[string]*crashLoopEntry
}

type crashLoopEntry struct {
	backoff    time.Duration
	lastUpdate time.Time
}

// NewCrashLoop returns a crash-loop back-off with kubelet's settings (kubelet:
// newCrashLoopBackOff with KubeletCrashLoopBackOffMax on, its v1.37 default): initial 0 means
// InitialCrashLoopBackOff, max 0 means MaxCrashLoopBackOff, and an initial period above the
// maximum is lowered to it. A nil clock is the real clock.
func NewCrashLoop(initial, max time.Duration, clk clock.PassiveClock) *CrashLoop {
	if initial <= 0 {
		initial = InitialCrashLoopBackOff
	}
	if max <= 0 {
		max = MaxCrashLoopBackOff
	}
	if initial > max {
		initial = max
	}
	if clk == nil {
		clk = clock.RealClock{}
	}
	return &CrashLoop{initial: initial, max: max, clock: clk, entries: map[string]*crashLoopEntry{}}
}

// Next records that the container key is being restarted after an exit at finishedAt: its first
// restart, or the first since CrashLoopBackOffReset passed, sets the back-off to the initial
// period; every other doubles it, up to the maximum.
func (b *CrashLoop) Next(key string, finishedAt time.Time) {
	if b == nil || b.entries == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.entries[key]
	switch {
	case !ok || expired(finishedAt, e.lastUpdate):
		e = &crashLoopEntry{backoff: b.initial}
		b.entries[key] = e
	case e.backoff >= b.max/2:
		e.backoff = b.max
	default:
		e.backoff *= 2
	}
	e.lastUpdate = b.clock.Now()
}

// IsInBackOffSince reports whether the container key, which exited at finishedAt, must still
// wait before it is restarted: less than its back-off has passed since finishedAt.
func (b *CrashLoop) IsInBackOffSince(key string, finishedAt time.Time) bool {
	if b == nil || b.entries == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.entries[key]
	if !ok || expired(finishedAt, e.lastUpdate) {
		return false
	}
	return b.clock.Since(finishedAt) < e.backoff
}

// Get returns the container's current back-off, 0 when it has none.
func (b *CrashLoop) Get(key string) time.Duration {
	if b == nil || b.entries == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if e, ok := b.entries[key]; ok {
		return e.backoff
	}
	return 0
}

// Reset forgets the container's back-off.
func (b *CrashLoop) Reset(key string) {
	if b == nil || b.entries == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.entries, key)
}

// GC forgets the back-off of every container not restarted for CrashLoopBackOffReset, so the
// entries of containers and pods that are gone do not accumulate.
func (b *CrashLoop) GC() {
	if b == nil || b.entries == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.clock.Now()
	for key, e := range b.entries {
		if expired(now, e.lastUpdate) {
			delete(b.entries, key)
		}
	}
}

// expired is kubelet's crashLoopBackOff.HasExpiredFunc.
func expired(eventTime, lastUpdate time.Time) bool {
	return eventTime.Sub(lastUpdate) > CrashLoopBackOffReset
}

// GetBackoffKey is the key of a container's back-off (kubelet: GetBackoffKey): a hash of the
// pod's name, namespace and UID and the container's name, image and resources, so a changed
// image or resources start the back-off over.
func GetBackoffKey(pod *v1.Pod, container *v1.Container) string {
	if pod == nil || container == nil {
		return ""
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(strings.Join([]string{pod.Name, pod.Namespace, string(pod.UID),
		container.Name, container.Image, container.Resources.String()}, "/")))
	return strconv.FormatUint(h.Sum64(), 16)
}
