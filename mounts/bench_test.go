package mounts_test

import (
	"testing"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/mounts/mountstest"
)

// BenchmarkMakeMounts resolves six volumeMounts (a subPath, a subPathExpr, a read-only mount, a
// propagation mount and two plain ones) for a pod without IPs, so without the hosts mount, on the
// in-memory backends. Each iteration also undoes its binds so every iteration prepares afresh.
func BenchmarkMakeMounts(b *testing.B) {
	hu := mountstest.NewHostUtils()
	hu.AddPath("/vol/data", 0o777)
	hu.AddPath("/vol/data/conf", 0o755)
	hu.AddPath("/vol/logs", 0o777)
	hu.AddPath("/vol/logs/web-0", 0o755)
	sp := mountstest.NewSubpather(hu)
	in := mounts.Input{
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
	}
	b.ReportAllocs()
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
