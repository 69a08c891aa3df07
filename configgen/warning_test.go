package configgen_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/mounts"
)

// Every warning reaches Options.OnWarning with its event reason and the container it is about.
func TestGeneratorWarningReasons(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(pod *v1.Pod, volumes mounts.VolumeMap)
		sandbox bool
		want    []string
	}{
		{
			name: "a pod name over 63 characters is truncated as hostname: HostnameTruncated",
			mutate: func(pod *v1.Pod, _ mounts.VolumeMap) {
				pod.Name = strings.Repeat("h", 70)
			},
			want: []string{configgen.ReasonHostnameTruncated},
		},
		{
			name: "a missing optional ConfigMap of envFrom: OptionalConfigMapNotFound",
			mutate: func(pod *v1.Pod, _ mounts.VolumeMap) {
				pod.Spec.Containers[0].EnvFrom = []v1.EnvFromSource{{ConfigMapRef: &v1.ConfigMapEnvSource{
					LocalObjectReference: v1.LocalObjectReference{Name: "absent"}, Optional: ptr.To(true)}}}
			},
			want: []string{configgen.ReasonOptionalConfigMapNotFound},
		},
		{
			name: "a missing optional Secret key: OptionalSecretNotFound",
			mutate: func(pod *v1.Pod, _ mounts.VolumeMap) {
				pod.Spec.Containers[0].Env = []v1.EnvVar{{Name: "T", ValueFrom: &v1.EnvVarSource{SecretKeyRef: &v1.SecretKeySelector{
					LocalObjectReference: v1.LocalObjectReference{Name: "absent"}, Key: "k", Optional: ptr.To(true)}}}}
			},
			want: []string{configgen.ReasonOptionalSecretNotFound},
		},
		{
			name: "a block device whose symlink is missing is skipped: BlockDeviceMissing",
			mutate: func(pod *v1.Pod, volumes mounts.VolumeMap) {
				pod.Spec.Containers[0].VolumeDevices = []v1.VolumeDevice{{Name: "disk", DevicePath: "/dev/xvda"}}
				volumes["disk"] = mounts.Volume{BlockDevicePath: "/var/lib/kubelet/plugins/dev/disk"}
			},
			want: []string{configgen.ReasonBlockDeviceMissing},
		},
		{
			name: "a hugepage limit that does not parse: HugePageLimitIgnored",
			mutate: func(pod *v1.Pod, _ mounts.VolumeMap) {
				pod.Spec.Containers[0].Resources.Limits = v1.ResourceList{"hugepages-two": resource.MustParse("2Mi")}
			},
			want: []string{configgen.ReasonHugePageLimitIgnored},
		},
		{
			name: "a repeated port is left out of the sandbox: PortNameConflict",
			mutate: func(pod *v1.Pod, _ mounts.VolumeMap) {
				p := v1.ContainerPort{Name: "http", ContainerPort: 80, Protocol: v1.ProtocolTCP}
				pod.Spec.Containers[0].Ports = []v1.ContainerPort{p, p}
			},
			sandbox: true,
			want:    []string{configgen.ReasonPortNameConflict},
		},
		{
			name:    "no cluster DNS for a ClusterFirst pod: MissingClusterDNS, kubelet's event",
			mutate:  func(pod *v1.Pod, _ mounts.VolumeMap) { pod.Spec.DNSPolicy = v1.DNSClusterFirst },
			sandbox: true,
			want:    []string{configgen.ReasonMissingClusterDNS},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			node := configgentest.NewNode()
			node.Options.ClusterDNS = nil
			var got []configgen.Warning
			var containers []*v1.Container
			node.Options.OnWarning = func(_ *v1.Pod, c *v1.Container, w configgen.Warning) {
				got = append(got, w)
				containers = append(containers, c)
			}
			gen, err := node.Generator()
			require.NoError(t, err)
			pod := volumelessPod()
			pod.Spec.DNSPolicy = v1.DNSDefault
			volumes := node.Volumes(pod)
			if volumes == nil {
				volumes = mounts.VolumeMap{}
			}
			tt.mutate(pod, volumes)
			if tt.sandbox {
				_, err = gen.GeneratePodSandboxConfig(context.Background(), pod, 0)
			} else {
				_, err = gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{
					Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.0.0.9"}, ImageRef: "img", Volumes: volumes})
			}
			require.NoError(t, err)
			var reasons []string
			for i, w := range got {
				reasons = append(reasons, w.Reason)
				assert.NotEmpty(t, w.Message)
				if !tt.sandbox {
					assert.Equal(t, "echo", w.Container, "the warning names its container")
					assert.Same(t, &pod.Spec.Containers[0], containers[i])
				} else {
					assert.Nil(t, containers[i], "sandbox warnings come with no container")
				}
			}
			assert.Equal(t, tt.want, reasons)
		})
	}
}

func TestWarningString(t *testing.T) {
	w := configgen.Warning{Reason: configgen.ReasonOptionalConfigMapNotFound, Message: `configmap "cfg" not found`, Container: "app"}
	assert.Equal(t, `OptionalConfigMapNotFound: configmap "cfg" not found`, w.String())
}
