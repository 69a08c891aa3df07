package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
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
		r.nodes = nil // a fresh offline node, as for an input of one pod
		if _, err := r.renderPod(0, bundle.Pods[0]); err != nil {
			b.Fatal(err)
		}
	}
}

// scaleInput writes a manifest of pods pods, each with n containers reading its own ConfigMap
// through envFrom and a key reference, and returns its path.
func scaleInput(b *testing.B, pods, containers int) string {
	b.Helper()
	var sb strings.Builder
	for i := range pods {
		fmt.Fprintf(&sb, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-%d\ndata:\n  MODE: fast\n  LEVEL: \"%d\"\n", i, i)
		fmt.Fprintf(&sb, "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-%d\nspec:\n  containers:\n", i)
		for c := range containers {
			fmt.Fprintf(&sb, "  - name: c%d\n    image: registry.example/app:1\n    envFrom:\n    - configMapRef:\n        name: cm-%d\n    env:\n    - name: LEVEL_COPY\n      valueFrom:\n        configMapKeyRef:\n          name: cm-%d\n          key: LEVEL\n", c, i, i)
		}
	}
	path := filepath.Join(b.TempDir(), "input.yaml")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// renderFile renders path as podconfig render -o format does, to io.Discard.
func renderFile(b *testing.B, path, format string) {
	cfg, _ := newRenderFlags()
	cfg.files = []string{path}
	cfg.output = format
	pw := &podWriter{w: io.Discard, format: format}
	res, err := render(cfg, nil, pw.pod)
	if err != nil {
		b.Fatal(err)
	}
	if err := pw.finish(res.Warnings); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRenderManyPods renders inputs of 2,000 and 8,000 pods, each with a ConfigMap of its
// own, in each output format: the time per pod stays the same as the input grows (the objects
// are stored once for the input, not once per pod, and each pod is written as it is rendered).
func BenchmarkRenderManyPods(b *testing.B) {
	for _, format := range []string{"json", "yaml", "table"} {
		for _, pods := range []int{2000, 8000} {
			b.Run(fmt.Sprintf("o=%s/pods=%d", format, pods), func(b *testing.B) {
				path := scaleInput(b, pods, 1)
				b.ReportAllocs()
				for b.Loop() {
					renderFile(b, path, format)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*pods), "ns/pod")
			})
		}
	}
}

// BenchmarkRenderBigPod renders one pod of 4, 8, 1,000 and 4,000 containers: the time per
// container stays the same as the pod grows. A container's own cost, without the render's fixed
// costs, is the difference between 8 containers and 4, over 4.
func BenchmarkRenderBigPod(b *testing.B) {
	for _, containers := range []int{4, 8, 1000, 4000} {
		b.Run(fmt.Sprintf("containers=%d", containers), func(b *testing.B) {
			path := scaleInput(b, 1, containers)
			b.ReportAllocs()
			for b.Loop() {
				renderFile(b, path, "json")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*containers), "ns/container")
		})
	}
}
