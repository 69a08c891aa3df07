package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// jsonPodOf is the pod as one jsonPod, marshalled at once.
func jsonPodOf(t *testing.T, p *podResult) []byte {
	t.Helper()
	sandbox, err := marshalProto(p.Sandbox)
	require.NoError(t, err)
	jp := jsonPod{
		jsonPodHead: jsonPodHead{
			Source: p.Source, Namespace: p.Pod.Namespace, Name: p.Pod.Name, UID: string(p.Pod.UID),
			QOSClass: string(p.QOSClass), Sandbox: sandbox,
		},
		Containers:  []jsonContainer{},
		jsonPodTail: jsonPodTail{Volumes: p.Volumes, Warnings: nonNilWarnings(p.Warnings)},
	}
	for _, c := range p.Items {
		cfg, err := marshalProto(c.Config)
		require.NoError(t, err)
		jc := jsonContainer{
			Name: c.Name, Type: c.Type, LogPath: c.LogPath, Env: []jsonEnv{}, HostsFile: c.HostsFile,
			Config: cfg, Warnings: nonNilWarnings(c.Warnings),
		}
		for _, kv := range c.Config.Envs {
			jc.Env = append(jc.Env, jsonEnv{Name: kv.Key, Value: string(kv.Value)})
		}
		jp.Containers = append(jp.Containers, jc)
	}
	doc, err := json.Marshal(jp)
	require.NoError(t, err)
	return doc
}

// indentInPieces runs src through an indenter in pieces of n bytes.
func indentInPieces(t *testing.T, src []byte, n int) []byte {
	t.Helper()
	var out bytes.Buffer
	in := &indenter{w: &out, prefix: "    ", indent: "  "}
	for len(src) > 0 {
		k := min(n, len(src))
		_, err := in.Write(src[:k])
		require.NoError(t, err)
		src = src[k:]
	}
	require.NoError(t, in.flush())
	return out.Bytes()
}

// The pod is written a container at a time, and indented as it is written: the bytes are those
// of the whole jsonPod marshalled and indented at once.
func TestPodJSONInPieces(t *testing.T) {
	files, err := filepath.Glob("testdata/*.yaml")
	require.NoError(t, err)
	cfg, _ := newRenderFlags()
	cfg.files = files
	pods := 0
	_, err = render(cfg, nil, func(p *podResult) error {
		pods++
		want := jsonPodOf(t, p)
		got, err := podJSON(p)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), p.Source)
		var indented bytes.Buffer
		require.NoError(t, json.Indent(&indented, want, "    ", "  "))
		for _, n := range []int{1, 7, 1 << 20} {
			assert.Equal(t, indented.String(), string(indentInPieces(t, want, n)), "%s in pieces of %d", p.Source, n)
		}
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, pods, 20)
}

func TestIndenter(t *testing.T) {
	for _, src := range []string{
		`{}`, `[]`, `{"a":[]}`, `{"a":{},"b":[{}]}`, `[1,"x",true,null]`,
		`{"s":"a\"b\\","t":"{[,:]}","u":"\\\"","v":"\u003c"}`,
		`{"a":{"b":{"c":[1,[2,[3]]]}}}`,
	} {
		var want bytes.Buffer
		require.NoError(t, json.Indent(&want, []byte(src), "    ", "  "))
		for _, n := range []int{1, 2, 100} {
			assert.Equal(t, want.String(), string(indentInPieces(t, []byte(src), n)), "%s", src)
		}
	}
}

func TestPortMappingIsShownAsKubectlShowsPorts(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    *runtimeapi.PortMapping
		want string
	}{
		{"a port without hostPort has no host part", &runtimeapi.PortMapping{Protocol: runtimeapi.Protocol_TCP, ContainerPort: 8443}, "TCP 8443"},
		{"a hostPort on every address is the port alone", &runtimeapi.PortMapping{Protocol: runtimeapi.Protocol_UDP, ContainerPort: 53, HostPort: 5353}, "UDP 53 -> host :5353"},
		{"a hostIP comes before the hostPort", &runtimeapi.PortMapping{Protocol: runtimeapi.Protocol_SCTP, ContainerPort: 8080, HostPort: 80, HostIp: "127.0.0.1"}, "SCTP 8080 -> host 127.0.0.1:80"},
		{"an IPv6 hostIP is in brackets", &runtimeapi.PortMapping{Protocol: runtimeapi.Protocol_TCP, ContainerPort: 9090, HostPort: 9090, HostIp: "::1"}, "TCP 9090 -> host [::1]:9090"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, portMapping(tc.m))
		})
	}
}

// The pod's rows are padded to their own widest key ("cgroup parent"), the container's to theirs
// ("no new privileges"), however long the pod's and the container's names in the header lines;
// ports are shown without a host part unless they map one.
func TestTableKeysArePaddedToTheirOwnColumn(t *testing.T) {
	code, stdout, stderr := cli(t, `apiVersion: v1
kind: Pod
metadata: {name: ports-of-a-pod-with-a-long-name, namespace: ns, uid: 5f0c3a9e-1111-4222-8333-944455556666}
spec:
  containers:
  - name: a-container-with-a-long-name
    image: app:1
    ports:
    - {containerPort: 8443}
    - {containerPort: 53, protocol: UDP, hostPort: 5353}
    - {containerPort: 9090, hostPort: 9090, hostIP: "::1"}
`, "render", "--admission=false", "--image-user", "app:1=1000", "-o", "table", "-")
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, `POD ns/ports-of-a-pod-with-a-long-name  stdin: document 1 (Pod ports-of-a-pod-with-a-long-name)
  qos            BestEffort
  hostname       ports-of-a-pod-with-a-long-name
  dns            servers [10.96.0.10], searches [ns.svc.cluster.local svc.cluster.local cluster.local], options [ndots:5]
  cgroup parent  /kubepods/besteffort/pod5f0c3a9e-1111-4222-8333-944455556666
  namespaces     network POD, pid CONTAINER, ipc POD
  port           TCP 8443
  port           UDP 53 -> host :5353
  port           TCP 9090 -> host [::1]:9090
  CONTAINER a-container-with-a-long-name  container, image app:1
    user               uid 1000
    capabilities       add [], drop []
    privileged         false
    read-only root     false
    no new privileges  false
    seccomp            Unconfined
    apparmor           (none)
    cpu                shares 2, quota 0, period 100000
    memory limit       0
    oom score adj      1000
    mount              /etc/hosts <- /var/lib/kubelet/pods/5f0c3a9e-1111-4222-8333-944455556666/etc-hosts (rw)
    mount              /dev/termination-log <- /var/lib/kubelet/pods/5f0c3a9e-1111-4222-8333-944455556666/containers/a-container-with-a-long-name/0000002a (rw)
    env                KUBERNETES_PORT KUBERNETES_PORT_443_TCP KUBERNETES_PORT_443_TCP_ADDR KUBERNETES_PORT_443_TCP_PORT KUBERNETES_PORT_443_TCP_PROTO KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT KUBERNETES_SERVICE_PORT_HTTPS
`, stdout)
}
