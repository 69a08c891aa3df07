package features_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/podconfig/podconfig/features"
)

func TestDefault(t *testing.T) {
	tests := []struct {
		name string
		got  bool
		want bool
	}{
		{"EnvFiles is beta, on by default", features.Default().EnvFiles, true},
		{"PodLevelResources is beta, on by default", features.Default().PodLevelResources, true},
		{"MemoryQoS is beta since v1.37, on by default", features.Default().MemoryQoS, true},
		{"CustomCPUCFSQuotaPeriod is on by default", features.Default().CustomCPUCFSQuotaPeriod, true},
		{"ContainerStopSignals is alpha, off", features.Default().ContainerStopSignals, false},
		{"DefaultPodSysctls is alpha, off", features.Default().DefaultPodSysctls, false},
		{"DRANodeAllocatableResources is alpha, off", features.Default().DRANodeAllocatableResources, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, tt.got) })
	}
}
