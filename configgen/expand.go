package configgen

import (
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/internal/expansion"
)

// ExpandContainerCommandAndArgs expands the $(VAR) references in the container's command and args
// against envs, a later duplicate name winning (kubelet: container.ExpandContainerCommandAndArgs).
// A reference to an undefined variable stays as written and "$$" is an escape for "$". An empty
// command or args gives nil.
func ExpandContainerCommandAndArgs(container *v1.Container, envs []EnvVar) (command, args []string) {
	var mapping func(string) string
	expand := func(list []string) []string {
		if len(list) == 0 {
			return nil
		}
		out := make([]string, len(list))
		for i, s := range list {
			if strings.IndexByte(s, '$') < 0 {
				out[i] = s
				continue
			}
			if mapping == nil {
				mapping = expansion.MappingFuncFor(envMap(envs))
			}
			out[i] = expansion.Expand(s, mapping)
		}
		return out
	}
	return expand(container.Command), expand(container.Args)
}

// ExpandContainerVolumeMounts expands the mount's subPathExpr against envs, a later duplicate name
// winning (kubelet: container.ExpandContainerVolumeMounts). A reference to a variable that is not
// defined or is empty fails with "missing value for A, B" (the names sorted, once each).
func ExpandContainerVolumeMounts(mount v1.VolumeMount, envs []EnvVar) (string, error) {
	if strings.IndexByte(mount.SubPathExpr, '$') < 0 {
		return mount.SubPathExpr, nil
	}
	expanded, missing := expansion.ExpandStrict(mount.SubPathExpr, envMap(envs))
	if len(missing) > 0 {
		return "", newEnvError(ErrMissingValue, "missing value for "+strings.Join(missing, ", "), nil)
	}
	return expanded, nil
}

// envMap indexes envs by name, a later duplicate winning (kubelet: envVarsToMap).
func envMap(envs []EnvVar) map[string]string {
	m := make(map[string]string, len(envs))
	for _, e := range envs {
		m[e.Name] = e.Value
	}
	return m
}
