package volumes

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/mounts"
)

// setUpHostPath is the hostPath plugin's SetUp (kubelet: hostPathMounter.SetUp and
// checkTypeInternal): a path with a ".." element is refused; with a type, the path is checked
// (following symlinks) and, for DirectoryOrCreate and FileOrCreate, made when missing.
func (m *Manager) setUpHostPath(src *v1.HostPathVolumeSource) (mounts.Volume, error) {
	if slices.Contains(strings.Split(src.Path, "/"), "..") {
		return mounts.Volume{}, fmt.Errorf("invalid HostPath `%s`: %v", src.Path, "must not contain '..'")
	}
	vol := mounts.Volume{HostPath: src.Path, MounterType: "*hostpath.hostPathMounter"}
	if src.Type == nil || *src.Type == v1.HostPathUnset {
		return vol, nil
	}
	if err := checkHostPathType(m.host(), src.Path, *src.Type); err != nil {
		return mounts.Volume{}, err
	}
	return vol, nil
}

func checkHostPathType(h Host, path string, t v1.HostPathType) error {
	exists := func() bool { _, err := h.Stat(path); return err == nil }
	switch t {
	case v1.HostPathDirectoryOrCreate:
		if !exists() {
			if err := h.MkdirAll(path, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return err
			}
			return nil
		}
		fallthrough
	case v1.HostPathDirectory:
		return typeMatched(h, path, v1.HostPathDirectory, "directory")
	case v1.HostPathFileOrCreate:
		if !exists() {
			return h.CreateFile(path, 0o644)
		}
		fallthrough
	case v1.HostPathFile:
		return typeMatched(h, path, v1.HostPathFile, "file")
	case v1.HostPathSocket:
		return typeMatched(h, path, v1.HostPathSocket, "socket file")
	case v1.HostPathCharDev:
		return typeMatched(h, path, v1.HostPathCharDev, "character device")
	case v1.HostPathBlockDev:
		return typeMatched(h, path, v1.HostPathBlockDev, "block device")
	}
	return fmt.Errorf("%s is an invalid volume type", t)
}

// typeMatched is kubelet's typeMatchedOrError.
func typeMatched(h Host, path string, want v1.HostPathType, expected string) error {
	got, err := fileType(h, path)
	if err != nil {
		return fmt.Errorf("hostPath type check failed, %s is not a %s, unable to determine its type: %w", path, expected, err)
	}
	if got != want {
		return fmt.Errorf("hostPath type check failed: %s is not a %s, it's a %s", path, expected, got)
	}
	return nil
}

// fileType is kubelet's hostutil GetFileType: the type of path, following symlinks.
func fileType(h Host, path string) (v1.HostPathType, error) {
	fi, err := h.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("path %q does not exist", path)
		}
		return "", err
	}
	m := fi.Mode()
	switch {
	case m&fs.ModeSocket != 0:
		return v1.HostPathSocket, nil
	case m&fs.ModeCharDevice != 0:
		return v1.HostPathCharDev, nil
	case m&fs.ModeDevice != 0:
		return v1.HostPathBlockDev, nil
	case m.IsDir():
		return v1.HostPathDirectory, nil
	case m.IsRegular():
		return v1.HostPathFile, nil
	}
	return "", errors.New("only recognise file, directory, socket, block device and character device")
}
