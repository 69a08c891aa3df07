// Package blockdevtest provides an in-memory blockdev.SymlinkChecker for tests and offline
// rendering.
//
//	links := blockdevtest.NewSymlinks("/var/lib/kubelet/pods/uid/volumeDevices/kubernetes.io~csi/pv1")
//
// Current limitations:
//   - A path is a symlink if it was added, and nothing else exists: there are no targets, so a
//     dangling link counts as existing, as it does for kubelet's lstat-based check.
//   - Errors are injected per path with Fail, not per call.
package blockdevtest
