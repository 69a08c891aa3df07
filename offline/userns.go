package offline

import (
	"context"
	"fmt"
	"sync"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/security"
)

// DefaultIDsPerPod is the length of each pod's id mapping, kubelet's default idsPerPod.
const DefaultIDsPerPod = 65536

// UserNamespaces is a security.UserNamespaceMapper that keeps its allocations in memory: unlike
// kubelet's userns manager it persists nothing under the pod directory and reads no /etc/subuid,
// so a new UserNamespaces knows no earlier pod. minikubelet hands out its pods' host ids with one.
// Build it with FixedUserNamespaces or AllocatingUserNamespaces; it is safe for concurrent use.
type UserNamespaces struct {
	// Handlers is what the runtime reports: handler name to user-namespace support, nil or empty
	// for a runtime that reports no list (see security.CheckUserNamespaceSupport). The constructors set
	// {"": true}; set it before first use to model other runtimes.
	Handlers map[string]bool

	mu       sync.Mutex
	first    uint32
	length   uint32
	blocks   int // 0: every pod shares the block at first
	assigned map[types.UID]int
	used     []bool
}

var _ security.UserNamespaceMapper = (*UserNamespaces)(nil)

// FixedUserNamespaces returns a mapper that gives every pod the same mapping: container ids
// 0..65535 to host ids hostID..hostID+65535.
func FixedUserNamespaces(hostID uint32) *UserNamespaces {
	return &UserNamespaces{Handlers: map[string]bool{"": true}, first: hostID, length: DefaultIDsPerPod}
}

// AllocatingUserNamespaces returns a mapper that gives each pod, by UID, its own block of 65536 host
// ids, the first at firstHostID and the others following it, up to blocks pods at once; the same
// pod always gets the same block until Release. blocks below 1 count as 1.
func AllocatingUserNamespaces(firstHostID uint32, blocks int) *UserNamespaces {
	blocks = max(blocks, 1)
	return &UserNamespaces{
		Handlers: map[string]bool{"": true},
		first:    firstHostID,
		length:   DefaultIDsPerPod,
		blocks:   blocks,
		assigned: map[types.UID]int{},
		used:     make([]bool, blocks),
	}
}

// GetOrCreateUserNamespaceMappings implements security.UserNamespaceMapper. Like kubelet's userns
// manager, it gives a pod whose hostUsers is unset or true NODE mode without checking the handler or
// taking a block; a nil pod is an error wrapping security.ErrInvalidInput.
func (u *UserNamespaces) GetOrCreateUserNamespaceMappings(_ context.Context, pod *v1.Pod, runtimeHandler string) (*runtimeapi.UserNamespace, error) {
	if pod == nil {
		return nil, fmt.Errorf("user namespace: no pod: %w", security.ErrInvalidInput)
	}
	if pod.Spec.HostUsers == nil || *pod.Spec.HostUsers {
		return &runtimeapi.UserNamespace{Mode: runtimeapi.NamespaceMode_NODE}, nil
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if err := security.CheckUserNamespaceSupport(u.Handlers, runtimeHandler); err != nil {
		return nil, err
	}
	block := 0
	if u.blocks > 0 {
		var err error
		if block, err = u.allocate(pod); err != nil {
			return nil, err
		}
	}
	host := uint64(u.first) + uint64(block)*uint64(u.length)
	if host+uint64(u.length) > 1<<32 {
		return nil, fmt.Errorf("user namespace for pod %s: host ids %d+%d exceed the 32-bit id space", security.FormatPod(pod), host, u.length)
	}
	mapping := func() []*runtimeapi.IDMapping {
		return []*runtimeapi.IDMapping{{HostId: uint32(host), ContainerId: 0, Length: u.length}}
	}
	return &runtimeapi.UserNamespace{Mode: runtimeapi.NamespaceMode_POD, Uids: mapping(), Gids: mapping()}, nil
}

func (u *UserNamespaces) allocate(pod *v1.Pod) (int, error) {
	if b, ok := u.assigned[pod.UID]; ok {
		return b, nil
	}
	for b, inUse := range u.used {
		if !inUse {
			u.used[b] = true
			u.assigned[pod.UID] = b
			return b, nil
		}
	}
	return 0, fmt.Errorf("user namespace for pod %s: all %d id ranges are in use", security.FormatPod(pod), u.blocks)
}

// Release frees the block of the pod with this UID, as kubelet does when the pod is gone. It does
// nothing for a fixed mapper or an unknown UID.
func (u *UserNamespaces) Release(uid types.UID) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if b, ok := u.assigned[uid]; ok {
		u.used[b] = false
		delete(u.assigned, uid)
	}
}
