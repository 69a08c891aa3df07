package mounts

import (
	"path/filepath"
	"strings"

	"github.com/podconfig/podconfig/internal/pathelem"
)

// ValidateSubPath applies kubelet's subPath rules (makeMounts): a subPath must be relative and
// have no ".." element. It also rejects NUL bytes, which no host path can hold, and invalid UTF-8,
// which the CRI mount's host path cannot carry. An empty subPath is valid and means the volume
// root.
func ValidateSubPath(subPath string) error {
	if msg := pathelem.CheckSubPath(subPath); msg != "" {
		return newError(ErrInvalidSubPath, msg, nil)
	}
	return nil
}

// Deprecated: use subpath.ValidateName, the one home of the rule for the host backend; MakeMounts
// applies the same rule to the names it puts in a host path.
func ValidateName(kind, name string) error { return validateName(kind, name) }

// validateName checks that name can be used as one host path element: what podconfig requires of
// container names and inner volume names before they become <podDir>/volume-subpaths/<volume>/<container>.
// Kubelet relies on API validation for this; podconfig may be fed specs that never saw it.
func validateName(kind, name string) error {
	if msg := pathelem.Validate(kind, name); msg != "" {
		return newError(ErrInvalidName, msg, nil)
	}
	return nil
}

// joinPlans sets each plan's fullPath to filepath.Join(volumePath, subPath). The joins that need
// no Clean, which as a rule is all of them, share one allocation: a string per subPath would be a
// transient allocation each.
func joinPlans(plans []subPathPlan) {
	n := 0
	for i := range plans {
		p := &plans[i]
		if p.concat = fastJoin(p.volumePath, p.subPath); p.concat {
			n += joinedLen(p.volumePath, p.subPath)
		} else {
			p.fullPath = filepath.Join(p.volumePath, p.subPath)
		}
	}
	if n == 0 {
		return
	}
	var b strings.Builder
	b.Grow(n)
	for i := range plans {
		if p := &plans[i]; p.concat {
			if p.volumePath != "/" {
				b.WriteString(p.volumePath)
			}
			b.WriteByte('/')
			b.WriteString(p.subPath)
		}
	}
	all, off := b.String(), 0
	for i := range plans {
		if p := &plans[i]; p.concat {
			end := off + joinedLen(p.volumePath, p.subPath)
			p.fullPath = all[off:end]
			off = end
		}
	}
}

// fastJoin reports whether filepath.Join(base, sub) is base + "/" + sub (just "/" + sub for the
// root): both are clean already and sub is a relative, non-empty path.
func fastJoin(base, sub string) bool {
	return sub != "" && sub[0] != '/' && pathelem.IsPlain(base) && pathelem.IsPlain(sub)
}

// joinedLen is the length of filepath.Join(base, sub) when fastJoin(base, sub).
func joinedLen(base, sub string) int {
	if base == "/" {
		return 1 + len(sub)
	}
	return len(base) + 1 + len(sub)
}
