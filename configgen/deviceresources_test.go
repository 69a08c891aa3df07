package configgen_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/mounts"
)

// A device-resource getter may hand every container the same DeviceResources. A caller that edits
// one container's RunContainerOptions (adds an annotation, a mount option) edits neither the
// getter's values nor what the next container gets.
func TestRunContainerOptionsDoNotShareTheDeviceResources(t *testing.T) {
	shared := &configgen.DeviceResources{
		Mounts:      []mounts.Mount{{Name: "gpu-lib", HostPath: "/usr/lib/gpu", ContainerPath: "/gpu", BindMountOptions: []string{"ro"}}},
		Annotations: map[string]string{"vendor.example/gpu": "0"},
	}
	node := configgentest.NewNode()
	node.Options.DeviceResources = configgen.DeviceResourceGetterFunc(func(context.Context, *v1.Pod, *v1.Container) (*configgen.DeviceResources, error) {
		return shared, nil
	})
	gen, err := node.Generator()
	require.NoError(t, err)
	pod := samplePod()
	req := configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.0.0.9"}, Volumes: node.Volumes(pod)}

	first, err := gen.GenerateRunContainerOptions(context.Background(), req)
	require.NoError(t, err)
	first.Annotations["caller/added"] = "1"
	first.Mounts[0].BindMountOptions[0] = "rw"

	assert.Equal(t, map[string]string{"vendor.example/gpu": "0"}, shared.Annotations, "the getter's annotations")
	assert.Equal(t, []string{"ro"}, shared.Mounts[0].BindMountOptions, "the getter's mount options")
	second, err := gen.GenerateRunContainerOptions(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"vendor.example/gpu": "0"}, second.Annotations, "the next container's annotations")
	assert.Equal(t, []string{"ro"}, second.Mounts[0].BindMountOptions, "the next container's mount options")
}
