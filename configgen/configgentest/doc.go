// Package configgentest renders pods offline: a configgen.Generator with in-memory backends, an
// in-memory API for ConfigMaps, Secrets, Services and the Node, and kubelet's volume paths, in the
// spirit of net/http/httptest.
//
// One line gives a Generator for a typical node:
//
//	node := configgentest.NewNode(configMap, secret, service)
//	gen, err := node.Generator()
//
// # Current limitations
//
//   - Nothing touches the host: files live in Node.Files (a *hostfs.Memory), subPath binds are
//     recorded by Node.Subpather, block-device symlinks are those in Node.BlockDevices.
//   - Volumes knows the paths of the common in-tree volume types (emptyDir, configMap, secret,
//     downwardAPI, projected, hostPath, persistentVolumeClaim as CSI, ephemeral, image); a
//     persistentVolumeClaim's PV name is taken to be the claim name.
//   - Images not listed in Node.ImageUsers run as root, as an image that names no user does.
//   - The node's facts are fixed (see NewNode), not read from the machine.
//   - Objects is a plain store: no watches, no resource versions, no namespaces' existence.
package configgentest
