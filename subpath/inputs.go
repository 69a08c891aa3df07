package subpath

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/podconfig/podconfig/internal/errkind"
	"github.com/podconfig/podconfig/internal/pathelem"
	"github.com/podconfig/podconfig/mounts"
)

// The backend checks its own inputs with the rules mounts.MakeMounts applies before calling it, so
// a caller that uses it directly cannot skip them. Its errors for a bad path match
// mounts.ErrInvalidSubPath and carry mounts' texts.

// invalidPath is an error of category mounts.ErrInvalidSubPath.
func invalidPath(msg string) error {
	return errkind.New(mounts.ErrInvalidSubPath, msg, nil)
}

// checkAbsPath checks a path the caller gives as a host path: absolute, no NUL, valid UTF-8.
func checkAbsPath(what, p string) error {
	if !strings.HasPrefix(p, "/") {
		return invalidPath(fmt.Sprintf("%s %q must be an absolute path", what, p))
	}
	if why := pathelem.CheckText(p); why != "" {
		return invalidPath(fmt.Sprintf("%s %q: %s", what, p, why))
	}
	return nil
}

// checkMakeDirInputs is SafeMakeDir's check: base is an absolute host path, subdir a subPath
// (mounts.ValidateSubPath's rules and texts; empty means base itself).
func checkMakeDirInputs(subdir, base string) error {
	if err := checkAbsPath("base", base); err != nil {
		return err
	}
	if msg := pathelem.CheckSubPath(subdir); msg != "" {
		return invalidPath(msg)
	}
	return nil
}

// checkSubpathInputs is PrepareSafeSubpath's check of the subPath and its volume. path must be
// clean: a non-normalised path such as "l/../f" means something else once resolved (with l a
// symlink, ".." leaves l's target, not the volume), so it is refused rather than rewritten.
func checkSubpathInputs(path, volumePath string) error {
	if err := checkAbsPath("volume path", volumePath); err != nil {
		return err
	}
	if err := checkAbsPath("subpath", path); err != nil {
		return err
	}
	if filepath.Clean(path) != path {
		return invalidPath(fmt.Sprintf("subpath %q must be a clean path (it cleans to %q)", path, filepath.Clean(path)))
	}
	if !pathWithinBase(path, filepath.Clean(volumePath)) {
		return invalidPath(fmt.Sprintf("subpath %q is not inside volume path %q", path, volumePath))
	}
	return nil
}
