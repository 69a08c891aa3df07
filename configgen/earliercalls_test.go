package configgen_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
)

// mountsRequest asks for ctr of pod with an IP, so with the hosts mount, on node's volumes.
func mountsRequest(node *configgentest.Node, pod *v1.Pod, ctr *v1.Container) configgen.ContainerRequest {
	pod.Spec.Containers = []v1.Container{*ctr}
	return configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.244.0.5"},
		ImageRef: "sha256:1f2e", Volumes: node.Volumes(pod)}
}

// Whatever ran before on the same Generator, a container gets exactly the mounts, or the error,
// it gets on a Generator of its own.
func TestGenerateContainerConfigKeepsNothingOfEarlierCalls(t *testing.T) {
	hostToCtr := v1.MountPropagationHostToContainer
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "uid-1"},
		Spec: v1.PodSpec{EnableServiceLinks: ptr.To(false), Volumes: []v1.Volume{
			{Name: "a", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
			{Name: "b", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
			{Name: "c", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
			{Name: "img", VolumeSource: v1.VolumeSource{Image: &v1.ImageVolumeSource{Reference: "tools:1"}}},
		}},
	}
	containers := []struct {
		name    string
		ctr     v1.Container
		wantErr string
	}{
		{
			name: "many mounts with every option, a subPathExpr its environment resolves, an image volume (so every mount carries its subPath as ImageSubPath)",
			ctr: v1.Container{Name: "first", Image: "img", TerminationMessagePath: "/dev/termination-log", Env: []v1.EnvVar{{Name: "X", Value: "one"}}, VolumeMounts: []v1.VolumeMount{
				{Name: "a", MountPath: "/a", SubPathExpr: "$(X)", ReadOnly: true},
				{Name: "b", MountPath: "/b", MountPropagation: &hostToCtr},
				{Name: "c", MountPath: "/c", SubPath: "sub"},
				{Name: "img", MountPath: "/tools", SubPath: "bin"},
			}},
		},
		{
			name: "the same subPathExpr without the variable fails",
			ctr: v1.Container{Name: "second", Image: "img", VolumeMounts: []v1.VolumeMount{
				{Name: "a", MountPath: "/a", SubPathExpr: "$(X)"},
			}},
			wantErr: "missing value for X",
		},
		{
			name: "one plain mount after many",
			ctr:  v1.Container{Name: "third", Image: "img", VolumeMounts: []v1.VolumeMount{{Name: "c", MountPath: "/c"}}},
		},
		{
			name: "no mounts at all",
			ctr:  v1.Container{Name: "fourth", Image: "img"},
		},
	}
	generate := func(t *testing.T, node *configgentest.Node, ctr *v1.Container) ([]*runtimeapi.Mount, error) {
		gen, err := node.Generator()
		require.NoError(t, err)
		cfg, err := gen.GenerateContainerConfig(context.Background(), mountsRequest(node, pod, ctr))
		if err != nil {
			return nil, err
		}
		return cfg.Mounts, nil
	}

	shared := configgentest.NewNode()
	gen, err := shared.Generator()
	require.NoError(t, err)
	for round := 0; round < 2; round++ {
		for _, c := range containers {
			t.Run(c.name, func(t *testing.T) {
				want, wantErr := generate(t, configgentest.NewNode(), &c.ctr)
				cfg, err := gen.GenerateContainerConfig(context.Background(), mountsRequest(shared, pod, &c.ctr))
				if c.wantErr != "" {
					require.Error(t, wantErr)
					assert.ErrorContains(t, wantErr, c.wantErr)
					require.Error(t, err)
					assert.Equal(t, wantErr.Error(), err.Error())
					return
				}
				require.NoError(t, wantErr)
				require.NoError(t, err)
				assert.Equal(t, want, cfg.Mounts)
			})
		}
	}
}
