package subpath_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/podconfig/podconfig/subpath"
)

// BenchmarkRemoveTree removes a volume-like tree of 100 directories of 10 files each, with
// RemoveAllOneFilesystem and, for comparison, os.RemoveAll (which crosses mounts).
func BenchmarkRemoveTree(b *testing.B) {
	build := func(dir string) {
		for d := range 100 {
			sub := filepath.Join(dir, fmt.Sprintf("d%d", d))
			if err := os.MkdirAll(sub, 0o755); err != nil {
				b.Fatal(err)
			}
			for f := range 10 {
				if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%d", f)), nil, 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	l := subpath.New()
	for name, remove := range map[string]func(string) error{
		"RemoveAllOneFilesystem": l.RemoveAllOneFilesystem,
		"os.RemoveAll":           os.RemoveAll,
	} {
		b.Run(name, func(b *testing.B) {
			root := b.TempDir()
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				dir := filepath.Join(root, fmt.Sprint(i))
				build(dir)
				b.StartTimer()
				if err := remove(dir); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
