package offline

import "github.com/podconfig/podconfig/security"

// ThermalPaths is a fixed security.ThermalThrottlePaths: the thermal_throttle directories a
// rendered container masks, whatever the machine has. Empty renders as a node without them, as
// NewNode's does.
type ThermalPaths []string

var _ security.ThermalThrottlePaths = ThermalPaths(nil)

// ThermalThrottlePaths implements security.ThermalThrottlePaths; the slice is the caller's own.
func (t ThermalPaths) ThermalThrottlePaths() []string {
	return append([]string(nil), t...)
}
