package security

import "github.com/podconfig/podconfig/internal/sysctl"

// Helpers the package's own calls are made of, exported for its external tests only.
var (
	AddNoNewPrivileges                = addNoNewPrivileges
	AppArmorProfile                   = appArmorProfile
	ApplyNamespaceTarget              = applyNamespaceTarget
	DetermineEffectiveSecurityContext = determineEffectiveSecurityContext
	HasPrivilegedContainer            = hasPrivilegedContainer
	NormalizeSysctlName               = sysctl.Normalize
	SeccompProfile                    = seccompProfile
	ReadonlyPaths                     = readonlyPaths
)
