package mounts

import (
	"github.com/podconfig/podconfig/internal/errkind"
)

// Error categories. Every error MakeMounts returns for one of these reasons matches the category
// with errors.Is, and keeps kubelet's text.
var (
	// ErrVolumeNotFound: a volumeMount or volumeDevice names a volume that is missing from the
	// VolumeMap or cannot be mounted.
	ErrVolumeNotFound = errkind.Sentinel(errkind.DependencyFailed, "volume not found")
	// ErrEmptyVolumePath: a volume is mounted but has no host path (see Volume.MounterType).
	ErrEmptyVolumePath = errkind.Sentinel(errkind.DependencyFailed, "volume path is empty")
	// ErrInvalidSubPath: a subPath (literal or expanded) is absolute, has a ".." element or a NUL byte.
	ErrInvalidSubPath = errkind.Sentinel(errkind.InvalidPod, "invalid subPath")
	// ErrSubPathExpansion: a subPathExpr refers to variables that are missing or empty.
	ErrSubPathExpansion = errkind.Sentinel(errkind.InvalidPod, "subPathExpr expansion failed")
	// ErrInvalidName: a container, volume or inner volume name cannot be used as a host path element.
	ErrInvalidName = errkind.Sentinel(errkind.InvalidPod, "invalid name")
	// ErrSubPathSetup: creating the subPath directory or preparing its bind mount failed; the
	// host's cause is wrapped as well.
	ErrSubPathSetup = errkind.Sentinel(errkind.DependencyFailed, "subPath setup failed")
	// ErrInvalidPropagation: the mountPropagation mode is unknown.
	ErrInvalidPropagation = errkind.Sentinel(errkind.InvalidPod, "invalid mount propagation")
	// ErrRecursiveReadOnly: recursiveReadOnly cannot be honoured as requested.
	ErrRecursiveReadOnly = errkind.Sentinel(errkind.InvalidPod, "invalid recursive read-only mode")
	// ErrMissingDependency: an input MakeMounts needs for this pod is nil.
	ErrMissingDependency = errkind.Sentinel(errkind.InvalidOptions, "missing dependency")
	// ErrInvalidInput: a caller-supplied path is unusable, such as a relative pod directory or
	// volume host path where a subPath needs an absolute one.
	ErrInvalidInput = errkind.Sentinel(errkind.InvalidPod, "invalid input")
)

// newError returns kubelet's text as an error of the given category, wrapping cause when set.
func newError(kind error, msg string, cause error) error { return errkind.New(kind, msg, cause) }
