package volumes

import (
	"context"
	"fmt"
	"os"
	"testing"

	v1 "k8s.io/api/core/v1"
)

// benchProjected is a projected volume of ten ConfigMap keys and a token.
func benchProjected() (*v1.Pod, *v1.Volume, Sources) {
	data := map[string]string{}
	for i := range 10 {
		data[fmt.Sprintf("key-%d", i)] = fmt.Sprintf("value of key %d\n", i)
	}
	api := testAPI()
	api.cms["shop/ten"] = &v1.ConfigMap{Data: data}
	src := Sources{ConfigMaps: api, Secrets: api, Node: api, Tokens: PlaceholderTokens{}}
	vol := &v1.Volume{Name: "ten", VolumeSource: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: i32(0o644), Sources: []v1.VolumeProjection{
		{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "ten"}}},
	}}}}
	return testPod(), vol, src
}

// BenchmarkPayload measures the payload of a 10-key projected volume (pure: no host).
func BenchmarkPayload(b *testing.B) {
	pod, vol, src := benchProjected()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := src.Payload(ctx, pod, vol); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAtomicWrite measures writing a 10-key payload on the Linux FS (a directory of the
// test's temporary file system) and in memory: a first write into an empty volume, an unchanged
// rewrite (which must write nothing) and a rewrite with one key changed.
func BenchmarkAtomicWrite(b *testing.B) {
	pod, vol, src := benchProjected()
	payload, err := src.Payload(context.Background(), pod, vol)
	if err != nil {
		b.Fatal(err)
	}
	changed := append(Payload(nil), payload...)
	backends := map[string]func(b *testing.B) FS{
		"memory": func(*testing.B) FS { return NewMemoryFS() },
		"linux": func(b *testing.B) FS {
			dir, err := os.MkdirTemp(b.TempDir(), "vol")
			if err != nil {
				b.Fatal(err)
			}
			fsys, err := openBenchFS(dir)
			if err != nil {
				b.Skip(err)
			}
			return fsys
		},
	}
	for _, name := range []string{"linux", "memory"} {
		newFS := backends[name]
		b.Run(name+"/first", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				fsys := newFS(b)
				b.StartTimer()
				if err := NewAtomicWriter(fsys).Write(payload, nil); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				closeFS(fsys)
				b.StartTimer()
			}
		})
		b.Run(name+"/unchanged", func(b *testing.B) {
			fsys := newFS(b)
			defer closeFS(fsys)
			counted := &countingFS{FS: fsys}
			w := NewAtomicWriter(counted)
			if err := w.Write(payload, nil); err != nil {
				b.Fatal(err)
			}
			counted.writes.Store(0)
			b.ReportAllocs()
			for b.Loop() {
				if err := w.Write(payload, nil); err != nil {
					b.Fatal(err)
				}
			}
			if n := counted.writes.Load(); n != 0 {
				b.Fatalf("an unchanged rewrite made %d changes", n)
			}
			b.ReportMetric(0, "writes/op")
		})
		b.Run(name+"/one-key-changed", func(b *testing.B) {
			fsys := newFS(b)
			defer closeFS(fsys)
			w := NewAtomicWriter(fsys)
			if err := w.Write(payload, nil); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				changed[3].Data = []byte(fmt.Sprintf("changed %d", i))
				i++
				if err := w.Write(changed, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
