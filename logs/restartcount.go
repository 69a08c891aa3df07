package logs

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// DirReader is what CalcRestartCountByLogDir needs from the host. hostfs.OS and *hostfs.Memory
// implement it.
type DirReader interface {
	// Stat describes path, following symlinks.
	Stat(path string) (fs.FileInfo, error)
	// ReadDir lists the directory at path.
	ReadDir(path string) ([]fs.DirEntry, error)
}

// restartNumber returns the digits a log file name starts with when they are followed by ".log",
// which is what kubelet's pattern `^(\d+)\.log(\..*)?` accepts: the optional group makes it
// anchored at the start only, so "3.logfoo" counts as restart 3 too.
func restartNumber(name string) (string, bool) {
	i := 0
	for i < len(name) && name[i] >= '0' && name[i] <= '9' {
		i++
	}
	if i == 0 || !strings.HasPrefix(name[i:], ".log") {
		return "", false
	}
	return name[:i], true
}

// CalcRestartCountByLogDir returns the restart count a container should start with when kubelet has
// no status for it, from the log files of earlier runs in path, as kubelet's
// calcRestartCountByLogDir does: one more than the highest N among file names starting with
// "<N>.log" (rotated and compressed logs count), skipping directories and numbers too large for an
// int. A path that cannot be stat'ed, for any reason, gives 0 and no error; an error listing it is
// returned with 0.
func CalcRestartCountByLogDir(dir DirReader, path string) (int, error) {
	if dir == nil {
		return 0, fmt.Errorf("reading %s: no DirReader", path)
	}
	if _, err := dir.Stat(path); err != nil {
		return 0, nil
	}
	entries, err := dir.ReadDir(path)
	if err != nil {
		return 0, err
	}
	restartCount := 0
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		digits, ok := restartNumber(e.Name())
		if !ok {
			continue
		}
		n, err := strconv.Atoi(digits)
		if err != nil {
			continue
		}
		restartCount = max(restartCount, n+1)
	}
	return restartCount, nil
}
