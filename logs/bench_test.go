package logs_test

import (
	"fmt"
	"testing"

	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/internal/benchpod"
	"github.com/podconfig/podconfig/logs"
)

func BenchmarkCalcRestartCountByLogDir(b *testing.B) {
	m := hostfs.NewMemory()
	const dir = "/var/log/pods/ns_pod_uid/app"
	if err := m.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range 10 {
		if err := m.WriteFile(fmt.Sprintf("%s/%d.log", dir, i), nil, 0o640); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if n, err := logs.CalcRestartCountByLogDir(m, dir); err != nil || n != 10 {
			b.Fatal(n, err)
		}
	}
}

func BenchmarkBuildContainerLogsDirectory(b *testing.B) {
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		_ = logs.BuildContainerLogsDirectory(logs.DefaultPodLogsDirectory, "shop", "web-0", "5f3c2a", "app")
	}
}

func BenchmarkBuildPodLogsDirectory(b *testing.B) {
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		_ = logs.BuildPodLogsDirectory(logs.DefaultPodLogsDirectory, "shop", "web-7d9f8c6b5-x2k4q", "3f0d6b8e-5a8c-4d7e-9b1a-2c4e6f8a0b1c")
	}
}
