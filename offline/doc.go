// Package offline is a node with no host: a configgen.Generator over host files in memory, a
// subPath backend that records binds instead of making them, image users from a map and an
// in-memory store of API objects. It is what `podconfig render` renders on; minikubelet keeps its
// manifest's objects in its store and its pods' user namespaces in its allocator, and the
// conformance suite renders podconfig's side of each scenario on its parts.
//
// One line gives a Generator:
//
//	node := offline.NewNode(configMap, secret, service)
//	gen, err := node.Generator()
//
// then, per pod, node.Volumes(pod) gives the mounted volumes a ContainerRequest takes, and
// node.RemovePod(pod) forgets the pod once it is rendered.
//
// # What it assumes
//
// What a manifest cannot say, the offline node assumes, and says so here:
//
//   - Nothing is mounted and nothing is written to the machine: every file is in Node.Files, a
//     hostfs.Memory, and a subPath bind is recorded by Node.Subpather (Binds), not made. A path
//     exists for subPath checks when Node.HostUtils knows it: a volume directory Volumes made, a
//     directory the Subpather made, or one added with AddPath.
//   - Volumes are where kubelet mounts them (MountedVolume),
//     <RootDir>/pods/<uid>/volumes/<plugin>/<name>, as empty directories; a hostPath volume is its
//     own path. The common in-tree types are known (emptyDir, configMap, secret, downwardAPI,
//     projected, hostPath, persistentVolumeClaim and ephemeral as CSI, image); a
//     persistentVolumeClaim's PersistentVolume is taken to be named as the claim. A block-mode
//     claim has no device: give its Volume a BlockDevicePath and add that path to
//     Node.BlockDevices (render's --allow-missing does, as a placeholder).
//   - An image runs as the user Node.ImageUsers gives it; an image it does not list runs as root,
//     as an image that names no user does.
//   - ConfigMaps, Secrets, Services and the Node come from Node.Objects, a plain store with no
//     API server behind it.
//   - The node's facts are fixed (see NewNode), not read from the machine: Node.Options is the
//     place to change them.
//   - User namespaces are handed out in memory (UserNamespaces), with no /etc/subuid and nothing
//     persisted; RuntimeClasses are a map (RuntimeClasses).
//
// # What it writes
//
// Into Node.Files, as kubelet writes them on a node: the pod's directories (<RootDir>/pods/<uid>,
// its volumes and plugins directories), its etc-hosts file, each container's directory and
// termination-message file (<RootDir>/pods/<uid>/containers/<name>/0000002a), the log directories
// (<PodLogsDir>/<namespace>_<name>_<uid>/<container>), and the volume directories Volumes makes.
// Node.HostUtils learns those volume directories and the subPath directories made in them;
// Node.Subpather holds the binds. RemovePod takes all of a pod's back.
package offline
