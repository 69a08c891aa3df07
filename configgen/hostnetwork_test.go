package configgen_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
)

func TestGenerateContainerConfigHostNetworkPodIPs(t *testing.T) {
	node := configgentest.NewNode()
	gen, err := node.Generator()
	require.NoError(t, err)
	pod := volumelessPod()
	pod.Spec.HostNetwork = true
	pod.Spec.Containers[0].Env = []v1.EnvVar{
		{Name: "POD_IP", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "status.podIP"}}},
		{Name: "POD_IPS", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "status.podIPs"}}},
	}

	// The sandbox of a host-network pod reports no IP; the node's IP (10.0.0.1) takes its place.
	cfg, err := gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], ImageRef: "busybox"})
	require.NoError(t, err)
	env := map[string]string{}
	for _, kv := range cfg.Envs {
		env[kv.Key] = string(kv.Value)
	}
	assert.Equal(t, "10.0.0.1", env["POD_IP"])
	assert.Equal(t, "10.0.0.1", env["POD_IPS"])

	var hostsMount bool
	for _, m := range cfg.Mounts {
		if m.ContainerPath == "/etc/hosts" {
			hostsMount = true
			assert.Equal(t, "/var/lib/kubelet/pods/"+podUID+"/etc-hosts", m.HostPath)
		}
	}
	assert.True(t, hostsMount, "a host-network pod with the node's IPs gets the /etc/hosts mount, as in kubelet")
	hostsFile, err := node.Files.ReadFile("/var/lib/kubelet/pods/" + podUID + "/etc-hosts")
	require.NoError(t, err)
	assert.Contains(t, string(hostsFile), "127.0.0.1\tlocalhost", "the node's hosts file")
}
