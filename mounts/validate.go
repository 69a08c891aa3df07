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

// ValidateName checks that name can be used as one host path element: what podconfig requires of
// container names and inner volume names before they become <podDir>/volume-subpaths/<volume>/<container>.
// Kubelet relies on API validation for this; podconfig may be fed specs that never saw it.
func ValidateName(kind, name string) error {
	if msg := pathelem.Validate(kind, name); msg != "" {
		return newError(ErrInvalidName, msg, nil)
	}
	return nil
}

// joinPath is filepath.Join(base, sub) for an absolute base and a relative sub, without Clean's
// cost when both are already clean, which is the usual case for a volume path and a subPath.
func joinPath(base, sub string) string {
	if !isCleanPath(base) || !isCleanPath(sub) || sub == "" || sub[0] == '/' {
		return filepath.Join(base, sub)
	}
	if base == "/" {
		return "/" + sub
	}
	return base + "/" + sub
}

// isCleanPath reports whether filepath.Clean would return p unchanged: no empty, "." or ".."
// element and no trailing slash (other than the root itself).
func isCleanPath(p string) bool {
	if p == "/" {
		return true
	}
	if p == "" || p[len(p)-1] == '/' {
		return false
	}
	rest := p
	if rest[0] == '/' {
		rest = rest[1:]
	}
	for {
		elem := rest
		i := strings.IndexByte(rest, '/')
		if i >= 0 {
			elem = rest[:i]
		}
		if elem == "" || elem == "." || elem == ".." {
			return false
		}
		if i < 0 {
			return true
		}
		rest = rest[i+1:]
	}
}
