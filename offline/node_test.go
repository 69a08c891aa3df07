package offline_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/offline"
)

func TestNodeGenerator(t *testing.T) {
	const refused = "invalid options: an offline node needs Files, HostUtils, Subpather and BlockDevices (NewNode makes them); without one the Generator would use the host's"
	t.Run("a new node gives a Generator", func(t *testing.T) {
		gen, err := offline.NewNode().Generator()
		require.NoError(t, err)
		assert.NotNil(t, gen)
	})
	t.Run("a zero or nil node is refused, never given the host's backends", func(t *testing.T) {
		for _, n := range []*offline.Node{{}, nil} {
			_, err := n.Generator()
			require.ErrorIs(t, err, configgen.ErrInvalidOptions)
			assert.EqualError(t, err, refused)
		}
	})
	t.Run("a node missing one backend is refused", func(t *testing.T) {
		n := offline.NewNode()
		n.Subpather = nil
		_, err := n.Generator()
		require.EqualError(t, err, refused)
	})
	t.Run("a backend in Options stands in for the node's", func(t *testing.T) {
		n := offline.NewNode()
		n.Files = nil
		n.Options.Files = hostfs.NewMemory()
		_, err := n.Generator()
		require.NoError(t, err)
	})
	t.Run("a zero node's Volumes and RemovePod touch nothing and do not fail", func(t *testing.T) {
		pod := &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u1"},
			Spec:       v1.PodSpec{Volumes: []v1.Volume{{Name: "e", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}}}},
		}
		var zero offline.Node
		assert.Equal(t, mounts.VolumeMap{"e": {HostPath: "/var/lib/kubelet/pods/u1/volumes/kubernetes.io~empty-dir/e", SELinuxRelabel: true}}, zero.Volumes(pod))
		assert.NoError(t, zero.RemovePod(pod))
		var none *offline.Node
		assert.Len(t, none.Volumes(pod), 1)
		assert.NoError(t, none.RemovePod(pod))
	})
}
