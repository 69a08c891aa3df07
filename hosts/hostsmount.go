package hosts

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/internal/pathelem"
)

// Deprecated names of the managed hosts file's mount, whose one home is the mounts package that
// makes the mount.
const (
	// Deprecated: use mounts.HostsMountName.
	MountName = "k8s-managed-etc-hosts"
	// Deprecated: use mounts.HostsContainerPath.
	ContainerPath = "/etc/hosts"
)

const (
	// nodeHostsPath is the node's own hosts file, copied for host-network pods.
	nodeHostsPath = "/etc/hosts"
	// fileMode is the mode of the managed hosts file, whatever the umask.
	fileMode fs.FileMode = 0o644
)

// FileWriter is what MakeHostsFile needs from the host. hostfs.OS and *hostfs.Memory implement it.
type FileWriter interface {
	// WriteFile writes data to path, rewriting an existing file in place.
	WriteFile(path string, data []byte, perm fs.FileMode) error
	// Chmod sets the mode of path.
	Chmod(path string, perm fs.FileMode) error
}

var (
	_ FileWriter = hostfs.OS{}
	_ FileWriter = (*hostfs.Memory)(nil)
)

// EtcHostsPath returns the host path of a pod's managed hosts file, "<podDir>/etc-hosts" made
// absolute and clean, as kubelet's getEtcHostsPath does on Linux.
func EtcHostsPath(podDir string) string {
	if strings.HasPrefix(podDir, "/") {
		// Clean collapses the leading slashes "/" + podDir would double; one concatenation fewer.
		return filepath.Clean(podDir + "/etc-hosts")
	}
	return filepath.Clean("/" + podDir + "/etc-hosts")
}

// ensureHostsFile writes content to path with mode 0644 whatever the umask, as kubelet's
// ensureHostsFile does: WriteFile rewrites an existing file in place, so running containers that
// hold it see the new contents and its inode does not change, then Chmod fixes the mode, since the
// umask may have narrowed a new file's mode and an existing file keeps its own. Errors are returned
// unwrapped, as kubelet returns them. Like kubelet's, it writes on every call and leaves what a
// failure left; hostfs.OS's WriteFile keeps the old content when the write itself fails. A
// configgen.Generator goes further for the pod's etc-hosts: it chmods only a file whose mode
// changed, and removes a file it has just created when writing or chmodding it fails.
func ensureHostsFile(w FileWriter, path string, content []byte) error {
	if w == nil {
		return fmt.Errorf("writing %s: no FileWriter", path)
	}
	if err := w.WriteFile(path, content, fileMode); err != nil {
		return err
	}
	return w.Chmod(path, fileMode)
}

// readNodeHostsFile reads the node's /etc/hosts from the real file system. It is the default
// HostsFileOptions.NodeHosts.
func readNodeHostsFile() ([]byte, error) {
	return hostfs.OS{}.ReadFile(nodeHostsPath)
}

// HostsFileOptions are the inputs of MakeHostsFile and HostsFileContent: kubelet's makeHostsMount
// arguments, plus where the node's own hosts file comes from.
type HostsFileOptions struct {
	// PodDir is the pod's directory, <rootDir>/pods/<uid>, where MakeHostsFile writes the file.
	PodDir string
	// PodIPs are the pod's IPs, in the order their lines appear.
	PodIPs []string
	// HostName and HostDomainName come from GeneratePodHostNameAndDomain.
	HostName, HostDomainName string
	// HostAliases is spec.hostAliases.
	HostAliases []v1.HostAlias
	// HostNetwork is spec.hostNetwork: the file is then the node's hosts file plus the aliases.
	HostNetwork bool
	// NodeHosts returns the node's hosts file; it is called only for host-network pods. nil means
	// readNodeHostsFile. Offline renderers pass fixed bytes so the output does not depend on the host.
	NodeHosts func() ([]byte, error)
}

// MakeHostsFile builds the pod's hosts file and writes it to EtcHostsPath(opts.PodDir) through w,
// returning that path: kubelet's makeHostsMount and ensureHostsFile, less the mount itself, which
// the caller builds as {Name: mounts.HostsMountName, ContainerPath: mounts.HostsContainerPath,
// HostPath: path, SELinuxRelabel: true} (mounts.MakeMounts does). PodDir must be absolute and free of "..". The content is built and validated before anything is written, so an
// invalid pod leaves the host untouched.
func MakeHostsFile(w FileWriter, opts HostsFileOptions) (string, error) {
	if !filepath.IsAbs(opts.PodDir) || pathelem.HasDotDot(opts.PodDir) {
		return "", &kindError{Kind: ErrInvalidPodDir, Msg: fmt.Sprintf("pod directory %q must be an absolute path without '..'", opts.PodDir)}
	}
	content, err := HostsFileContent(opts)
	if err != nil {
		return "", err
	}
	path := EtcHostsPath(opts.PodDir)
	if err := ensureHostsFile(w, path, content); err != nil {
		return "", err
	}
	return path, nil
}

// HostsFileContent returns the pod's hosts file as MakeHostsFile writes it, without writing it:
// for a pod on the pod network, kubelet's managedHostsFileContent (localhost lines, the pod's IPs
// with its FQDN and hostname, the hostAliases); for a host-network pod, kubelet's
// nodeHostsFileContent (the node's hosts file and the hostAliases). PodDir is not read. Every
// entry is checked first, so a hostAlias cannot add lines of its own (ErrInvalidHostsEntry).
func HostsFileContent(opts HostsFileOptions) ([]byte, error) {
	if !opts.HostNetwork {
		return managedHostsFileContent(opts.PodIPs, opts.HostName, opts.HostDomainName, opts.HostAliases)
	}
	read := opts.NodeHosts
	if read == nil {
		read = readNodeHostsFile
	}
	nodeHosts, err := read()
	if err != nil {
		return nil, err
	}
	return nodeHostsFileContent(nodeHosts, opts.HostAliases)
}
