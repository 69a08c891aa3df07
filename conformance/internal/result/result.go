// Package result holds what one side of the conformance run produced for a scenario.
package result

import runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

// Result is one side's rendering of a scenario.
type Result struct {
	Sandbox    *runtimeapi.PodSandboxConfig
	SandboxErr error
	Containers []Container
}

// Container is one container's config or error, and the pod's hosts file after it.
type Container struct {
	Name   string
	Config *runtimeapi.ContainerConfig
	Err    error
	// HostsFile is the content of <podDir>/etc-hosts after the container's config was made,
	// or nil when there is none.
	HostsFile []byte
}
