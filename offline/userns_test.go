package offline_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/offline"
	"github.com/podconfig/podconfig/security"
)

func pod(uid types.UID) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: uid}, Spec: v1.PodSpec{HostUsers: ptr.To(false)}}
}

func hostID(t *testing.T, ns *runtimeapi.UserNamespace) uint32 {
	t.Helper()
	require.Equal(t, runtimeapi.NamespaceMode_POD, ns.Mode)
	require.Len(t, ns.Uids, 1)
	require.Len(t, ns.Gids, 1)
	assert.Equal(t, ns.Uids[0].HostId, ns.Gids[0].HostId)
	assert.Equal(t, uint32(0), ns.Uids[0].ContainerId)
	assert.Equal(t, uint32(65536), ns.Uids[0].Length)
	assert.NotSame(t, ns.Uids[0], ns.Gids[0])
	return ns.Uids[0].HostId
}

func TestFixedUserNamespaces(t *testing.T) {
	m := offline.FixedUserNamespaces(65536)
	ctx := context.Background()
	a, err := m.GetOrCreateUserNamespaceMappings(ctx, pod("a"), "")
	require.NoError(t, err)
	b, err := m.GetOrCreateUserNamespaceMappings(ctx, pod("b"), "")
	require.NoError(t, err)
	assert.Equal(t, uint32(65536), hostID(t, a))
	assert.Equal(t, uint32(65536), hostID(t, b))

	_, err = m.GetOrCreateUserNamespaceMappings(ctx, pod("a"), "runsc")
	require.EqualError(t, err, "can't set `spec.hostUsers: false`, RuntimeClass handler \"runsc\" does not support user namespaces: the handler \"runsc\" is not known")
	require.ErrorIs(t, err, security.ErrUserNamespacesUnsupported)

	_, err = offline.FixedUserNamespaces(1<<32-1000).GetOrCreateUserNamespaceMappings(ctx, pod("a"), "")
	require.EqualError(t, err, "user namespace for pod p_ns(a): host ids 4294966296+65536 exceed the 32-bit id space")
}

func TestAllocatingUserNamespaces(t *testing.T) {
	m := offline.AllocatingUserNamespaces(65536, 2)
	ctx := context.Background()
	get := func(uid types.UID) (uint32, error) {
		ns, err := m.GetOrCreateUserNamespaceMappings(ctx, pod(uid), "")
		if err != nil {
			return 0, err
		}
		return hostID(t, ns), nil
	}
	a, err := get("a")
	require.NoError(t, err)
	b, err := get("b")
	require.NoError(t, err)
	again, err := get("a")
	require.NoError(t, err)
	assert.Equal(t, uint32(65536), a)
	assert.Equal(t, uint32(131072), b)
	assert.Equal(t, a, again, "a pod keeps its block")

	_, err = get("c")
	require.EqualError(t, err, "user namespace for pod p_ns(c): all 2 id ranges are in use")

	m.Release("a")
	c, err := get("c")
	require.NoError(t, err)
	assert.Equal(t, uint32(65536), c, "a released block is reused")
}

func TestAllocatingUserNamespacesConcurrent(t *testing.T) {
	m := offline.AllocatingUserNamespaces(65536, 64)
	var wg sync.WaitGroup
	ids := make([]uint32, 64)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ns, err := m.GetOrCreateUserNamespaceMappings(context.Background(), pod(types.UID(rune('A'+i))), "")
			if assert.NoError(t, err) {
				ids[i] = ns.Uids[0].HostId
			}
		}()
	}
	wg.Wait()
	seen := map[uint32]bool{}
	for _, id := range ids {
		assert.False(t, seen[id], "block %d handed out twice", id)
		seen[id] = true
	}
}

func TestAllocatingUserNamespacesWithoutBlocksHasOne(t *testing.T) {
	m := offline.AllocatingUserNamespaces(65536, 0)
	_, err := m.GetOrCreateUserNamespaceMappings(context.Background(), pod("a"), "")
	require.NoError(t, err)
	_, err = m.GetOrCreateUserNamespaceMappings(context.Background(), pod("b"), "")
	require.EqualError(t, err, "user namespace for pod p_ns(b): all 1 id ranges are in use")
}

// Called directly, the mapper answers like kubelet's userns manager: pods that keep the host's
// user namespace get NODE mode and no block; a nil pod is an error, not a panic.
func TestUserNamespacesHostUsersAndNilPod(t *testing.T) {
	ctx := context.Background()
	for name, m := range map[string]*offline.UserNamespaces{
		"fixed":      offline.FixedUserNamespaces(65536),
		"allocating": offline.AllocatingUserNamespaces(65536, 1),
	} {
		t.Run(name, func(t *testing.T) {
			for _, hostUsers := range []*bool{nil, ptr.To(true)} {
				p := pod("host")
				p.Spec.HostUsers = hostUsers
				ns, err := m.GetOrCreateUserNamespaceMappings(ctx, p, "")
				require.NoError(t, err)
				assert.Equal(t, &runtimeapi.UserNamespace{Mode: runtimeapi.NamespaceMode_NODE}, ns)
			}
			ns, err := m.GetOrCreateUserNamespaceMappings(ctx, pod("own"), "")
			require.NoError(t, err)
			assert.Equal(t, uint32(65536), hostID(t, ns), "the NODE pods took no block")

			_, err = m.GetOrCreateUserNamespaceMappings(ctx, nil, "")
			require.ErrorIs(t, err, security.ErrInvalidInput)
		})
	}
}
