package manifest_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/podconfig/podconfig/manifest"
)

// FuzzRead feeds arbitrary bytes to Read: it never panics, and what it returns is complete (every
// Pod named, bound and traced to its document) and the same for the same input.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("../cmd/podconfig/testdata/*.yaml")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data, 0)
		}
	}
	f.Add([]byte("apiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: List, items: []}]"), 1)
	f.Add([]byte("{\"kind\": \"Pod\", \"apiVersion\": \"v1\", \"metadata\": {\"generateName\": \"x-\"}}"), 2)
	f.Fuzz(func(t *testing.T, data []byte, ordinal int) {
		opts := manifest.Options{Replicas: 3, DefaultTemplates: ordinal%2 == 0}
		if ordinal%3 == 1 {
			o := ordinal % 5
			opts.Ordinal = &o
		}
		b, err := manifest.Read(opts, manifest.Input{Name: "fuzz", Reader: bytes.NewReader(data)})
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
