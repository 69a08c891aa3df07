package logs

import (
	"path/filepath"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/types"

	"github.com/podconfig/podconfig/internal/errkind"
	"github.com/podconfig/podconfig/internal/pathelem"
)

// DefaultPodLogsDirectory is kubelet's default --pod-logs-dir (podLogsDirectory).
const DefaultPodLogsDirectory = "/var/log/pods"

// logPathDelimiter separates namespace, name and UID in a pod log directory name. It is not escaped:
// a '_' inside a namespace or name makes the name ambiguous, as it is in kubelet.
const logPathDelimiter = "_"

// ErrInvalidName is the category of ValidateLogPathNames errors.
var ErrInvalidName = errkind.Sentinel(errkind.InvalidPod, "invalid name for a log path")

// BuildContainerLogsPath returns a container's log file path relative to the sandbox log directory,
// "<containerName>/<restartCount>.log", as kubelet's buildContainerLogsPath does; it is
// ContainerConfig.LogPath.
func BuildContainerLogsPath(containerName string, restartCount int) string {
	if containerName == "" {
		return filepath.Join(containerName, strconv.Itoa(restartCount)+".log")
	}
	// filepath.Join of two non-empty elements, with one concatenation instead of two.
	return cleaned(containerName + "/" + strconv.Itoa(restartCount) + ".log")
}

// cleaned is filepath.Clean(p), returning a path that is clean already (the usual case here) after
// one quick look: no empty, "." or ".." element and no trailing slash leave Clean nothing to do.
func cleaned(p string) string {
	if pathelem.IsPlain(p) {
		return p
	}
	return filepath.Clean(p)
}

// BuildPodLogsDirectory returns "<podLogsDir>/<namespace>_<name>_<uid>", as kubelet's
// BuildPodLogsDirectory does; it is PodSandboxConfig.LogDirectory. The result is cleaned by
// filepath.Join, so names are not checked here: see ValidateLogPathNames.
func BuildPodLogsDirectory(podLogsDir, podNamespace, podName string, podUID types.UID) string {
	return buildLogsDirectory(podLogsDir, podNamespace, podName, podUID, "")
}

// buildLogsDirectory is filepath.Join(podLogsDir, "<namespace>_<name>_<uid>", containerName) built
// with one concatenation: Join cleans the non-empty elements joined by "/", and the middle one is
// never empty.
func buildLogsDirectory(podLogsDir, podNamespace, podName string, podUID types.UID, containerName string) string {
	var p string
	switch {
	case podLogsDir == "" && containerName == "":
		p = podNamespace + logPathDelimiter + podName + logPathDelimiter + string(podUID)
	case podLogsDir == "":
		p = podNamespace + logPathDelimiter + podName + logPathDelimiter + string(podUID) + "/" + containerName
	case containerName == "":
		p = podLogsDir + "/" + podNamespace + logPathDelimiter + podName + logPathDelimiter + string(podUID)
	default:
		p = podLogsDir + "/" + podNamespace + logPathDelimiter + podName + logPathDelimiter + string(podUID) + "/" + containerName
	}
	return cleaned(p)
}

// BuildContainerLogsDirectory returns "<podLogsDir>/<namespace>_<name>_<uid>/<containerName>", the
// directory kubelet creates (mode 0755) before creating a container, as its
// BuildContainerLogsDirectory does.
func BuildContainerLogsDirectory(podLogsDir, podNamespace, podName string, podUID types.UID, containerName string) string {
	return buildLogsDirectory(podLogsDir, podNamespace, podName, podUID, containerName)
}

// ParsePodUIDFromLogsDirectory returns the pod UID from a pod log directory name: whatever follows
// the last '_' (the whole name if there is none), as kubelet's parsePodUIDFromLogsDirectory does.
func ParsePodUIDFromLogsDirectory(name string) types.UID {
	return types.UID(name[strings.LastIndex(name, logPathDelimiter)+1:])
}

// ValidateLogPathNames checks that the names BuildContainerLogsDirectory joins cannot lead it out
// of podLogsDir: the pod's directory name <namespace>_<name>_<uid> and the container name must each
// stay one path element. Kubelet relies on API validation for this; podconfig's callers run it
// before creating the directory. Errors match ErrInvalidName.
func ValidateLogPathNames(podNamespace, podName string, podUID types.UID, containerName string) error {
	// Joined by '_', the pod's parts can only fail to be one element by holding '/' or NUL; the
	// name is built, for the message, only then.
	if pathelem.Validate("", containerName) == "" && !strings.ContainsAny(podNamespace, "/\x00") &&
		!strings.ContainsAny(podName, "/\x00") && !strings.ContainsAny(string(podUID), "/\x00") {
		return nil
	}
	podDir := podNamespace + logPathDelimiter + podName + logPathDelimiter + string(podUID)
	for _, f := range [...]struct{ kind, name string }{
		{"pod log directory name", podDir},
		{"container name", containerName},
	} {
		if msg := pathelem.Validate(f.kind, f.name); msg != "" {
			return errkind.New(ErrInvalidName, msg, nil)
		}
	}
	return nil
}
