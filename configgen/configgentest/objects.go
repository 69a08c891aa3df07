package configgentest

import "github.com/podconfig/podconfig/offline"

// Objects is offline.Objects, the in-memory store of ConfigMaps, Secrets, Services and the Node.
//
// Deprecated: use offline.Objects.
type Objects = offline.Objects

// NewObjects is offline.NewObjects.
//
// Deprecated: use offline.NewObjects.
func NewObjects(objs ...interface{}) *Objects {
	return offline.NewObjects(objs...)
}
