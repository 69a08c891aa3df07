package manifest_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/podconfig/podconfig/manifest"
)

// FuzzRead feeds arbitrary bytes to Read: it never panics, allocates at most a fixed multiple of
// the input's size, and what it returns is complete (every Pod named, bound and traced to its
// document) and the same for the same input. The seeds include the inputs that once made it
// allocate thousands of times their size: aliases that one YAML parser checked and another
// decoded, and nested Lists.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("../cmd/podconfig/testdata/*.yaml")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data, 0)
		}
	}
	for i, in := range hostileInputs() {
		if len(in.doc) <= 20<<10 {
			f.Add([]byte(in.doc), i)
		}
	}
	f.Add([]byte("apiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: List, items: []}]"), 1)
	f.Add([]byte("{\"kind\": \"Pod\", \"apiVersion\": \"v1\", \"metadata\": {\"generateName\": \"x-\"}}"), 2)
	f.Add([]byte("{kind: ConfigMap, apiVersion: v1, metadata: {name: x}, data: &d {a: b}, x: [*d, *d]} ]\""), 3)
	f.Add([]byte("# c\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a, image: b}]}\n---\n---\n"), 4)
	f.Fuzz(func(t *testing.T, data []byte, ordinal int) {
		opts := manifest.Options{Replicas: 3, DefaultTemplates: ordinal%2 == 0}
		if ordinal%3 == 1 {
			o := ordinal % 5
			opts.Ordinal = &o
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		b, err := manifest.Read(opts, manifest.Input{Name: "fuzz", Reader: bytes.NewReader(data)})
		runtime.ReadMemStats(&after)
		// Three replicas of each workload; the first read of a kind fills type caches once.
		if n := after.TotalAlloc - before.TotalAlloc; n > uint64(3*maxAllocRatio*len(data)+(1<<20)) {
			t.Fatalf("%d bytes allocated for %d of input: %q", n, len(data), data)
		}
		if err != nil {
			return
		}
		for _, p := range b.Pods {
			if p.Pod == nil || p.Pod.Name == "" || p.Pod.Spec.NodeName == "" || p.Source == "" {
				t.Fatalf("incomplete pod %+v from %q", p, data)
			}
		}
		again, err := manifest.Read(opts, manifest.Input{Name: "fuzz", Reader: bytes.NewReader(data)})
		if err != nil || len(again.Pods) != len(b.Pods) {
			t.Fatalf("a second read differs: %v", err)
		}
		for i := range b.Pods {
			if again.Pods[i].Pod.Name != b.Pods[i].Pod.Name {
				t.Fatalf("names differ: %q, %q", again.Pods[i].Pod.Name, b.Pods[i].Pod.Name)
			}
		}
	})
}
