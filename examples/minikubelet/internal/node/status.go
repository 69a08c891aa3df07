package node

import (
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// PodStatus is what RunPod observed of a pod; minikubelet's -status-file holds it as JSON, with
// durations in nanoseconds.
type PodStatus struct {
	// UID is the pod's UID, given by the input or derived by the node.
	UID types.UID `json:"uid"`
	// SandboxID is the runtime's id of the pod's sandbox.
	SandboxID string `json:"sandboxID,omitempty"`
	// PodIPs are the pod's IPs: the sandbox's, or the node's for a host-network pod.
	PodIPs []string `json:"podIPs,omitempty"`
	// InitContainers and Containers are in the pod spec's order; a container that never
	// started has no attempts.
	InitContainers []ContainerStatus `json:"initContainers,omitempty"`
	Containers     []ContainerStatus `json:"containers,omitempty"`
	// Timing splits the pod's start between podconfig and everything else.
	Timing Timing `json:"timing"`
	// Pod is the pod's status as kubelet would report it to the API server, as last generated
	// (podruntime's GenerateAPIPodStatus): phase, conditions, container states.
	Pod *v1.PodStatus `json:"pod,omitempty"`
}

// container returns the status of the init or regular container with the given name, or nil.
func (s *PodStatus) container(name string) *ContainerStatus {
	for _, list := range [][]ContainerStatus{s.InitContainers, s.Containers} {
		for i := range list {
			if list[i].Name == name {
				return &list[i]
			}
		}
	}
	return nil
}

// ContainerStatus is one container's history.
type ContainerStatus struct {
	Name string `json:"name"`
	// Attempts are the container's runs, the first one's restart count 0.
	Attempts []Attempt `json:"attempts,omitempty"`
}

// Last returns the last attempt, or nil.
func (c *ContainerStatus) Last() *Attempt {
	if c == nil || len(c.Attempts) == 0 {
		return nil
	}
	return &c.Attempts[len(c.Attempts)-1]
}

// attempt returns the attempt of the container with the runtime's ID, or nil.
func (c *ContainerStatus) attempt(id string) *Attempt {
	for i := range c.Attempts {
		if c.Attempts[i].ID == id {
			return &c.Attempts[i]
		}
	}
	return nil
}

// Attempt is one run of a container.
type Attempt struct {
	ID string `json:"id"`
	// RestartCount is the attempt's restart count, as in its config and restart-count annotation.
	RestartCount int `json:"restartCount"`
	// LogPath is the attempt's log file on the host (<podLogsDir>/<pod>/<container>/<n>.log).
	LogPath string `json:"logPath"`
	// Log is the end of the attempt's output, stdout and stderr, as read from its log file: at
	// most its last 16 KiB. The whole output streams to Config.Out and stays in the log file.
	Log string `json:"log"`
	// Annotations are the container's annotations as the runtime reports them.
	Annotations map[string]string `json:"annotations,omitempty"`
	// Exited says the attempt ran to its end (ExitCode, Reason and Message are then set).
	Exited   bool   `json:"exited"`
	ExitCode int32  `json:"exitCode"`
	Reason   string `json:"reason,omitempty"`
	// Message is the termination message, read back as kubelet reads it.
	Message string `json:"message,omitempty"`
}

// Timing is how long a pod took to start (from RunPod until every regular container has started)
// and how much of it was podconfig generating the sandbox's and the containers' configs.
type Timing struct {
	Generate time.Duration `json:"generate"`
	Start    time.Duration `json:"start"`
}
