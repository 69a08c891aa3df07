package node

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// Kubelet's limits on termination messages.
const (
	maxTerminationMessageLength     = 4 * 1024 // read from the termination-message file
	maxTerminationMessageLogLength  = 2 * 1024 // read from the log (FallbackToLogsOnError)
	maxTerminationMessageLogLines   = 80
	reasonContainerCannotRun        = "ContainerCannotRun"
	terminationMessageReadErrorText = "Error on reading termination log %s: %v"
)

// terminationMessage reads an exited container's termination message as kubelet does: the file
// the runtime mounted at the container's terminationMessagePath (its last 4 KiB), and, when the
// policy is FallbackToLogsOnError, the container failed and the file is empty or missing, the last
// 80 lines (at most 2 KiB) of its log. The runtime's own message comes first, joined by ": ".
func terminationMessage(st *runtimeapi.ContainerStatus, c *v1.Container, log string) string {
	fallback := c.TerminationMessagePolicy == v1.TerminationMessageFallbackToLogsOnError &&
		st.ExitCode != 0 && st.Reason != reasonContainerCannotRun
	msg, checkLogs := readTerminationFile(st, c.TerminationMessagePath, fallback)
	if checkLogs {
		msg = lastLogLines(log)
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

// readTerminationFile is kubelet's getTerminationMessage: the message from the mounted file, and
// whether the log should be read instead.
func readTerminationFile(st *runtimeapi.ContainerStatus, path string, fallback bool) (string, bool) {
	if path == "" {
		return "", fallback
	}
	for _, m := range st.Mounts {
		if m.ContainerPath != path {
			continue
		}
		data, err := readAtMost(m.HostPath, maxTerminationMessageLength)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return "", fallback
			}
			return fmt.Sprintf(terminationMessageReadErrorText, m.HostPath, err), false
		}
		return string(data), fallback && len(data) == 0
	}
	return "", fallback
}

// readAtMost returns the last max bytes of a file.
func readAtMost(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > max {
		if _, err := f.Seek(fi.Size()-max, io.SeekStart); err != nil {
			return nil, err
		}
	}
	return io.ReadAll(f)
}

// lastLogLines is what kubelet's readLastStringFromContainerLogs returns: the last 80 lines of
// the log, cut to their last 2 KiB.
func lastLogLines(log string) string {
	lines := strings.SplitAfter(log, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) > maxTerminationMessageLogLines {
		lines = lines[len(lines)-maxTerminationMessageLogLines:]
	}
	s := strings.Join(lines, "")
	if len(s) > maxTerminationMessageLogLength {
		s = s[len(s)-maxTerminationMessageLogLength:]
	}
	return s
}
