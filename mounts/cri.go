package mounts

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"path/filepath"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// ToCRIMounts converts mounts to CRI mounts in the same order (kubelet: the first half of
// kuberuntime's makeMounts). SELinux relabelling is requested only when the host has SELinux
// enabled (kubelet asks selinux.GetEnabled(); here it is an input).
func ToCRIMounts(ms []Mount, selinuxEnabled bool) []*runtimeapi.Mount {
	out := make([]*runtimeapi.Mount, len(ms))
	for i := range ms {
		m := &ms[i]
		out[i] = &runtimeapi.Mount{
			HostPath:          m.HostPath,
			ContainerPath:     m.ContainerPath,
			Readonly:          m.ReadOnly,
			SelinuxRelabel:    m.SELinuxRelabel && selinuxEnabled,
			Propagation:       m.Propagation,
			RecursiveReadOnly: m.RecursiveReadOnly,
			Image:             m.Image,
			ImageSubPath:      m.ImageSubPath,
			MountOptions:      m.BindMountOptions,
		}
	}
	return out
}

// FileCreator creates the termination-message file. hostfs.OS and *hostfs.Memory implement it.
type FileCreator interface {
	// Create creates or truncates an empty file.
	Create(path string) error
	// Chmod sets the file's mode.
	Chmod(path string, perm fs.FileMode) error
}

// TerminationMessage describes the container's termination-message file.
type TerminationMessage struct {
	// PodContainerDir is <podDir>/containers/<container name>; empty means no termination file.
	PodContainerDir string
	// Path is the container's terminationMessagePath; empty means no termination file.
	Path string
	// Files creates the file on the host.
	Files FileCreator
	// Rand names the file; nil means math/rand/v2.Uint32. A fixed source makes offline output
	// deterministic.
	Rand func() uint32
}

// MakeTerminationMessageMount creates the termination-message file <PodContainerDir>/<8 hex
// digits> with mode 0666 and returns its mount (kubelet: the second half of kuberuntime's
// makeMounts). It returns no mount when there is no file to make. Kubelet only reports failures
// here and starts the container anyway, so they come back as warnings: when the file cannot be
// created there is no mount; when it cannot be made world-writable the mount stays.
func MakeTerminationMessageMount(tm TerminationMessage, selinuxEnabled bool) (*runtimeapi.Mount, []string) {
	if tm.PodContainerDir == "" || tm.Path == "" {
		return nil, nil
	}
	if tm.Files == nil {
		return nil, []string{fmt.Sprintf("error on creating termination-log file in %q: no FileCreator", tm.PodContainerDir)}
	}
	rnd := tm.Rand
	if rnd == nil {
		rnd = rand.Uint32
	}
	file := filepath.Join(tm.PodContainerDir, fmt.Sprintf("%08x", rnd()))
	if err := tm.Files.Create(file); err != nil {
		return nil, []string{fmt.Sprintf("error on creating termination-log file %q: %v", file, err)}
	}
	var warnings []string
	if err := tm.Files.Chmod(file, 0o666); err != nil {
		warnings = append(warnings, fmt.Sprintf("unable to set termination-log file permissions %q: %v", file, err))
	}
	return &runtimeapi.Mount{
		HostPath:       file,
		ContainerPath:  filepath.Clean("/" + tm.Path),
		SelinuxRelabel: selinuxEnabled,
	}, warnings
}

// MakeCRIMounts is kuberuntime's makeMounts: the container's mounts converted to CRI, in order,
// followed by the termination-message mount when there is one.
func MakeCRIMounts(ms []Mount, tm TerminationMessage, selinuxEnabled bool) ([]*runtimeapi.Mount, []string) {
	out := ToCRIMounts(ms, selinuxEnabled)
	tmMount, warnings := MakeTerminationMessageMount(tm, selinuxEnabled)
	if tmMount != nil {
		out = append(out, tmMount)
	}
	return out, warnings
}
