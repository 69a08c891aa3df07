package configgen

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/dump"
)

// jsonStrings exercise every escaping rule of encoding/json.
var jsonStrings = []string{
	"", "web", "registry.example/shop/web:1.8.2", `quote " and \ backslash`, "<script>&amp;</script>",
	"\b\f\n\r\t", "\x00\x01\x1f\x7f", "ü日本", "\u2028\u2029", "bad \xff utf-8 \xc3", "\xed\xa0\x80 surrogate",
	"emoji 🙂", "'single'",
}

// referenceHash is kubelet's HashContainer: the spew dump of json.Marshal's bytes, hashed.
func referenceHash(c *v1.Container) uint64 {
	b, _ := json.Marshal(map[string]string{"name": c.Name, "image": c.Image})
	h := fnv.New32a()
	_, _ = fmt.Fprintf(h, "%v", dump.ForHash(b))
	return uint64(h.Sum32())
}

// FuzzHashContainer holds HashContainer's rendering of the JSON bytes to spew's dump, which kubelet hashes.
func FuzzHashContainer(f *testing.F) {
	for _, s := range jsonStrings {
		f.Add(s, "web")
	}
	f.Fuzz(func(t *testing.T, image, name string) {
		c := &v1.Container{Name: name, Image: image}
		if got, want := HashContainer(c), referenceHash(c); got != want {
			t.Fatalf("HashContainer(%q, %q) = %x, kubelet's rendering gives %x", name, image, got, want)
		}
	})
}
