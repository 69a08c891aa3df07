package mounts

import (
	"fmt"
	"slices"
	"strings"
)

// expandSubPathExpr expands a subPathExpr against the container's environment (kubelet:
// ExpandContainerVolumeMounts): a variable that is missing or empty is an error naming every such
// variable, sorted and once each.
func expandSubPathExpr(expr string, env map[string]string) (string, error) {
	out, missing := expandStrict(expr, env)
	if len(missing) == 0 {
		return out, nil
	}
	missing = slices.Clone(missing)
	slices.Sort(missing)
	missing = slices.Compact(missing)
	return "", newError(ErrSubPathExpansion, fmt.Sprintf("missing value for %s", strings.Join(missing, ", ")), nil)
}

// expandStrict is kubelet's $(VAR) expansion with missing or empty variables collected.
func expandStrict(input string, env map[string]string) (string, []string) {
	var missing []string
	var b strings.Builder
	for i := 0; i < len(input); i++ {
		if input[i] != '$' || i+1 >= len(input) {
			b.WriteByte(input[i])
			continue
		}
		switch next := input[i+1]; {
		case next == '$':
			b.WriteByte('$')
			i++
		case next == '(':
			end := strings.IndexByte(input[i+2:], ')')
			if end < 0 {
				b.WriteString(input[i:])
				return b.String(), missing
			}
			name := input[i+2 : i+2+end]
			if v := env[name]; v != "" {
				b.WriteString(v)
			} else {
				missing = append(missing, name)
			}
			i += 2 + end
		default:
			b.WriteByte('$')
		}
	}
	return b.String(), missing
}
