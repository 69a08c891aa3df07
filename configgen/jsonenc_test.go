package configgen

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/dump"
	"k8s.io/utils/ptr"
)

// jsonStrings exercise every escaping rule of encoding/json.
var jsonStrings = []string{
	"", "web", "registry.example/shop/web:1.8.2", `quote " and \ backslash`, "<script>&amp;</script>",
	"\b\f\n\r\t", "\x00\x01\x1f\x7f", "ü日本", "\u2028\u2029", "bad \xff utf-8 \xc3", "\xed\xa0\x80 surrogate",
	"emoji 🙂", "'single'",
}

func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range jsonStrings {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(appendJSONString(nil, s)), "%q", s)
	}
}

func TestAppendPortsJSONMatchesEncodingJSON(t *testing.T) {
	for _, ports := range [][]v1.ContainerPort{
		{{ContainerPort: 80}},
		{{Name: "http", ContainerPort: 8080, Protocol: v1.ProtocolTCP}, {Name: "dns", HostPort: 53, ContainerPort: 53, Protocol: v1.ProtocolUDP, HostIP: "10.0.0.1"}},
		{{Name: "<&>\u2028\xff", HostPort: -1, ContainerPort: -2147483648, Protocol: `"x"`, HostIP: "\n"}},
		{{}},
	} {
		want, err := json.Marshal(ports)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(appendPortsJSON(nil, ports)))
	}
}

// lifecycleHandlers cover every field of a preStop handler, set, empty and left out.
func lifecycleHandlers() []*v1.LifecycleHandler {
	return []*v1.LifecycleHandler{
		{},
		{Exec: &v1.ExecAction{}},
		{Exec: &v1.ExecAction{Command: []string{}}},
		{Exec: &v1.ExecAction{Command: []string{"/bin/sh", "-c", "nginx -s quit; sleep 5 <&> \u2028 \xff"}}},
		{Sleep: &v1.SleepAction{Seconds: 5}},
		{Sleep: &v1.SleepAction{}},
		{Sleep: &v1.SleepAction{Seconds: -9223372036854775808}},
		{HTTPGet: &v1.HTTPGetAction{}},
		{HTTPGet: &v1.HTTPGetAction{Port: intstr.FromInt32(8080)}},
		{HTTPGet: &v1.HTTPGetAction{Path: "/shutdown?now=1&x=<y>", Port: intstr.FromString("http"), Host: "10.0.0.1",
			Scheme: v1.URISchemeHTTPS, HTTPHeaders: []v1.HTTPHeader{{Name: "X-A", Value: "b\"c"}, {}},
			Protocol: ptr.To(v1.HTTPProtocol("H2C"))}},
		{HTTPGet: &v1.HTTPGetAction{Port: intstr.FromInt32(-1), HTTPHeaders: []v1.HTTPHeader{}, Protocol: ptr.To(v1.HTTPProtocol(""))}},
		{TCPSocket: &v1.TCPSocketAction{}},
		{TCPSocket: &v1.TCPSocketAction{Port: intstr.FromInt32(80), Host: "db"}},
		{TCPSocket: &v1.TCPSocketAction{Port: intstr.FromString("\n")}},
		{Exec: &v1.ExecAction{Command: []string{"x"}}, HTTPGet: &v1.HTTPGetAction{Port: intstr.FromInt32(1)},
			TCPSocket: &v1.TCPSocketAction{Port: intstr.FromInt32(2)}, Sleep: &v1.SleepAction{Seconds: 3}},
		{HTTPGet: &v1.HTTPGetAction{Port: intstr.FromInt32(1)}, Sleep: &v1.SleepAction{Seconds: 3}},
		{TCPSocket: &v1.TCPSocketAction{Port: intstr.FromInt32(2)}, Sleep: &v1.SleepAction{}},
	}
}

func TestAppendLifecycleHandlerJSONMatchesEncodingJSON(t *testing.T) {
	for _, h := range lifecycleHandlers() {
		want, err := json.Marshal(h)
		require.NoError(t, err)
		got, ok := appendLifecycleHandlerJSON([]byte("prefix"), h)
		require.True(t, ok, "%s", want)
		assert.Equal(t, "prefix"+string(want), string(got))
	}
}

// A port of no known IntOrString type is left to encoding/json, whose error kubelet reports; the
// buffer is handed back as it was.
func TestAppendLifecycleHandlerJSONLeavesUnknownPortTypes(t *testing.T) {
	bad := intstr.IntOrString{Type: 7, IntVal: 1}
	for _, h := range []*v1.LifecycleHandler{
		{HTTPGet: &v1.HTTPGetAction{Port: bad}},
		{Exec: &v1.ExecAction{Command: []string{"a"}}, TCPSocket: &v1.TCPSocketAction{Port: bad}},
	} {
		got, ok := appendLifecycleHandlerJSON([]byte("prefix"), h)
		assert.False(t, ok)
		assert.Equal(t, "prefix", string(got))
		_, err := json.Marshal(h)
		assert.Error(t, err)
	}
}

// The hand-written encoders know every field of the types they encode: a k8s.io/api upgrade that
// adds one must update them, or the annotations would differ from kubelet's json.Marshal.
func TestJSONEncodedTypesHaveKnownFields(t *testing.T) {
	for typ, want := range map[reflect.Type]string{
		reflect.TypeFor[v1.ContainerPort]():    "name,omitempty hostPort,omitempty containerPort protocol,omitempty hostIP,omitempty",
		reflect.TypeFor[v1.LifecycleHandler](): "exec,omitempty httpGet,omitempty tcpSocket,omitempty sleep,omitempty",
		reflect.TypeFor[v1.ExecAction]():       "command,omitempty",
		reflect.TypeFor[v1.HTTPGetAction]():    "path,omitempty port host,omitempty scheme,omitempty httpHeaders,omitempty protocol,omitempty",
		reflect.TypeFor[v1.HTTPHeader]():       "name value",
		reflect.TypeFor[v1.TCPSocketAction]():  "port host,omitempty",
		reflect.TypeFor[v1.SleepAction]():      "seconds",
	} {
		var tags []string
		for i := 0; i < typ.NumField(); i++ {
			tags = append(tags, typ.Field(i).Tag.Get("json"))
		}
		assert.Equal(t, want, strings.Join(tags, " "), "%s", typ)
	}
}

// referenceHash is kubelet's HashContainer: the spew dump of json.Marshal's bytes, hashed.
func referenceHash(c *v1.Container) uint64 {
	b, _ := json.Marshal(map[string]string{"name": c.Name, "image": c.Image})
	h := fnv.New32a()
	_, _ = fmt.Fprintf(h, "%v", dump.ForHash(b))
	return uint64(h.Sum32())
}

func FuzzHashContainerAndJSON(f *testing.F) {
	for _, s := range jsonStrings {
		f.Add(s, "web")
	}
	f.Fuzz(func(t *testing.T, image, name string) {
		c := &v1.Container{Name: name, Image: image}
		if got, want := HashContainer(c), referenceHash(c); got != want {
			t.Fatalf("HashContainer(%q, %q) = %x, kubelet's rendering gives %x", name, image, got, want)
		}
		want, _ := json.Marshal(image)
		if got := appendJSONString(nil, image); string(got) != string(want) {
			t.Fatalf("appendJSONString(%q) = %s, encoding/json gives %s", image, got, want)
		}
		handler := &v1.LifecycleHandler{Exec: &v1.ExecAction{Command: []string{name, image}},
			HTTPGet: &v1.HTTPGetAction{Path: image, Port: intstr.FromString(name), HTTPHeaders: []v1.HTTPHeader{{Name: name, Value: image}}}}
		wantHandler, _ := json.Marshal(handler)
		if got, ok := appendLifecycleHandlerJSON(nil, handler); !ok || string(got) != string(wantHandler) {
			t.Fatalf("appendLifecycleHandlerJSON = %s, encoding/json gives %s", got, wantHandler)
		}
		ports := []v1.ContainerPort{{Name: name, HostIP: image, Protocol: v1.Protocol(name), ContainerPort: int32(len(image))}}
		wantPorts, _ := json.Marshal(ports)
		if got := appendPortsJSON(nil, ports); string(got) != string(wantPorts) {
			t.Fatalf("appendPortsJSON = %s, encoding/json gives %s", got, wantPorts)
		}
	})
}
