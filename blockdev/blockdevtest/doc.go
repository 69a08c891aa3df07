// Package blockdevtest provides a test double of blockdev.SymlinkChecker: the offline node's
// block devices (offline.BlockDevices) with errors injected per path.
//
//	links := blockdevtest.NewSymlinks("/var/lib/kubelet/pods/uid/volumeDevices/kubernetes.io~csi/pv1")
//	links.Fail("/var/lib/kubelet/pods/uid/volumeDevices/kubernetes.io~csi/pv2", syscall.EIO)
//
// Current limitations:
//   - A path is a symlink if it was added, and nothing else exists: there are no targets, so a
//     dangling link counts as existing, as it does for kubelet's lstat-based check.
//   - Errors are injected per path with Fail, not per call.
package blockdevtest
