package mounts

import "os"

// HostUtils answers the questions makeMounts asks the host about a subPath.
type HostUtils interface {
	// PathExists reports whether path exists (following symlinks).
	PathExists(path string) (bool, error)
	// GetMode returns the mode bits of path, used for subPath directories it creates.
	GetMode(path string) (os.FileMode, error)
}

// Subpath describes one subPath volumeMount to bind into place (kubelet: subpath.Subpath).
type Subpath struct {
	// VolumeMountIndex is the index of the mount in container.VolumeMounts.
	VolumeMountIndex int
	// Path is the full host path of the subPath inside the volume.
	Path string
	// VolumeName is the volume's inner name; it names a directory under <PodDir>/volume-subpaths.
	VolumeName string
	// VolumePath is the host path of the volume root.
	VolumePath string
	// PodDir is the pod's directory, <rootDir>/pods/<uid>.
	PodDir string
	// ContainerName is the name of the container the mount is for.
	ContainerName string
}

// Subpather performs the host operations behind subPath mounts. The subpath package has the Linux
// implementation; offline.Subpather is the offline node's, which records binds instead of making
// them; mountstest's double records calls.
type Subpather interface {
	// SafeMakeDir creates base/subdir and any missing parents with perm, never leaving base.
	SafeMakeDir(subdir, base string, perm os.FileMode) error
	// PrepareSafeSubpath makes sp.Path available at a path that cannot be swapped for a symlink
	// (kubelet: the bind target <PodDir>/volume-subpaths/<VolumeName>/<ContainerName>/<index>) and
	// returns that path.
	//
	// The returned cleanup, which may be nil, undoes this preparation: it unmounts and removes
	// what this call made (the bind mount, and the target and its parent directories if this call
	// created them and they are empty) and leaves everything else alone, including other
	// containers' and other indexes' targets. It must never delete volume contents. MakeMounts
	// calls it only when the container's mounts cannot be completed; after a successful call the
	// prepared path stays, because the runtime reads it when it starts the container, until
	// CleanSubPaths removes it at pod teardown (as in kubelet). On error, PrepareSafeSubpath
	// undoes its own partial work and the returned cleanup is nil or a no-op.
	PrepareSafeSubpath(sp Subpath) (newHostPath string, cleanup func(), err error)
	// CleanSubPaths removes the bind mounts and directories made for volumeName in podDir.
	CleanSubPaths(podDir, volumeName string) error
}
