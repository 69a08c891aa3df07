package subpath

// LocalVolume describes a local persistent volume, or a hostPath-like directory, to make
// available in a pod's volume directory (kubelet: the local volume plugin's mounter).
type LocalVolume struct {
	// Name names the volume in errors.
	Name string
	// GlobalPath is the node directory holding the volume's data (the PersistentVolume's
	// spec.local.path). It must not have a ".." element.
	GlobalPath string
	// Dir is the pod's volume directory the data is bound onto, typically
	// <podDir>/volumes/kubernetes.io~local-volume/<Name>.
	Dir string
	// ReadOnly mounts the volume read-only and leaves ownership alone.
	ReadOnly bool
	// FSGroup is the pod's securityContext.fsGroup; when set, the volume's files are given
	// that group and group access.
	FSGroup *int64
	// OnRootMismatch is fsGroupChangePolicy OnRootMismatch: when the volume root already has
	// the group, the setgid bit and the permission bits, nothing is walked.
	OnRootMismatch bool
}
