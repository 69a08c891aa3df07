package configgen

import (
	"fmt"
	"path/filepath"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/internal/errkind"
)

// ErrHost: an operation on the host's files failed (a directory could not be made). The cause is
// kept for errors.Is, e.g. fs.ErrPermission.
var ErrHost = errkind.Sentinel(errkind.DependencyFailed, "host operation failed")

// podDataDirMode is the mode kubelet's makePodDataDirs gives the pod's directories.
const podDataDirMode = 0o750

// PodDataDirs returns the pod's data directories in the order MakePodDataDirs makes them:
// <RootDir>/pods/<uid>, then its volumes and plugins directories (kubelet's getPodDir,
// getPodVolumesDir, getPodPluginsDir).
func (g *Generator) PodDataDirs(pod *v1.Pod) ([]string, error) {
	if pod == nil {
		return nil, fmt.Errorf("%w: pod must not be nil", ErrInvalidPod)
	}
	podDir, err := g.PodDir(pod)
	if err != nil {
		return nil, err
	}
	return []string{podDir, filepath.Join(podDir, "volumes"), filepath.Join(podDir, "plugins")}, nil
}

// MakePodDataDirs makes the pod's data directories that are missing, as kubelet's
// makePodDataDirs does before it starts a pod: <RootDir>/pods/<uid>, <podDir>/volumes and
// <podDir>/plugins, mode 0750 (less the umask on the host), through Options.Files. Existing
// directories are left as they are.
//
// GeneratePodSandboxConfig, GenerateContainerConfig and GenerateRunContainerOptions call it once
// the pod's spec has passed every check, so the pod's etc-hosts file and container directories
// have a parent even for a pod with no volumes (kubelet's volume manager would otherwise be the
// first to make the pod directory). Call it yourself to make the directories before mounting
// volumes. A failure is an *Error (ReasonFailed; ErrHost, with
// ErrDependencyFailed as its category) naming the pod; kubelet's event text is kept.
func (g *Generator) MakePodDataDirs(pod *v1.Pod) error {
	if err := g.built(); err != nil {
		return asError(err, ReasonFailed, pod, nil)
	}
	return asError(g.makePodDataDirs(pod), ReasonFailed, pod, nil)
}

func (g *Generator) makePodDataDirs(pod *v1.Pod) error {
	return g.makePodHostFiles(pod, "", "", nil)
}

// makePodHostFiles makes the pod's data directories, then the container's log directory logDir
// (when set) and the pod's etc-hosts file (when hostsFile is set), and on a failure removes the
// directories it made. It holds the pod's entry of podDirLocks throughout, so another call for
// the same pod neither finds directories this one is about to take back nor loses its own.
func (g *Generator) makePodHostFiles(pod *v1.Pod, logDir, containerName string, hostsFile *deferredWrites) error {
	if err := checkPodIdentity(pod); err != nil {
		return err
	}
	defer g.lockPodDirs(pod).Unlock()
	made := &madeDirs{files: g.files}
	err := g.makePodDataDirsRecorded(pod, made)
	if err == nil && logDir != "" {
		if err = made.mkdirAll(logDir, 0o755); err != nil {
			err = fmt.Errorf("create container log directory for container %s failed: %v", containerName, err)
		}
	}
	if err == nil && hostsFile != nil {
		err = hostsFile.apply(g.files)
	}
	if err != nil {
		made.undo()
	}
	return err
}

// makePodDataDirsRecorded is makePodDataDirs recording what it creates in made, for a pod whose
// UID makePodHostFiles has checked.
func (g *Generator) makePodDataDirsRecorded(pod *v1.Pod, made *madeDirs) error {
	// PodDataDirs' list: the pod directory is clean, so each Join is a concatenation.
	podDir := g.podsDir + "/" + string(pod.UID)
	dirs := [...]string{podDir, podDir + "/volumes", podDir + "/plugins"}
	if made.isDir(dirs[1]) && made.isDir(dirs[2]) {
		// The usual case, every call after the pod's first. Finding a directory in the pod's
		// directory proves it is one (or a symlink to one), where MkdirAll does nothing.
		return nil
	}
	for _, dir := range dirs {
		if err := made.mkdirAll(dir, podDataDirMode); err != nil {
			return errkind.New(ErrHost, fmt.Sprintf("pod %q: error making pod data directories: %v", pod.Namespace+"/"+pod.Name, err), err)
		}
	}
	return nil
}

// podDirAndHostsFile returns PodDir and the pod's etc-hosts file in it.
func (g *Generator) podDirAndHostsFile(pod *v1.Pod) (podDir, hostsFile string, err error) {
	if err := checkPodIdentity(pod); err != nil {
		return "", "", err
	}
	podDir = g.podsDir + "/" + string(pod.UID)
	return podDir, podDir + "/etc-hosts", nil
}
