package subpath_test

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/podconfig/podconfig/subpath"
)

// BenchmarkPrepareSafeSubpath prepares one directory subPath bind mount and undoes it per
// iteration, with the real backend. "existing-target" is the common case of a pod whose
// volume-subpaths directories and target are already there (a container restart, an earlier
// CleanSubPaths that failed, a sibling mount), so an iteration is the resolve, the mount and the
// unmount; "new-target" also creates and removes the four directories, which on a disk
// filesystem costs what the filesystem charges for mkdir and rmdir.
func BenchmarkPrepareSafeSubpath(b *testing.B) {
	requireRoot(b)
	for _, bc := range []struct {
		name     string
		opts     []subpath.Option
		existing bool
	}{
		{"openat2/existing-target", nil, true},
		{"walk/existing-target", []subpath.Option{subpath.WithoutOpenat2()}, true},
		{"openat2/new-target", nil, false},
	} {
		b.Run(bc.name, func(b *testing.B) {
			root := testRoot(b)
			podDir := filepath.Join(root, "pods", "uid")
			vol := filepath.Join(root, "pods", "uid", "volumes", "kubernetes.io~empty-dir", "data")
			mkdirs(b, filepath.Join(vol, "config", "app"), podDir)
			f := podFixture{podDir: podDir, vol: vol}
			if bc.existing {
				mkdirs(b, f.target("0"))
			}
			sp := f.subpath("config/app", 0)
			l := subpath.New(bc.opts...)
			b.ReportAllocs()
			for b.Loop() {
				_, cleanup, err := l.PrepareSafeSubpath(sp)
				if err != nil {
					b.Fatal(err)
				}
				cleanup()
			}
		})
	}
}

// BenchmarkSafeMakeDir creates a three-level subPath directory per iteration.
func BenchmarkSafeMakeDir(b *testing.B) {
	root := testRoot(b)
	l := subpath.New()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if err := l.SafeMakeDir(filepath.Join("a", "b", strconv.Itoa(i)), root, 0o755); err != nil {
			b.Fatal(err)
		}
	}
}
