package configgen

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/dump"
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
		ports := []v1.ContainerPort{{Name: name, HostIP: image, Protocol: v1.Protocol(name), ContainerPort: int32(len(image))}}
		wantPorts, _ := json.Marshal(ports)
		if got := appendPortsJSON(nil, ports); string(got) != string(wantPorts) {
			t.Fatalf("appendPortsJSON = %s, encoding/json gives %s", got, wantPorts)
		}
	})
}
