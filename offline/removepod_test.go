package offline_test

import (
	"context"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/offline"
)

func TestNodeRemovePod(t *testing.T) {
	ctx := context.Background()
	newPod := func(name, uid string) *v1.Pod {
		return &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID("uid-" + uid)},
			Spec: v1.PodSpec{
				EnableServiceLinks: ptr.To(false),
				Volumes:            []v1.Volume{{Name: "data", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}}},
				Containers: []v1.Container{{Name: "app", Image: "app:1", VolumeMounts: []v1.VolumeMount{
					{Name: "data", MountPath: "/data", SubPath: "sub"},
				}}},
			},
		}
	}
	node := offline.NewNode()
	gen, err := node.Generator()
	require.NoError(t, err)
	render := func(pod *v1.Pod) {
		_, err := gen.GeneratePodSandboxConfig(ctx, pod, 0)
		require.NoError(t, err)
		_, err = gen.MakePodLogsDirectory(pod)
		require.NoError(t, err)
		c := pod.Spec.Containers[0]
		_, err = gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{Pod: pod, Container: &c, Volumes: node.Volumes(pod), ImageRef: c.Image})
		require.NoError(t, err)
	}
	gone, kept := newPod("gone", "1"), newPod("kept", "2")
	render(gone)
	render(kept)
	require.Len(t, node.Subpather.Binds(), 2)
	node.BlockDevices.Add("/var/lib/kubelet/pods/uid-1/volumeDevices/kubernetes.io~csi/disk")
	node.BlockDevices.Add("/var/lib/kubelet/pods/uid-2/volumeDevices/kubernetes.io~csi/disk")

	require.NoError(t, node.RemovePod(gone))

	exists := func(path string) bool {
		_, err := node.Files.Lstat(path)
		return err == nil
	}
	assert.False(t, exists("/var/lib/kubelet/pods/uid-1"), "the pod's directory is removed")
	assert.False(t, exists("/var/log/pods/ns_gone_uid-1"), "and its logs directory")
	assert.True(t, exists("/var/lib/kubelet/pods/uid-2/volumes/kubernetes.io~empty-dir/data"), "another pod's files stay")
	assert.True(t, exists("/var/log/pods/ns_kept_uid-2/app"))
	known, err := node.HostUtils.PathExists("/var/lib/kubelet/pods/uid-1/volumes/kubernetes.io~empty-dir/data")
	require.NoError(t, err)
	assert.False(t, known, "HostUtils forgets the pod's volume paths")
	known, err = node.HostUtils.PathExists("/var/lib/kubelet/pods/uid-2/volumes/kubernetes.io~empty-dir/data")
	require.NoError(t, err)
	assert.True(t, known)
	device, err := node.BlockDevices.IsSymlinkExist("/var/lib/kubelet/pods/uid-1/volumeDevices/kubernetes.io~csi/disk")
	require.NoError(t, err)
	assert.False(t, device, "BlockDevices forgets the pod's devices")
	device, err = node.BlockDevices.IsSymlinkExist("/var/lib/kubelet/pods/uid-2/volumeDevices/kubernetes.io~csi/disk")
	require.NoError(t, err)
	assert.True(t, device)
	binds := node.Subpather.Binds()
	require.Len(t, binds, 1, "the pod's subPath binds are removed")
	for target := range binds {
		assert.Contains(t, target, "/uid-2/")
	}

	// The same pod again renders as the first time.
	render(gone)
	assert.True(t, exists("/var/lib/kubelet/pods/uid-1/volumes/kubernetes.io~empty-dir/data"))

	t.Run("names that are not path elements remove nothing", func(t *testing.T) {
		for _, bad := range []*v1.Pod{
			{ObjectMeta: metav1.ObjectMeta{Name: "gone", Namespace: "ns", UID: "../uid-2"}},
			{ObjectMeta: metav1.ObjectMeta{Name: "..", Namespace: "ns", UID: "uid-2"}},
			{ObjectMeta: metav1.ObjectMeta{Name: "kept", Namespace: "", UID: "uid-2"}},
		} {
			assert.Error(t, node.RemovePod(bad))
		}
		assert.True(t, exists("/var/lib/kubelet/pods/uid-2/volumes/kubernetes.io~empty-dir/data"))
		_, err := node.Files.Lstat("/var/lib/kubelet/pods")
		assert.NoError(t, err)
	})
	t.Run("a pod the node never saw is no error", func(t *testing.T) {
		assert.NoError(t, node.RemovePod(newPod("never", "3")))
		assert.NoError(t, node.RemovePod(nil))
	})
	t.Run("a symlink in the pod's directory is removed, not followed", func(t *testing.T) {
		require.NoError(t, node.Files.Symlink("/var/lib/kubelet/pods/uid-2", "/var/lib/kubelet/pods/uid-1/link"))
		require.NoError(t, node.RemovePod(gone))
		assert.True(t, exists("/var/lib/kubelet/pods/uid-2/volumes/kubernetes.io~empty-dir/data"))
		_, err := node.Files.Lstat("/var/lib/kubelet/pods/uid-1")
		assert.ErrorIs(t, err, fs.ErrNotExist)
	})
}
