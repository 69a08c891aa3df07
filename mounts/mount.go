package mounts

import runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

// Mount is one mount a container gets, before conversion to CRI (kubelet: kubecontainer.Mount).
type Mount struct {
	// Name is the volume name from the volumeMount, or "k8s-managed-etc-hosts" for the hosts file.
	Name string
	// ContainerPath is the absolute path inside the container.
	ContainerPath string
	// HostPath is the path on the host; for a subPath it is the prepared bind target. Empty for
	// image volumes.
	HostPath string
	// Image is the image to mount, for image volumes.
	Image *runtimeapi.ImageSpec
	// ImageSubPath is the subPath inside the image, for image volumes. As in kubelet, when the pod
	// has any image volume every other mount carries its (expanded) subPath here too; runtimes
	// read it only for image mounts.
	ImageSubPath string
	// ReadOnly asks for a read-only mount.
	ReadOnly bool
	// RecursiveReadOnly asks for submounts to be read-only as well.
	RecursiveReadOnly bool
	// SELinuxRelabel asks the runtime to relabel the mount (only honoured when the host has
	// SELinux enabled, see ToCRIMounts).
	SELinuxRelabel bool
	// Propagation is the mount propagation mode.
	Propagation runtimeapi.MountPropagation
	// BindMountOptions are extra bind options from the volumeMount (noexec, nodev, nosuid).
	BindMountOptions []string
}

// HostsMountName names the mount of the pod's managed /etc/hosts file (kubelet: makeHostsMount).
const HostsMountName = "k8s-managed-etc-hosts"

// HostsContainerPath is the container path of the managed hosts file. A volumeMount at exactly
// this path replaces the managed hosts mount. (hosts.EtcHostsPath is where the file is on the host.)
const HostsContainerPath = "/etc/hosts"

// Deprecated: use HostsContainerPath; hosts.EtcHostsPath is the host path of the same file.
const EtcHostsPath = HostsContainerPath
