package logs

import (
	"errors"
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
var ErrInvalidName = errors.New("invalid name for a log path")

// BuildContainerLogsPath returns a container's log file path relative to the sandbox log directory,
// "<containerName>/<restartCount>.log", as kubelet's buildContainerLogsPath does; it is
// ContainerConfig.LogPath.
func BuildContainerLogsPath(containerName string, restartCount int) string {
	return filepath.Join(containerName, strconv.Itoa(restartCount)+".log")
}

// BuildPodLogsDirectory returns "<podLogsDir>/<namespace>_<name>_<uid>", as kubelet's
// BuildPodLogsDirectory does; it is PodSandboxConfig.LogDirectory. The result is cleaned by
// filepath.Join, so names are not checked here: see ValidateLogPathNames.
func BuildPodLogsDirectory(podLogsDir, podNamespace, podName string, podUID types.UID) string {
	return filepath.Join(podLogsDir, podNamespace+logPathDelimiter+podName+logPathDelimiter+string(podUID))
}

// BuildContainerLogsDirectory returns "<podLogsDir>/<namespace>_<name>_<uid>/<containerName>", the
// directory kubelet creates (mode 0755) before creating a container, as its
// BuildContainerLogsDirectory does.
func BuildContainerLogsDirectory(podLogsDir, podNamespace, podName string, podUID types.UID, containerName string) string {
	return filepath.Join(BuildPodLogsDirectory(podLogsDir, podNamespace, podName, podUID), containerName)
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
