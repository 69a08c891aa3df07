package hostfs_test

import (
	"io"
	"testing"

	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/internal/benchpod"
)

// benchPodDir is a pod directory as deep as kubelet's, <root>/pods/<uid>.
const benchPodDir = "/var/lib/kubelet/pods/5f3c2a8e-1b4d-4c6f-9a7e-2d8b0c1e3f45"

// benchMemory is a tree with a pod's directories, its etc-hosts file and an env file in a volume.
func benchMemory(b *testing.B) *hostfs.Memory {
	b.Helper()
	m := hostfs.NewMemory()
	for _, dir := range []string{benchPodDir + "/volumes/kubernetes.io~empty-dir/config", benchPodDir + "/plugins"} {
		if err := m.MkdirAll(dir, 0o750); err != nil {
			b.Fatal(err)
		}
	}
	if err := m.WriteFile(benchPodDir+"/etc-hosts", []byte("127.0.0.1\tlocalhost\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := m.WriteFile(benchPodDir+"/volumes/kubernetes.io~empty-dir/config/app.env", []byte("A=1\nB=2\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkMemoryLstat describes an existing directory, as the pod-directory checks do on every call.
func BenchmarkMemoryLstat(b *testing.B) {
	m := benchMemory(b)
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		fi, err := m.Lstat(benchPodDir + "/volumes")
		if err != nil || !fi.IsDir() {
			b.Fatal(fi, err)
		}
	}
}

// BenchmarkMemoryStatMissing looks up a file that does not exist.
func BenchmarkMemoryStatMissing(b *testing.B) {
	m := benchMemory(b)
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if _, err := m.Stat(benchPodDir + "/containers"); err == nil {
			b.Fatal("found")
		}
	}
}

// BenchmarkMemoryMkdirAllExisting is MkdirAll of a directory that is already there.
func BenchmarkMemoryMkdirAllExisting(b *testing.B) {
	m := benchMemory(b)
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if err := m.MkdirAll(benchPodDir+"/plugins", 0o750); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMemoryWriteFile rewrites the pod's etc-hosts file, as every container config does.
func BenchmarkMemoryWriteFile(b *testing.B) {
	m := benchMemory(b)
	data := []byte("# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n")
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if err := m.WriteFile(benchPodDir+"/etc-hosts", data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMemoryOpenBeneath opens, stats and reads an env file in a volume, as a fileKeyRef does.
func BenchmarkMemoryOpenBeneath(b *testing.B) {
	m := benchMemory(b)
	buf := make([]byte, 64)
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		f, err := m.OpenBeneath(benchPodDir+"/volumes/kubernetes.io~empty-dir", "config/app.env")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.Stat(); err != nil {
			b.Fatal(err)
		}
		if _, err := f.Read(buf); err != nil && err != io.EOF {
			b.Fatal(err)
		}
		_ = f.Close()
	}
}
