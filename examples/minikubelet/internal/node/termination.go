package node

import (
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/logs"
)

// reasonContainerCannotRun is the runtime's reason for a container that never ran, which has no
// log to fall back to.
const reasonContainerCannotRun = "ContainerCannotRun"

// terminationMessage reads an exited container's termination message as kubelet does: the file
// the runtime mounted at the container's terminationMessagePath (at most its last 4 KiB, never
// blocking, only a regular file: logs.GetTerminationMessage), and, when the policy is
// FallbackToLogsOnError, the container failed and the file is empty or missing, the last 80 lines
// (at most 2 KiB) of its log file at logPath (logs.ReadLastStringFromContainerLogs). The
// runtime's own message comes first, joined by ": ".
func terminationMessage(st *runtimeapi.ContainerStatus, c *v1.Container, logPath string) string {
	fallback := c.TerminationMessagePolicy == v1.TerminationMessageFallbackToLogsOnError &&
		st.ExitCode != 0 && st.Reason != reasonContainerCannotRun
	msg, checkLogs := logs.GetTerminationMessage(st, c.TerminationMessagePath, fallback)
	if checkLogs {
		msg = logs.ReadLastStringFromContainerLogs(logPath)
	}
	out := st.Message
	if msg != "" {
		if out != "" {
			out += ": "
		}
		out += msg
	}
	return out
}
