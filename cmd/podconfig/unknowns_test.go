package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
)

// What a node knows and a manifest cannot say is stated: a warning names the pods and the flag
// that gives it, and the flag gives it.
func TestStatedUnknowns(t *testing.T) {
	hostNet := "apiVersion: v1\nkind: Pod\nmetadata: {name: agent}\nspec:\n  hostNetwork: true\n  dnsPolicy: ClusterFirstWithHostNet\n  containers: [{name: c, image: app:1}]\n"
	gpu := "apiVersion: v1\nkind: Pod\nmetadata: {name: gpu}\nspec:\n  containers: [{name: c, image: app:1, resources: {limits: {nvidia.com/gpu: 1}}}]\n"
	cron := "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: nightly}\nspec:\n  schedule: '0 1 * * *'\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers: [{name: c, image: app:1}]\n"
	hosts := writeFile(t, "127.0.0.1 localhost\n10.0.0.5 node-1\n")
	tests := []struct {
		name, input string
		flags       []string
		wantStderr  string
		wantOut     string
	}{
		{"a host-network pod's hosts file is the node's, unknown offline", hostNet, nil,
			"warning: 1 host-network pod gets the node's /etc/hosts, which kubelet copies in and is not known offline (default/agent): rendered with one line, 127.0.0.1 localhost; give the node's with --hosts-file FILE\n", ""},
		{"--hosts-file gives it, copied as kubelet copies it", hostNet, []string{"--hosts-file", hosts}, "", "10.0.0.5 node-1"},
		{"a container requesting an extended resource gets no device offline", gpu, nil,
			"warning: 1 container requests nvidia.com/gpu, an extended resource whose device plugin gives each container its devices, mounts, environment and annotations on a node, which are not known offline (default/gpu container c): rendered without them; give its devices with --device nvidia.com/gpu=HOSTPATH[:CONTAINERPATH[:PERMISSIONS]]\n", ""},
		{"--device gives its devices", gpu, []string{"--device", "nvidia.com/gpu=/dev/nvidia0", "--device", "nvidia.com/gpu=/dev/nvidiactl:/dev/nvidiactl:rw"}, "",
			`"devices":[{"containerPath":"/dev/nvidia0","hostPath":"/dev/nvidia0","permissions":"mrw"},{"containerPath":"/dev/nvidiactl","hostPath":"/dev/nvidiactl","permissions":"rw"}]`},
		{"a CronJob's pods are named for a time unknown offline", cron, nil,
			"warning: 1 pod of a CronJob is named for the time its Job is scheduled, which is not known offline (default/nightly-0-5dn8c): named for the epoch (0); give it with --scheduled-time TIME or a RenderContext's scheduledTime\n", ""},
		{"--scheduled-time names them", cron, []string{"--scheduled-time", "2026-01-01T01:00:00Z"}, "", `"name":"nightly-29453820-`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"render", "--image-user", "app:1=1000"}, tt.flags...)
			code, out, stderr := cli(t, tt.input, append(args, "-")...)
			require.Equal(t, exitOK, code, stderr)
			assert.Equal(t, tt.wantStderr, stderr)
			if tt.wantOut != "" {
				assert.Contains(t, compact(t, out), tt.wantOut)
			}
		})
	}
}

func TestStatedUnknownFlagsRefuseBadValues(t *testing.T) {
	for _, tc := range []struct{ name, flag, value, want string }{
		{"a device without a resource", "--device", "/dev/x", `--device "/dev/x": want RESOURCE=HOSTPATH[:CONTAINERPATH[:PERMISSIONS]], HOSTPATH absolute`},
		{"a relative device path", "--device", "a.com/x=dev/x", `--device "a.com/x=dev/x": want RESOURCE=HOSTPATH`},
		{"device permissions other than r, w and m", "--device", "a.com/x=/dev/x:/dev/x:rwx", `--device "a.com/x=/dev/x:/dev/x:rwx": CONTAINERPATH must be absolute and PERMISSIONS of r, w and m`},
		{"a scheduled time that is not RFC 3339", "--scheduled-time", "tomorrow", `want an RFC 3339 time`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := cli(t, "", "render", tc.flag, tc.value, "-")
			assert.Equal(t, exitUsage, code)
			assert.Contains(t, stderr, tc.want)
		})
	}
}

func TestIsExtendedResource(t *testing.T) {
	for name, want := range map[v1.ResourceName]bool{
		"nvidia.com/gpu": true, "intel.com/intel_sriov_netdevice": true, "example.com/foo": true,
		"cpu": false, "memory": false, "hugepages-2Mi": false, "ephemeral-storage": false,
		"kubernetes.io/something": false, "node.kubernetes.io/x": false, "requests.nvidia.com/gpu": false,
	} {
		assert.Equal(t, want, isExtendedResource(name), string(name))
	}
}

// compact is JSON output without its indentation, for matching a fragment.
func compact(t *testing.T, out string) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, json.Compact(&b, []byte(out)))
	return b.String()
}
