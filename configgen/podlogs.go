package configgen

import (
	"fmt"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/internal/errkind"
	"github.com/podconfig/podconfig/logs"
)

// podLogsDirMode is the mode kubelet's createPodSandbox gives the pod's log directory.
const podLogsDirMode = 0o755

// MakePodLogsDirectory makes the pod's log directory, <PodLogsDir>/<namespace>_<name>_<uid>
// (logs.BuildPodLogsDirectory, the sandbox config's LogDirectory), mode 0755 less the umask,
// through Options.Files, and returns it. Kubelet's createPodSandbox makes it between
// GeneratePodSandboxConfig and RunPodSandbox; the runtime writes the containers' logs below it
// (GenerateContainerConfig makes each container's own directory). An existing directory is left
// as it is, and a failure leaves no directory this call made.
//
// A namespace, name or UID the node refuses (see ValidatePod) is an ErrInvalidPod error before
// anything is made. A host failure is an *Error (ReasonFailedCreatePodSandBox; ErrHost, with
// ErrDependencyFailed as its category) with kubelet's text.
func (g *Generator) MakePodLogsDirectory(pod *v1.Pod) (string, error) {
	if err := g.built(); err != nil {
		return "", asError(err, ReasonFailedCreatePodSandBox, pod, nil)
	}
	dir, err := g.makePodLogsDirectory(pod)
	return dir, asError(err, ReasonFailedCreatePodSandBox, pod, nil)
}

func (g *Generator) makePodLogsDirectory(pod *v1.Pod) (string, error) {
	if err := checkPodIdentity(pod); err != nil {
		return "", err
	}
	dir := logs.BuildPodLogsDirectory(g.opts.PodLogsDir, pod.Namespace, pod.Name, pod.UID)
	// MkdirAll may fail after making some levels; those are taken back.
	made := &madeDirs{files: g.files}
	if err := made.mkdirAll(dir, podLogsDirMode); err != nil {
		made.undo()
		// Kubelet's message names the pod as its format.Pod does: name_namespace(uid).
		msg := fmt.Sprintf("Failed to create log directory for pod %q: %v", pod.Name+"_"+pod.Namespace+"("+string(pod.UID)+")", err)
		return "", errkind.New(ErrHost, msg, err)
	}
	return dir, nil
}
