package configgen

import (
	"fmt"
	"strconv"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/internal/expansion"
	"github.com/podconfig/podconfig/mounts"
)

// Kubelet has no bound on $(VAR) expansion, nor on the environment: a 520-byte spec whose
// variables each reference the previous one twice builds a 128 MiB value, and a few more lines
// exhaust the node. The expansion bounds are far above what the kernel lets a process start with
// (one argument or environment string is at most 128 KiB, MAX_ARG_STRLEN; all of them together a
// quarter of the stack limit, 2 MiB by default, 6 MiB at most), and the environment's is that
// most, so no container that could start is refused.
const (
	// DefaultMaxExpandedValueBytes bounds one expanded env value, command or args entry.
	DefaultMaxExpandedValueBytes = 1 << 20
	// DefaultMaxExpandedContainerBytes bounds the sum of a container's expanded values.
	DefaultMaxExpandedContainerBytes = 16 << 20
	// DefaultMaxEnvironmentBytes bounds a container's environment (see
	// ExpansionLimits.MaxEnvironmentBytes) at the most any Linux process can be started with:
	// execve copies the arguments and the environment onto the new stack only while they take at
	// most a quarter of the stack rlimit and never more than 3/4 of 8 MiB (6 MiB), whatever the
	// rlimit, each string counting its bytes, its NUL and an 8-byte pointer. An environment past
	// it can never start, so no container that could start is refused; one within it may still
	// fail to start, as it does under kubelet: the usual 8 MiB stack rlimit leaves 2 MiB, the
	// arguments and the variables the image and the runtime add share the room, and the kernel
	// refuses any one string over 128 KiB (MAX_ARG_STRLEN).
	DefaultMaxEnvironmentBytes = 6 << 20
	// envVarBytes is what a variable costs beyond its name and value against MaxEnvironmentBytes,
	// as the kernel counts it: the "=" between them, the NUL after and the pointer to it.
	envVarBytes = 1 + 1 + 8
)

// ExpansionLimits bounds $(VAR) expansion, which is checked while it runs, so the memory one
// expansion takes never exceeds the bound by more than a small constant. Exceeding a bound is an
// error wrapping ErrExpansionLimit (category ErrInvalidPod) that names the variable or argument.
// Only values that hold a "$" count: a value without one is used as it is.
type ExpansionLimits struct {
	// MaxValueBytes bounds one expanded env value, command or args entry. Zero means
	// DefaultMaxExpandedValueBytes; a negative value means no bound, as in kubelet.
	MaxValueBytes int
	// MaxContainerBytes bounds the sum of the expanded env values, command and args of one
	// container. Zero means DefaultMaxExpandedContainerBytes; a negative value means no bound.
	MaxContainerBytes int
	// MaxEnvironmentBytes bounds the environment returned for a container (env, envFrom and the
	// service variables; a device plugin's are the plugin's), each variable counting as execve
	// counts it: its name, "=", its value, a NUL and an 8-byte pointer. It is checked as each
	// variable is defined, and the call fails with ErrExpansionLimit as soon as the variables
	// defined so far pass it, so that envFrom entries naming large objects (under many prefixes)
	// cost at most what the bound allows, never what they ask for; a value that a later source
	// makes smaller has counted at its largest on the way. Zero means DefaultMaxEnvironmentBytes;
	// a negative value means no bound, as in kubelet.
	MaxEnvironmentBytes int
}

// expansionBudget is what a container may still expand; a negative field is no bound.
// envBytes is what the defined environment may take (MaxEnvironmentBytes).
type expansionBudget struct {
	perValue, left, envBytes int
}

func (l ExpansionLimits) budget() expansionBudget {
	b := expansionBudget{perValue: l.MaxValueBytes, left: l.MaxContainerBytes, envBytes: l.MaxEnvironmentBytes}
	if b.envBytes == 0 {
		b.envBytes = DefaultMaxEnvironmentBytes
	}
	if b.perValue == 0 {
		b.perValue = DefaultMaxExpandedValueBytes
	}
	if b.left == 0 {
		b.left = DefaultMaxExpandedContainerBytes
	}
	return b
}

// expand expands input against lookup within the budget and charges the result to it. what and
// name say what is expanded, for the error. An input without "$" is used as it is.
func (b *expansionBudget) expand(input string, lookup func(string) (string, bool), what, name string) (string, error) {
	if strings.IndexByte(input, '$') < 0 {
		return input, nil
	}
	limit, perValue := b.perValue, true
	if b.left >= 0 && (limit < 0 || b.left < limit) {
		limit, perValue = b.left, false
	}
	out, ok := expansion.ExpandLookupLimit(input, lookup, limit)
	if !ok {
		bound := fmt.Sprintf("the limit of %d bytes for one value (ExpansionLimits.MaxValueBytes)", b.perValue)
		if !perValue {
			bound = "the container's limit of expanded bytes (ExpansionLimits.MaxContainerBytes)"
		}
		return "", newEnvError(ErrExpansionLimit, fmt.Sprintf("expanding %s %q exceeds %s", what, name, bound), nil)
	}
	if b.left >= 0 {
		b.left -= len(out)
	}
	return out, nil
}

// ExpandContainerCommandAndArgs expands the $(VAR) references in the container's command and args
// against envs, a later duplicate name winning (kubelet: container.ExpandContainerCommandAndArgs).
// A reference to an undefined variable stays as written and "$$" is an escape for "$". An empty
// command or args gives nil, and so does a nil container.
//
// Unlike kubelet's, the expansion is bounded by the default ExpansionLimits: an entry or the
// whole that would exceed them is an error wrapping ErrExpansionLimit.
func ExpandContainerCommandAndArgs(container *v1.Container, envs []EnvVar) (command, args []string, err error) {
	budget := ExpansionLimits{}.budget()
	return expandContainerCommandAndArgs(container, envs, nil, &budget)
}

// expandContainerCommandAndArgs is ExpandContainerCommandAndArgs within budget. lookup, when not
// nil, resolves a name as envs would; nil indexes envs once a reference needs it.
func expandContainerCommandAndArgs(container *v1.Container, envs []EnvVar, lookup func(string) (string, bool), budget *expansionBudget) (command, args []string, err error) {
	if container == nil {
		return nil, nil, nil
	}
	if lookup == nil {
		var env map[string]string
		lookup = func(name string) (string, bool) {
			if env == nil {
				env = envMap(envs)
			}
			v, ok := env[name]
			return v, ok
		}
	}
	expand := func(list []string, what string) ([]string, error) {
		if len(list) == 0 {
			return nil, nil
		}
		out := make([]string, len(list))
		for i, s := range list {
			v, err := budget.expand(s, lookup, what, strconv.Itoa(i))
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	if command, err = expand(container.Command, "command entry"); err != nil {
		return nil, nil, err
	}
	if args, err = expand(container.Args, "args entry"); err != nil {
		return nil, nil, err
	}
	return command, args, nil
}

// ExpandContainerVolumeMounts expands the mount's subPathExpr against envs, a later duplicate name
// winning (kubelet: container.ExpandContainerVolumeMounts). A reference to a variable that is not
// defined or is empty fails with "missing value for A, B" (the names sorted, once each). Unlike
// kubelet's, an expansion beyond mounts.MaxSubPathExprBytes stops there with ErrExpansionLimit.
func ExpandContainerVolumeMounts(mount v1.VolumeMount, envs []EnvVar) (string, error) {
	if strings.IndexByte(mount.SubPathExpr, '$') < 0 {
		return mount.SubPathExpr, nil
	}
	expanded, missing, ok := expansion.ExpandStrictLimit(mount.SubPathExpr, envMap(envs), mounts.MaxSubPathExprBytes)
	if !ok {
		return "", newEnvError(ErrExpansionLimit, fmt.Sprintf("subPathExpr of volumeMount %q expands beyond %d bytes (PATH_MAX)", mount.Name, mounts.MaxSubPathExprBytes), nil)
	}
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
