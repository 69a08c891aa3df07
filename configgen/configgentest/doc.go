// Package configgentest renders pods offline in tests, in the spirit of net/http/httptest: a
// configgen.Generator on the offline node (package offline), whose host paths, subPath binds and
// block devices are seen through test doubles that record every call and inject errors.
//
// One line gives a Generator for a typical node:
//
//	node := configgentest.NewNode(configMap, secret, service)
//	gen, err := node.Generator()
//
// and a test injects a failure or checks what the Generator asked of the host:
//
//	node.Subpather.Funcs.PrepareSafeSubpath = func(mounts.Subpath) error { return fs.ErrPermission }
//	node.HostUtils.Calls()
//
// Programs that render pods for their own sake (not in a test) use offline.Node directly: it
// records no calls.
//
// # Current limitations
//
// Those of the offline node (see package offline): nothing touches the host, the volume paths
// are those of the common in-tree types, unlisted images run as root, the node's facts are
// fixed, and Objects is a plain store. The doubles inject errors per method (mountstest) or per
// path (blockdevtest), not per call.
package configgentest
