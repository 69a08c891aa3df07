package logs

import (
	"errors"
	"fmt"
	"os"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/internal/errkind"
)

// Kubelet's limits on a container's termination message (pkg/kubelet/container).
const (
	// MaxContainerTerminationMessageLength is the most read from the termination-message file.
	MaxContainerTerminationMessageLength = 1024 * 4
	// MaxContainerTerminationMessageLogLength is the most taken from the log under
	// FallbackToLogsOnError.
	MaxContainerTerminationMessageLogLength = 1024 * 2
	// MaxContainerTerminationMessageLogLines is the most lines taken from the log under
	// FallbackToLogsOnError.
	MaxContainerTerminationMessageLogLines = 80
)

// ErrNotRegularFile is the category of the error ReadAtMost returns for anything but a regular
// file: a FIFO, a device, a socket, a directory or a symlink.
var ErrNotRegularFile = errkind.Sentinel(errkind.InvalidPod, "not a regular file")

// GetTerminationMessage returns an exited container's termination message from the file the
// runtime mounted at terminationMessagePath (the mount in status whose container path it is),
// and whether the caller should read the container's log instead: fallbackToLogs (the container
// failed under FallbackToLogsOnError) and the file was missing or empty. It is kubelet's
// getTerminationMessage, and reads with ReadAtMost: at most the file's last
// MaxContainerTerminationMessageLength bytes, nothing from an empty file, never blocking.
//
// The file is what the container wrote, and the container may have replaced it: a FIFO, a
// device node or a symlink behind a subPath mount at the message path. Kubelet opens and reads
// such a file whole, so a FIFO hangs its status loop and /dev/zero exhausts its memory; here,
// anything but a regular file gives the message "Error on reading termination log <path>: ..."
// in kubelet's words, and no file is opened for reading unless it is regular.
func GetTerminationMessage(status *runtimeapi.ContainerStatus, terminationMessagePath string, fallbackToLogs bool) (string, bool) {
	if terminationMessagePath == "" {
		return "", fallbackToLogs
	}
	for _, m := range status.GetMounts() {
		if m.GetContainerPath() != terminationMessagePath {
			continue
		}
		data, _, err := ReadAtMost(m.GetHostPath(), MaxContainerTerminationMessageLength)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return "", fallbackToLogs
			}
			return fmt.Sprintf("Error on reading termination log %s: %v", m.GetHostPath(), err), false
		}
		return string(data), fallbackToLogs && len(data) == 0
	}
	return "", fallbackToLogs
}

// reasonContainerCannotRun is the reason a runtime gives a container that never ran: it has no
// log to fall back to.
const reasonContainerCannotRun = "ContainerCannotRun"

// ContainerStatusMessage returns the message kubelet reports in the status of the container
// whose CRI status is status (convertToKubeContainerStatus): the runtime's own message and, once
// the container has exited, its termination message after ": ". The termination message is read
// with GetTerminationMessage from the file the runtime mounted at terminationMessagePath; under
// FallbackToLogsOnError, when the container failed (a non-zero exit code, and not the runtime's
// ContainerCannotRun, which leaves no log) and the file is missing or empty, it is the end of the
// container's log at status.LogPath instead (ReadLastStringFromContainerLogs). policy and
// terminationMessagePath are the container's terminationMessagePolicy and terminationMessagePath
// (kubelet reads them back from the annotations it gave the container).
func ContainerStatusMessage(status *runtimeapi.ContainerStatus, policy v1.TerminationMessagePolicy, terminationMessagePath string) string {
	out := status.GetMessage()
	if status.GetState() != runtimeapi.ContainerState_CONTAINER_EXITED {
		return out
	}
	fallback := policy == v1.TerminationMessageFallbackToLogsOnError &&
		status.GetExitCode() != 0 && status.GetReason() != reasonContainerCannotRun
	msg, checkLogs := GetTerminationMessage(status, terminationMessagePath, fallback)
	if checkLogs {
		msg = ReadLastStringFromContainerLogs(status.GetLogPath())
	}
	if msg == "" {
		return out
	}
	if out != "" {
		out += ": "
	}
	return out + msg
}
