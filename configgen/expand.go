package configgen

import (
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/internal/expansion"
)

// ExpandContainerCommandAndArgs expands the $(VAR) references in the container's command and args
// against envs, a later duplicate name winning (kubelet: container.ExpandContainerCommandAndArgs).
// A reference to an undefined variable stays as written and "$$" is an escape for "$". An empty
// command or args gives nil, and so does a nil container.
func ExpandContainerCommandAndArgs(container *v1.Container, envs []EnvVar) (command, args []string) {
	if container == nil {
		return nil, nil
	}
	references := 0
	for _, list := range [][]string{container.Command, container.Args} {
		for _, s := range list {
			references += strings.Count(s, "$(")
		}
	}
	lookup := envLookup(envs, references)
	expand := func(list []string) []string {
		if len(list) == 0 {
			return nil
		}
		out := make([]string, len(list))
		for i, s := range list {
			out[i] = expansion.ExpandLookup(s, lookup)
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

// envLookup resolves names against envs, a later duplicate winning (kubelet: envVarsToMap). For
// a few references it scans envs from the end, which is cheaper than indexing a container's whole
// environment (service variables included) in a map.
func envLookup(envs []EnvVar, references int) func(string) (string, bool) {
	if references <= 8 {
		return func(name string) (string, bool) {
			for i := len(envs) - 1; i >= 0; i-- {
				if envs[i].Name == name {
					return envs[i].Value, true
				}
			}
			return "", false
		}
	}
	m := envMap(envs)
	return func(name string) (string, bool) {
		v, ok := m[name]
		return v, ok
	}
}

// envMap indexes envs by name, a later duplicate winning (kubelet: envVarsToMap).
func envMap(envs []EnvVar) map[string]string {
	m := make(map[string]string, len(envs))
	for _, e := range envs {
		m[e.Name] = e.Value
	}
	return m
}
