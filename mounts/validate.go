package mounts

import (
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
