package logs

import "path/filepath"

// LegacyContainerLogsDir is where kubelet keeps the legacy per-container log symlinks that node
// logging agents read.
const LegacyContainerLogsDir = "/var/log/containers"

// maxFileNameLen is the longest file name ext4 allows; kubelet cuts symlink names to fit it.
const maxFileNameLen = 255

// LegacyLogSymlink returns the legacy symlink path for a container's log,
// "/var/log/containers/<podName>_<podNamespace>_<containerName>-<containerID>.log", as kubelet's
// legacyLogSymlink does. containerID is the runtime's ID without its "<type>://" prefix. When the
// file name would exceed 255 bytes, the part before ".log" is cut to fit (at a byte, which may split
// a multi-byte character or the container ID), exactly as kubelet cuts it.
func LegacyLogSymlink(containerID, containerName, podName, podNamespace string) string {
	const suffix = ".log"
	name := podName + "_" + podNamespace + "_" + containerName + "-" + containerID
	if len(name) > maxFileNameLen-len(suffix) {
		name = name[:maxFileNameLen-len(suffix)]
	}
	return filepath.Join(LegacyContainerLogsDir, name+suffix)
}
