package configgen_test

import (
	"context"
	"net"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/configgen"
)

func TestFieldRef(t *testing.T) {
	node := &v1.Node{Status: v1.NodeStatus{Addresses: []v1.NodeAddress{
		{Type: v1.NodeHostName, Address: "node-a"},
		{Type: v1.NodeExternalIP, Address: "203.0.113.7"},
		{Type: v1.NodeInternalIP, Address: "not-an-ip"},
		{Type: v1.NodeInternalIP, Address: "10.0.0.5"},
		{Type: v1.NodeInternalIP, Address: "10.0.0.6"},
		{Type: v1.NodeExternalIP, Address: "2001:DB8::0:7"},
	}}}
	tests := []struct {
		name       string
		apiVersion string
		path       string
		podIPs     []string
		nodeIPs    []net.IP
		node       configgen.NodeGetter
		want       string
		wantErr    string
		wantIs     error
	}{
		{name: "metadata.name", path: "metadata.name", want: "web-0"},
		{name: "metadata.namespace", path: "metadata.namespace", want: "ns"},
		{name: "metadata.uid", path: "metadata.uid", want: "uid-1"},
		{name: "spec.nodeName", path: "spec.nodeName", want: "node-a"},
		{name: "spec.host is the old name of spec.nodeName", path: "spec.host", want: "node-a"},
		{name: "spec.serviceAccountName", path: "spec.serviceAccountName", want: "sa"},
		{name: "whole labels map as sorted quoted lines", path: "metadata.labels", want: "app=\"web\"\ntier=\"front \\\"end\\\"\""},
		{name: "whole annotations map", path: "metadata.annotations", want: `Example.com/Owner="team-a"`},
		{name: "label subscript", path: "metadata.labels['app']", want: "web"},
		{name: "missing label subscript is empty", path: "metadata.labels['nope']", want: ""},
		{name: "annotation subscript is validated in lower case", path: "metadata.annotations['Example.com/Owner']", want: "team-a"},
		{
			name: "label subscript must be a qualified name", path: "metadata.labels['Bad Key']",
			wantErr: "invalid key subscript in metadata.labels['Bad Key']: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
			wantIs:  configgen.ErrFieldRef,
		},
		{
			name: "annotation subscript must be a qualified name", path: "metadata.annotations['/x']",
			wantErr: "invalid key subscript in metadata.annotations['/x']: prefix part must be non-empty",
		},
		{
			name: "empty label subscript is invalid", path: "metadata.labels['']",
			wantErr: "invalid key subscript in metadata.labels['']: name part must be non-empty;name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
		},
		{name: "subscript on another field is rejected", path: "metadata.name['x']", wantErr: "field label does not support subscript: metadata.name['x']", wantIs: configgen.ErrFieldRef},
		{name: "empty apiVersion fails", apiVersion: "-", path: "metadata.name", wantErr: "unsupported pod version: ", wantIs: configgen.ErrFieldRef},
		{name: "apiVersion other than v1 fails", apiVersion: "v2", path: "metadata.name", wantErr: "unsupported pod version: v2"},
		{name: "unknown field fails", path: "spec.containers", wantErr: "field label not supported: spec.containers"},
		{name: "spec.restartPolicy passes conversion but fails", path: "spec.restartPolicy", wantErr: "unsupported fieldPath: spec.restartPolicy", wantIs: configgen.ErrFieldRef},
		{name: "spec.schedulerName passes conversion but fails", path: "spec.schedulerName", wantErr: "unsupported fieldPath: spec.schedulerName"},
		{name: "status.phase passes conversion but fails", path: "status.phase", wantErr: "unsupported fieldPath: status.phase"},
		{name: "pod IP prefers IPv4 without node IPs", path: "status.podIP", podIPs: []string{"fd00::1", "10.244.0.3"}, want: "10.244.0.3"},
		{name: "pod IPs put IPv4 first without node IPs", path: "status.podIPs", podIPs: []string{"fd00::1", "10.244.0.3"}, want: "10.244.0.3,fd00::1"},
		{name: "pod IPs follow an IPv6 primary node IP", path: "status.podIPs", podIPs: []string{"10.244.0.3", "fd00::1"}, nodeIPs: []net.IP{net.ParseIP("fd00::5")}, want: "fd00::1,10.244.0.3"},
		{name: "pod IP follows an IPv4 primary node IP", path: "status.podIP", podIPs: []string{"fd00::1", "10.244.0.3"}, nodeIPs: []net.IP{net.ParseIP("10.0.0.5")}, want: "10.244.0.3"},
		{name: "only the first IP of each family is kept", path: "status.podIPs", podIPs: []string{"10.0.0.1", "10.0.0.2", "fd00::1", "fd00::2"}, want: "10.0.0.1,fd00::1"},
		{name: "pod IPs are re-written in canonical form", path: "status.podIPs", podIPs: []string{"FD00:0:0::0:1", "010.001.000.009"}, want: "10.1.0.9,fd00::1"},
		{name: "IPv4-mapped IPv6 counts as IPv4", path: "status.podIPs", podIPs: []string{"::ffff:10.0.0.1"}, want: "10.0.0.1"},
		{name: "unparseable pod IPs are dropped", path: "status.podIPs", podIPs: []string{"bogus", "fe80::1%eth0", "10.0.0.1"}, want: "10.0.0.1"},
		{name: "with no usable pod IP status.podIP is the first as given", path: "status.podIP", podIPs: []string{"bogus"}, want: "bogus"},
		{name: "with no usable pod IP status.podIPs is empty", path: "status.podIPs", podIPs: []string{"bogus"}, want: ""},
		{name: "no pod IPs", path: "status.podIP", want: ""},
		{name: "host IP is the first InternalIP", path: "status.hostIP", node: staticNode(node), want: "10.0.0.5"},
		{name: "host IPs add the first address of the other family, ExternalIPs after InternalIPs", path: "status.hostIPs", node: staticNode(node), want: "10.0.0.5,2001:db8::7"},
		{
			name: "ExternalIP serves when there is no InternalIP", path: "status.hostIPs",
			node: staticNode(&v1.Node{Status: v1.NodeStatus{Addresses: []v1.NodeAddress{{Type: v1.NodeExternalIP, Address: "203.0.113.7"}}}}),
			want: "203.0.113.7",
		},
		{
			name: "node without IPs fails with its addresses", path: "status.hostIP",
			node:    staticNode(&v1.Node{Status: v1.NodeStatus{Addresses: []v1.NodeAddress{{Type: v1.NodeHostName, Address: "node-a"}}}}),
			wantErr: "host IP unknown; known addresses: [{Hostname node-a}]", wantIs: configgen.ErrNode,
		},
		{name: "no node getter means no host IP", path: "status.hostIPs", wantErr: "host IP unknown; known addresses: []", wantIs: configgen.ErrNode},
		{
			name: "node getter error is returned", path: "status.hostIP",
			node:    configgen.NodeGetterFunc(func(context.Context) (*v1.Node, error) { return nil, errBoom }),
			wantErr: "boom", wantIs: errBoom,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := testPod(fieldEnv("V", tc.path))
			switch tc.apiVersion {
			case "":
			case "-":
				pod.Spec.Containers[0].Env[0].ValueFrom.FieldRef.APIVersion = ""
			default:
				pod.Spec.Containers[0].Env[0].ValueFrom.FieldRef.APIVersion = tc.apiVersion
			}
			in := envInput(pod)
			in.PodIPs, in.NodeIPs, in.Node = tc.podIPs, tc.nodeIPs, tc.node
			got, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				if tc.wantIs != nil {
					assert.ErrorIs(t, err, tc.wantIs)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, vars("V", tc.want), got)
		})
	}
}

// TestFieldRefWholeMaps pins kubelet's fieldpath.FormatMap: keys sorted by byte, written as they
// are, each value quoted as fmt's %q does.
func TestFieldRefWholeMaps(t *testing.T) {
	tests := []struct {
		name   string
		labels map[string]string
		want   string
	}{
		{name: "nil map gives an empty string", labels: nil, want: ""},
		{name: "empty value is an empty quoted string", labels: map[string]string{"a": ""}, want: `a=""`},
		{name: "keys sort by byte, upper case first", labels: map[string]string{"b": "1", "B": "2", "a": "3"}, want: "B=\"2\"\na=\"3\"\nb=\"1\""},
		{name: "printable unicode is kept, control characters are escaped", labels: map[string]string{"k": "é\t\n\x00\u2028"}, want: `k="é\t\n\x00\u2028"`},
		{name: "invalid UTF-8 in a value is escaped byte by byte", labels: map[string]string{"k": "a\xffb"}, want: `k="a\xffb"`},
		{name: "a key is written unquoted, whatever it holds", labels: map[string]string{"x=\"y\"\nz": "v"}, want: "x=\"y\"\nz=\"v\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := testPod(fieldEnv("L", "metadata.labels"), fieldEnv("A", "metadata.annotations"))
			pod.Labels, pod.Annotations = tc.labels, tc.labels
			got, _, err := configgen.MakeEnvironmentVariables(context.Background(), envInput(pod))
			require.NoError(t, err)
			assert.Equal(t, vars("L", tc.want, "A", tc.want), got)
		})
	}
}
