package main

import (
	"os"
	"strings"
	"testing"

	"github.com/podconfig/podconfig/manifest"
)

// BenchmarkDefaultsAndRenderPod measures what podconfig render does per pod once the input is
// read: the render identity and the API server's defaults, then the sandbox config and every
// container's config on a fresh offline node. The pod is deployment-web.yaml's, with envFrom, a
// Secret reference, service links, resources and an emptyDir.
func BenchmarkDefaultsAndRenderPod(b *testing.B) {
	data, err := os.ReadFile("testdata/deployment-web.yaml")
	if err != nil {
		b.Fatal(err)
	}
	cfg, _ := newRenderFlags()
	bundle, err := manifest.Read(manifest.Options{DefaultTemplates: true}, manifest.Input{Name: "web", Reader: strings.NewReader(string(data))})
	if err != nil {
		b.Fatal(err)
	}
	r := &renderer{cfg: cfg, bundle: bundle, objects: objectsOf(bundle)}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := r.renderPod(0, bundle.Pods[0]); err != nil {
			b.Fatal(err)
		}
	}
}
