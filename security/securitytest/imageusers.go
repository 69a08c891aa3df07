package securitytest

import "github.com/podconfig/podconfig/security"

// ImageUser is security.ImageUser.
//
// Deprecated: use security.ImageUser.
type ImageUser = security.ImageUser

// ImageUserMap is security.ImageUserMap.
//
// Deprecated: use security.ImageUserMap.
type ImageUserMap = security.ImageUserMap
