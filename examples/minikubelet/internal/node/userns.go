package node

import (
	"context"
	"fmt"
	"sync"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/security"
)

// Kubelet's user-namespace defaults: each pod with hostUsers: false gets 65536 host ids, taken
// from the ids kubelet owns, which start at 65536 when /etc/subuid has no entry for it.
const (
	idsPerPod    = 1 << 16
	firstHostID  = 1 << 16
	maxUsernsPod = 110 // kubelet's default --max-pods: the number of ranges it hands out
)

// userNamespaces gives each running pod with hostUsers: false a range of host ids of its own, as
// kubelet's userns manager does, after checking that the pod's runtime handler supports user
// namespaces (what the runtime's Status reported). Unlike kubelet, it keeps the ranges in memory
// only: a range is freed when its pod is torn down.
type userNamespaces struct {
	handlers map[string]bool

	mu    sync.Mutex
	byPod map[types.UID]int
	used  [maxUsernsPod]bool
}

var _ security.UserNamespaceMapper = (*userNamespaces)(nil)

func (u *userNamespaces) GetOrCreateUserNamespaceMappings(_ context.Context, pod *v1.Pod, handler string) (*runtimeapi.UserNamespace, error) {
	if pod.Spec.HostUsers == nil || *pod.Spec.HostUsers {
		return &runtimeapi.UserNamespace{Mode: runtimeapi.NamespaceMode_NODE}, nil
	}
	if err := security.CheckUserNamespaceSupport(u.handlers, handler); err != nil {
		return nil, err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	block, ok := u.byPod[pod.UID]
	if !ok {
		block = -1
		for i, inUse := range u.used {
			if !inUse {
				block = i
				break
			}
		}
		if block < 0 {
			return nil, fmt.Errorf("user namespace of pod %s/%s: all %d id ranges are in use", pod.Namespace, pod.Name, maxUsernsPod)
		}
		u.used[block] = true
		u.byPod[pod.UID] = block
	}
	ids := func() []*runtimeapi.IDMapping {
		return []*runtimeapi.IDMapping{{HostId: uint32(firstHostID + block*idsPerPod), ContainerId: 0, Length: idsPerPod}}
	}
	return &runtimeapi.UserNamespace{Mode: runtimeapi.NamespaceMode_POD, Uids: ids(), Gids: ids()}, nil
}

// release frees the pod's range once it is gone.
func (u *userNamespaces) release(uid types.UID) {
	if u == nil {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if block, ok := u.byPod[uid]; ok {
		u.used[block] = false
		delete(u.byPod, uid)
	}
}
