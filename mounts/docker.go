package mounts

import (
	"fmt"
	"strings"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// DockerBindStrings renders CRI mounts as Docker "-v" bind strings, host:container[:options], in
// the same order (dockershim's generateMountBindings, removed in Kubernetes 1.24). Options come in
// the order ro, Z (SELinux relabel), then rshared for bidirectional or rslave for host-to-container
// propagation; private propagation adds nothing, so the Docker daemon decides.
//
// A mount that Docker cannot express safely is left out with a warning: a nil mount, an image
// mount (no host path), and a mount whose host or container path holds a ':' or a NUL byte,
// since a colon would let a path inject bind options. An unknown propagation falls back to
// private with a warning, as dockershim did.
func DockerBindStrings(ms []*runtimeapi.Mount) (binds []string, warnings []string) {
	binds = make([]string, 0, len(ms))
	for i, m := range ms {
		switch {
		case m == nil:
			warnings = append(warnings, fmt.Sprintf("mount %d is nil; skipped", i))
			continue
		case m.HostPath == "":
			warnings = append(warnings, fmt.Sprintf("mount %d at %q has no host path (image volume?); Docker cannot bind it; skipped", i, m.ContainerPath))
			continue
		case strings.ContainsAny(m.HostPath, ":\x00") || strings.ContainsAny(m.ContainerPath, ":\x00"):
			warnings = append(warnings, fmt.Sprintf("mount %d from %q to %q has a path with ':' or NUL, which a bind string cannot hold; skipped", i, m.HostPath, m.ContainerPath))
			continue
		}
		var b strings.Builder
		b.Grow(len(m.HostPath) + len(m.ContainerPath) + 14)
		b.WriteString(m.HostPath)
		b.WriteByte(':')
		b.WriteString(m.ContainerPath)
		sep := byte(':')
		opt := func(o string) {
			b.WriteByte(sep)
			b.WriteString(o)
			sep = ','
		}
		if m.Readonly {
			opt("ro")
		}
		if m.SelinuxRelabel {
			opt("Z")
		}
		switch m.Propagation {
		case runtimeapi.MountPropagation_PROPAGATION_PRIVATE:
		case runtimeapi.MountPropagation_PROPAGATION_BIDIRECTIONAL:
			opt("rshared")
		case runtimeapi.MountPropagation_PROPAGATION_HOST_TO_CONTAINER:
			opt("rslave")
		default:
			warnings = append(warnings, fmt.Sprintf("unknown propagation mode for hostPath %q", m.HostPath))
		}
		binds = append(binds, b.String())
	}
	return binds, warnings
}
