package offline_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/podconfig/podconfig/offline"
)

func TestThermalPaths(t *testing.T) {
	p := offline.ThermalPaths{"/sys/devices/system/cpu/cpu0/thermal_throttle"}
	got := p.ThermalThrottlePaths()
	assert.Equal(t, []string(p), got)
	got[0] = "changed"
	assert.Equal(t, "/sys/devices/system/cpu/cpu0/thermal_throttle", p[0])
	assert.Empty(t, offline.ThermalPaths{}.ThermalThrottlePaths())
}
