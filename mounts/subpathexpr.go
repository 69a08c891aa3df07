package mounts

import (
	"fmt"
	"strings"

	"github.com/podconfig/podconfig/internal/expansion"
)

// expandSubPathExpr expands a subPathExpr against the container's environment (kubelet:
// ExpandContainerVolumeMounts): a variable that is missing or empty is an error naming every such
// variable, sorted and once each.
func expandSubPathExpr(expr string, env map[string]string) (string, error) {
	out, missing := expansion.ExpandStrict(expr, env)
	if len(missing) == 0 {
		return out, nil
	}
	return "", newError(ErrSubPathExpansion, fmt.Sprintf("missing value for %s", strings.Join(missing, ", ")), nil)
}
