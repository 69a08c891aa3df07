package subpath_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/subpath"
)

// SafeMakeDir creates a subPath directory with the volume's mode and refuses one that a symlink
// in the volume leads outside of.
func ExampleLinux_SafeMakeDir() {
	vol, _ := os.MkdirTemp("", "volume")
	defer os.RemoveAll(vol)
	_ = os.Symlink("/etc", filepath.Join(vol, "escape"))

	l := subpath.New()
	err := l.SafeMakeDir("logs/app", vol, 0o775|os.ModeSetgid)
	fi, _ := os.Stat(filepath.Join(vol, "logs", "app"))
	fmt.Println(err, fi.Mode())

	err = l.SafeMakeDir("escape/app", vol, 0o755)
	fmt.Println(errors.Is(err, subpath.ErrOutsideBase))
	// Output:
	// <nil> dgrwxrwxr-x
	// true
}

// PrepareSafeSubpath binds a subPath at a path the container runtime can use; the cleanup undoes
// it if building the rest of the container's mounts fails, while a created container keeps the
// mount until CleanSubPaths removes the pod's subPaths. It needs root.
func ExampleLinux_PrepareSafeSubpath() {
	l := subpath.New()
	podDir := "/var/lib/kubelet/pods/uid-1"
	volumePath := filepath.Join(podDir, "volumes/kubernetes.io~empty-dir/data")
	hostPath, cleanup, err := l.PrepareSafeSubpath(mounts.Subpath{
		VolumeMountIndex: 0,
		Path:             filepath.Join(volumePath, "config"),
		VolumeName:       "data",
		VolumePath:       volumePath,
		PodDir:           podDir,
		ContainerName:    "app",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := createContainer(hostPath); err != nil {
		cleanup()
		return
	}
	// When the pod goes away:
	_ = l.CleanSubPaths(podDir, "data")
}

func createContainer(string) error { return nil }

// CleanupPodDir removes a torn-down pod's directory as kubelet's orphaned-pod cleanup does, but
// never through a symlink or a mount: a symlink a container planted is removed as a link, and
// the host's files it points at stay.
func ExampleLinux_CleanupPodDir() {
	root, _ := os.MkdirTemp("", "kubelet")
	defer os.RemoveAll(root)
	host := filepath.Join(root, "host")
	_ = os.MkdirAll(host, 0o755)
	_ = os.WriteFile(filepath.Join(host, "precious"), []byte("host data"), 0o644)

	podDir := filepath.Join(root, "pods", "uid-1")
	_ = os.MkdirAll(filepath.Join(podDir, "volumes", "kubernetes.io~empty-dir", "cache"), 0o750)
	_ = os.MkdirAll(filepath.Join(podDir, "containers", "app"), 0o750)
	_ = os.WriteFile(filepath.Join(podDir, "etc-hosts"), nil, 0o644)
	_ = os.Symlink(host, filepath.Join(podDir, "containers", "app", "link"))

	err := subpath.New().CleanupPodDir(podDir)
	_, podErr := os.Stat(podDir)
	_, hostErr := os.Stat(filepath.Join(host, "precious"))
	fmt.Println(err, os.IsNotExist(podErr), hostErr)
	// Output: <nil> true <nil>
}
