package configgentest_test

import (
	"context"
	"errors"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/mounts/mountstest"
	"github.com/podconfig/podconfig/offline"
)

// subPathPod has an emptyDir mounted by subPath and a block volume used as a device.
func subPathPod() *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u1"},
		Spec: v1.PodSpec{
			EnableServiceLinks: ptr.To(false),
			Volumes: []v1.Volume{
				{Name: "data", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
			},
			Containers: []v1.Container{{Name: "app", Image: "app:1", VolumeMounts: []v1.VolumeMount{
				{Name: "data", MountPath: "/data", SubPath: "sub"},
			}}},
		},
	}
}

func TestNodeDoublesWrapTheOfflineNode(t *testing.T) {
	ctx := context.Background()
	render := func(node *configgentest.Node, pod *v1.Pod, volumes mounts.VolumeMap) error {
		gen, err := node.Generator()
		require.NoError(t, err)
		_, err = gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], ImageRef: "app:1", Volumes: volumes})
		return err
	}
	const volumeDir = "/var/lib/kubelet/pods/u1/volumes/kubernetes.io~empty-dir/data"

	t.Run("the Generator's host questions and binds go through the doubles to the offline node", func(t *testing.T) {
		node := configgentest.NewNode()
		pod := subPathPod()
		volumes := node.Volumes(pod)
		exists, err := node.HostUtils.PathExists(volumeDir)
		require.NoError(t, err)
		assert.True(t, exists, "a volume directory Volumes made is seen through the double")
		node.HostUtils.ResetCalls()

		require.NoError(t, render(node, pod, volumes))
		assert.NotEmpty(t, node.HostUtils.Calls(), "the Generator's HostUtils calls are recorded")
		var methods []string
		for _, c := range node.Subpather.Calls() {
			methods = append(methods, c.Method)
		}
		assert.Equal(t, []string{"SafeMakeDir", "PrepareSafeSubpath"}, methods)
		binds := map[string]string{"/var/lib/kubelet/pods/u1/volume-subpaths/data/app/0": volumeDir + "/sub"}
		assert.Equal(t, binds, node.Subpather.Binds())
		assert.Equal(t, binds, node.Node.Subpather.Binds(), "the binds are the offline node's")

		require.NoError(t, node.RemovePod(pod))
		assert.Empty(t, node.Subpather.Binds(), "RemovePod forgets them, seen through the double too")
	})
	t.Run("an injected error reaches the Generator", func(t *testing.T) {
		node := configgentest.NewNode()
		pod := subPathPod()
		node.Subpather.Funcs.PrepareSafeSubpath = func(mounts.Subpath) error { return fs.ErrPermission }
		err := render(node, pod, node.Volumes(pod))
		assert.ErrorIs(t, err, fs.ErrPermission)
		assert.Empty(t, node.Subpather.Binds())
	})
	t.Run("a block device made to fail reaches the Generator", func(t *testing.T) {
		node := configgentest.NewNode()
		pod := subPathPod()
		pod.Spec.Containers[0].VolumeMounts = nil
		pod.Spec.Containers[0].VolumeDevices = []v1.VolumeDevice{{Name: "disk", DevicePath: "/dev/xvda"}}
		const link = "/var/lib/kubelet/pods/u1/volumeDevices/kubernetes.io~csi/pv1"
		node.BlockDevices.Add(link)
		broken := errors.New("input/output error")
		node.BlockDevices.Fail(link, broken)
		err := render(node, pod, mounts.VolumeMap{"disk": {BlockDevicePath: link}})
		assert.ErrorIs(t, err, broken)
		exists, _ := node.Node.BlockDevices.IsSymlinkExist(link)
		assert.True(t, exists, "the device added through the double is the offline node's")
	})
	t.Run("a backend in Options wins over the double", func(t *testing.T) {
		node := configgentest.NewNode()
		pod := subPathPod()
		own := mountstest.WrapSubpather(offline.NewSubpather(node.Node.HostUtils))
		node.Options.Subpather = own
		require.NoError(t, render(node, pod, node.Volumes(pod)))
		assert.Empty(t, node.Subpather.Calls())
		assert.NotEmpty(t, own.Calls())
		assert.Nil(t, node.Node.Options.HostUtils, "Generator leaves the node's Options as they were")
	})
}
