package subpath

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/podconfig/podconfig/internal/pathelem"
)

// containerSubPathDirectoryName is the directory under the pod directory that holds the bind
// targets, as in kubelet.
const containerSubPathDirectoryName = "volume-subpaths"

// ValidateName reports whether name can be used as one host path element: it must not be empty,
// "." or "..", and must not contain "/" or NUL. what names the field in the error ("volume name").
// Kubelet trusts the API server for this; names that reach this package may never have passed one.
func ValidateName(what, name string) error {
	if msg := pathelem.Validate(what, name); msg != "" {
		return &kindError{Kind: ErrInvalidName, Msg: msg}
	}
	return nil
}

// BindTarget returns where PrepareSafeSubpath binds a subPath:
// <podDir>/volume-subpaths/<volumeName>/<containerName>/<volumeMountIndex> (kubelet:
// getSubpathBindTarget). It rejects names that are not single path elements and negative indexes
// before any path is built.
func BindTarget(podDir, volumeName, containerName string, volumeMountIndex int) (string, error) {
	if podDir == "" {
		return "", &kindError{Kind: ErrInvalidName, Msg: "pod directory must not be empty"}
	}
	if err := ValidateName("volume name", volumeName); err != nil {
		return "", err
	}
	if err := ValidateName("container name", containerName); err != nil {
		return "", err
	}
	if volumeMountIndex < 0 {
		return "", &kindError{Kind: ErrInvalidName, Msg: fmt.Sprintf("volume mount index %d must not be negative", volumeMountIndex)}
	}
	return filepath.Join(podDir, containerSubPathDirectoryName, volumeName, containerName, strconv.Itoa(volumeMountIndex)), nil
}

// pathWithinBase reports whether fullPath is base or lies under it, lexically (mount-utils:
// PathWithinBase).
func pathWithinBase(fullPath, base string) bool {
	rel, err := filepath.Rel(base, fullPath)
	if err != nil {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// splitPath returns the elements of a slash-separated path other than "" and ".".
func splitPath(p string) []string {
	parts := strings.Split(p, "/")
	out := parts[:0]
	for _, s := range parts {
		if s != "" && s != "." {
			out = append(out, s)
		}
	}
	return out
}
