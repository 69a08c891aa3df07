package securitytest

import "github.com/podconfig/podconfig/offline"

// DefaultIDsPerPod is offline.DefaultIDsPerPod.
//
// Deprecated: use offline.DefaultIDsPerPod.
const DefaultIDsPerPod = offline.DefaultIDsPerPod

// UserNamespaces is offline.UserNamespaces.
//
// Deprecated: use offline.UserNamespaces.
type UserNamespaces = offline.UserNamespaces

// FixedUserNamespaces is offline.FixedUserNamespaces.
//
// Deprecated: use offline.FixedUserNamespaces.
func FixedUserNamespaces(hostID uint32) *UserNamespaces {
	return offline.FixedUserNamespaces(hostID)
}

// AllocatingUserNamespaces is offline.AllocatingUserNamespaces.
//
// Deprecated: use offline.AllocatingUserNamespaces.
func AllocatingUserNamespaces(firstHostID uint32, blocks int) *UserNamespaces {
	return offline.AllocatingUserNamespaces(firstHostID, blocks)
}

// RuntimeClasses is offline.RuntimeClasses.
//
// Deprecated: use offline.RuntimeClasses.
type RuntimeClasses = offline.RuntimeClasses

// ThermalPaths is offline.ThermalPaths.
//
// Deprecated: use offline.ThermalPaths.
type ThermalPaths = offline.ThermalPaths
