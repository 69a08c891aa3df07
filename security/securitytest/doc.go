// Package securitytest provides in-memory implementations of the security package's interfaces for
// offline rendering and tests.
//
// One line each:
//
//	images := securitytest.ImageUserMap{"app:1": {UID: ptr.To[int64](1000)}}
//	userns := securitytest.FixedUserNamespaces(65536)
//	classes := securitytest.RuntimeClasses{"gvisor": "runsc"}
//	thermal := securitytest.ThermalPaths{} // no host-dependent masked paths
//
// Current limitations:
//   - ImageUserMap knows only the images in the map; any other image runs as root (uid 0), as an
//     image a runtime does not report does in kubelet. It never fails.
//   - UserNamespaces keeps its allocations in memory only: nothing is persisted under the pod
//     directory, so a new UserNamespaces forgets earlier pods, and it never reads the node's
//     /etc/subuid. Lengths other than 65536 are not validated against the kubelet's rules.
//   - RuntimeClasses is a static map: no RuntimeClass API objects, no informer, no overhead or
//     scheduling fields.
//   - ThermalPaths returns exactly the paths it holds; it does not check that they exist.
package securitytest
