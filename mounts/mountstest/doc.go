// Package mountstest provides test doubles of mounts.HostUtils and mounts.Subpather: the offline
// node's in-memory ones (offline.HostUtils and offline.Subpather) with every call recorded and
// errors injected, for tests of code that takes the interfaces.
//
// Build them with NewHostUtils and NewSubpather; hand the HostUtils to the Subpather so the
// directories SafeMakeDir creates are seen by PathExists:
//
//	hu := mountstest.NewHostUtils()
//	hu.AddPath("/var/lib/kubelet/pods/uid/volumes/kubernetes.io~empty-dir/data", 0o777)
//	sp := mountstest.NewSubpather(hu)
//
// WrapHostUtils and WrapSubpather put the same recorders around an existing offline node's.
// Both record every call (Calls) and take injected errors through a struct of optional
// per-method funcs (Funcs), as controller-runtime's interceptor.Funcs does: a func that returns
// an error makes the method fail with it and do nothing else.
//
// Current limitations, those of the offline node's model:
//   - Paths are strings: there are no symlinks, so nothing resolves or escapes through one, and
//     the checks are lexical (filepath.Clean), not those of the Linux backend.
//   - PathExists knows only paths added with AddPath or created by SafeMakeDir; a parent of a known
//     path is not known unless added too.
//   - SafeMakeDir does not fail when base is missing or a path element is a file.
//   - PrepareSafeSubpath checks that the subPath source exists only when the Subpather has a
//     HostUtils, and binds nothing: it records target -> source, returned by Binds.
//   - Directories under <podDir>/volume-subpaths are not modelled, only the bind targets.
//   - Umask, ownership, SELinux labels and mount propagation are not modelled.
package mountstest
