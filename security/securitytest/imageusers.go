package securitytest

import "github.com/podconfig/podconfig/security"

// ImageUser is security.ImageUser, kept here for tests written against this package.
type ImageUser = security.ImageUser

// ImageUserMap is security.ImageUserMap, kept here for tests written against this package;
// production code uses security.ImageUserMap.
type ImageUserMap = security.ImageUserMap
