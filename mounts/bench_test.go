package mounts_test

import (
	"io/fs"
	"testing"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/internal/benchpod"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/mounts/mountstest"
)

// benchInput is six volumeMounts (a subPath, a subPathExpr, a read-only mount, a propagation
// mount and two plain ones) for a pod without IPs, so without the hosts mount, on the in-memory
// backends.
func benchInput() (mounts.Input, *mountstest.HostUtils, *mountstest.Subpather) {
	hu := mountstest.NewHostUtils()
	hu.AddPath("/vol/data", 0o777)
	hu.AddPath("/vol/data/conf", 0o755)
	hu.AddPath("/vol/logs", 0o777)
	hu.AddPath("/vol/logs/web-0", 0o755)
	sp := mountstest.NewSubpather(hu)
	return mounts.Input{
		Pod:    &v1.Pod{},
		PodDir: "/var/lib/kubelet/pods/0b5e6a1c-7d7e-4c1f-9f0a-3c2b1a0d9e8f",
		Container: &v1.Container{Name: "web", VolumeMounts: []v1.VolumeMount{
			{Name: "data", MountPath: "/etc/app", SubPath: "conf"},
			{Name: "logs", MountPath: "/var/log/app", SubPathExpr: "$(POD_NAME)"},
			{Name: "secret", MountPath: "/var/run/secrets/app", ReadOnly: true},
			{Name: "shared", MountPath: "/mnt/shared", MountPropagation: prop(v1.MountPropagationHostToContainer)},
			{Name: "cache", MountPath: "/cache"},
			{Name: "tmp", MountPath: "/tmp"},
		}},
		Volumes: mounts.VolumeMap{
			"data":   {HostPath: "/vol/data"},
			"logs":   {HostPath: "/vol/logs"},
			"secret": {HostPath: "/vol/secret", ReadOnly: true},
			"shared": {HostPath: "/vol/shared"},
			"cache":  {HostPath: "/vol/cache"},
			"tmp":    {HostPath: "/vol/tmp"},
		},
		HostUtils: hu,
		Subpather: sp,
		Env:       map[string]string{"POD_NAME": "web-0", "POD_NAMESPACE": "default"},
	}, hu, sp
}

// BenchmarkMakeMounts resolves benchInput's mounts. Each iteration also undoes its binds so every
// iteration prepares afresh.
func BenchmarkMakeMounts(b *testing.B) {
	in, hu, sp := benchInput()
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		ms, cleanup, _, err := mounts.MakeMounts(in)
		if err != nil || len(ms) != 6 {
			b.Fatalf("MakeMounts: %d mounts, %v", len(ms), err)
		}
		cleanup()
		hu.ResetCalls()
		sp.ResetCalls()
	}
}

// BenchmarkMakeMountsBound resolves benchInput's mounts when their binds are in place already, as
// for a container that is created again (and as configgen's benchmarks see them).
func BenchmarkMakeMountsBound(b *testing.B) {
	in, hu, sp := benchInput()
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		ms, _, _, err := mounts.MakeMounts(in)
		if err != nil || len(ms) != 6 {
			b.Fatalf("MakeMounts: %d mounts, %v", len(ms), err)
		}
		hu.ResetCalls()
		sp.ResetCalls()
	}
}

// BenchmarkMakeCRIMounts converts six mounts to CRI and adds an in-memory termination-message file.
func BenchmarkMakeCRIMounts(b *testing.B) {
	ms := make([]mounts.Mount, 6)
	for i := range ms {
		ms[i] = mounts.Mount{Name: "v", HostPath: "/var/lib/kubelet/pods/uid/volumes/v", ContainerPath: "/mnt/v", SELinuxRelabel: true}
	}
	tm := mounts.TerminationMessage{PodContainerDir: "/pod/containers/web", Path: "/dev/termination-log", Files: nopFiles{}, Rand: fixedRand}
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if out, _ := mounts.MakeCRIMounts(ms, tm, true); len(out) != 7 {
			b.Fatal(len(out))
		}
	}
}

// BenchmarkDockerBindStrings renders six mounts with a mix of options.
func BenchmarkDockerBindStrings(b *testing.B) {
	ms := []*runtimeapi.Mount{
		{HostPath: "/vol/a", ContainerPath: "/a", Readonly: true, SelinuxRelabel: true},
		{HostPath: "/vol/b", ContainerPath: "/b", Propagation: runtimeapi.MountPropagation_PROPAGATION_HOST_TO_CONTAINER},
		{HostPath: "/vol/c", ContainerPath: "/c", Propagation: runtimeapi.MountPropagation_PROPAGATION_BIDIRECTIONAL},
		{HostPath: "/vol/d", ContainerPath: "/d"},
		{HostPath: "/vol/e", ContainerPath: "/e", Readonly: true},
		{HostPath: "/vol/f", ContainerPath: "/f"},
	}
	b.ReportAllocs()
	for b.Loop() {
		if binds, _ := mounts.DockerBindStrings(ms); len(binds) != 6 {
			b.Fatal(len(binds))
		}
	}
}

type nopFiles struct{}

func (nopFiles) Create(string) error             { return nil }
func (nopFiles) Chmod(string, fs.FileMode) error { return nil }

// BenchmarkMakeMountsBenchpod resolves internal/benchpod's container's mounts (six subPaths, one a
// subPathExpr, and the hosts mount) on the in-memory backends, with their binds in place, as
// configgen's BenchmarkGenerateContainerConfig sees them.
func BenchmarkMakeMountsBenchpod(b *testing.B) {
	facts := benchpod.NodeFacts()
	pod := benchpod.Pod()
	hu := mountstest.NewHostUtils()
	volumes := benchpod.Volumes(facts.RootDir)
	for _, v := range volumes {
		hu.AddPath(v.HostPath, fs.ModeDir|0o755)
	}
	for path := range benchpod.Files(facts.RootDir) {
		hu.AddPath(path, 0o644)
	}
	podDir := facts.RootDir + "/pods/" + benchpod.UID
	in := mounts.Input{
		Pod: pod, Container: benchpod.Container(pod), PodDir: podDir, PodIPs: facts.PodIPs, Volumes: volumes,
		HostUtils: hu, Subpather: mountstest.NewSubpather(hu), Env: map[string]string{"POD_NAME": benchpod.Name},
		EnsureHostsFile: func() (string, error) { return podDir + "/etc-hosts", nil },
	}
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		ms, _, _, err := mounts.MakeMounts(in)
		if err != nil || len(ms) != 7 {
			b.Fatalf("MakeMounts: %d mounts, %v", len(ms), err)
		}
		hu.ResetCalls()
		in.Subpather.(*mountstest.Subpather).ResetCalls()
	}
}
