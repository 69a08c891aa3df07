package mounts

import (
	"fmt"
	"strings"

	"github.com/podconfig/podconfig/internal/expansion"
)

// MaxSubPathExprBytes bounds the expansion of a subPathExpr: the kernel refuses a path longer than
// PATH_MAX anyway, and kubelet, which has no bound, builds whatever the references multiply to
// first (1000 references to a 1 MiB variable make a 1 GiB path).
const MaxSubPathExprBytes = 4096

// expandSubPathExpr expands a subPathExpr against the container's environment (kubelet:
// ExpandContainerVolumeMounts): a variable that is missing or empty is an error naming every such
// variable, sorted and once each. An expansion beyond MaxSubPathExprBytes stops there and fails.
func expandSubPathExpr(name, expr string, env map[string]string) (string, error) {
	out, missing, ok := expansion.ExpandStrictLimit(expr, env, MaxSubPathExprBytes)
	if !ok {
		return "", newError(ErrSubPathExpansion, fmt.Sprintf("subPathExpr of volumeMount %q expands beyond %d bytes (PATH_MAX)", name, MaxSubPathExprBytes), nil)
	}
	if len(missing) == 0 {
		return out, nil
	}
	return "", newError(ErrSubPathExpansion, fmt.Sprintf("missing value for %s", strings.Join(missing, ", ")), nil)
}
