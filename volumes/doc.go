// Package volumes puts into and around a pod's volumes what kubelet's configMap, secret,
// downwardAPI, projected, emptyDir and hostPath volume plugins put there.
//
// It has three layers, each usable on its own:
//
//   - Payloads, pure and offline: [Sources.Payload] turns a pod's volume into the list of files
//     kubelet would write (path, bytes, mode, owner), from ConfigMaps, Secrets, the pod itself, the
//     node's allocatable resources, service-account tokens, ClusterTrustBundles and pod
//     certificates served by small interfaces. A virtual-kubelet provider can ship a [Payload]
//     anywhere; no host and no root are needed.
//   - Tokens: [TokenManager] is kubelet's service-account token cache around a [TokenRequester].
//   - Host effects: [AtomicWriter] writes a payload as kubelet's atomic writer does (a
//     timestamped directory, the ..data symlink swapped by rename, user-visible symlinks) through
//     an [FS] rooted at the volume directory; the Linux [FS] walks every path below the volume
//     with file descriptors opened O_NOFOLLOW, so a symlink a container planted cannot redirect a
//     write. [ChangeOwnership] is kubelet's fsGroup pass over a volume. [Manager] sets volumes
//     up (emptyDir on disk, tmpfs or hugetlbfs; hostPath with its type checks; configMap on disk
//     and secret, downwardAPI and projected on a memory-backed mount, as kubelet puts them),
//     and returns the [mounts.Volume] each becomes; its TearDown unmounts and removes without
//     crossing a mount or following a symlink. Its [Host] is [NewLinuxHost] or [NewMemoryHost].
//
// Error texts are kubelet's; payload paths are validated as kubelet's atomic writer validates
// them, and also after cleaning, so no path reaches the writer's own ..data or timestamp names.
package volumes
