package node

import (
	"strings"

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
// (at most 2 KiB) of its log, of which logTail holds the end. The runtime's own message comes
// first, joined by ": ".
func terminationMessage(st *runtimeapi.ContainerStatus, c *v1.Container, logTail string) string {
	fallback := c.TerminationMessagePolicy == v1.TerminationMessageFallbackToLogsOnError &&
		st.ExitCode != 0 && st.Reason != reasonContainerCannotRun
	msg, checkLogs := logs.GetTerminationMessage(st, c.TerminationMessagePath, fallback)
	if checkLogs {
		msg = lastLogLines(logTail)
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

// lastLogLines is what kubelet's readLastStringFromContainerLogs returns: the last 80 lines of
// the log, cut to their last 2 KiB.
func lastLogLines(log string) string {
	lines := strings.SplitAfter(log, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) > logs.MaxContainerTerminationMessageLogLines {
		lines = lines[len(lines)-logs.MaxContainerTerminationMessageLogLines:]
	}
	s := strings.Join(lines, "")
	if len(s) > logs.MaxContainerTerminationMessageLogLength {
		s = s[len(s)-logs.MaxContainerTerminationMessageLogLength:]
	}
	return s
}
