package configgen

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/internal/errkind"
)

// madeDirs records the directories one Generator call created, so that a later failure of the
// same call removes them again, innermost first. Removal is one empty directory at a time
// (HostFiles.Remove), so a directory something else has put a file in since stays.
type madeDirs struct {
	files HostFiles
	dirs  []string
}

// isDir reports whether path is a directory (not a symlink to one). MkdirAll of such a path does
// nothing: it stats the path as given first.
func (m *madeDirs) isDir(path string) bool {
	fi, err := m.files.Lstat(path)
	return err == nil && fi.IsDir()
}

// mkdirAll is HostFiles.MkdirAll that records the levels it created.
func (m *madeDirs) mkdirAll(path string, perm fs.FileMode) error {
	fi, err := m.files.Lstat(path)
	if err == nil && fi.IsDir() {
		// The directory is there already, the common case: a pod's second container and later.
		// Neither the path nor its parents need a look.
		return nil
	}
	// The levels that are missing, innermost first; a pod's directories have at most a few.
	var buf [4]string
	missing := buf[:0]
	d := filepath.Clean(path)
	if d != path {
		fi, err = m.files.Lstat(d)
	}
	for {
		if err == nil && len(missing) == 0 && fi.IsDir() {
			// The cleaned path is a directory: MkdirAll finds it and does nothing.
			return nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			break
		}
		missing = append(missing, d)
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
		fi, err = m.files.Lstat(d)
	}
	err = m.files.MkdirAll(path, perm)
	for i := len(missing) - 1; i >= 0; i-- {
		if _, serr := m.files.Lstat(missing[i]); serr != nil {
			break
		}
		if m.dirs == nil {
			// Room for a new pod's three directories and its log directories.
			m.dirs = make([]string, 0, 6)
		}
		m.dirs = append(m.dirs, missing[i])
	}
	return err
}

// undo removes what was recorded, innermost first, stopping at the first directory that cannot
// be removed (it is no longer empty, so its parents are not either).
func (m *madeDirs) undo() {
	for i := len(m.dirs) - 1; i >= 0; i-- {
		if m.files.Remove(m.dirs[i]) != nil {
			break
		}
	}
	m.dirs = nil
}

// checkPodDir refuses, before any host effect, a pod directory the call could not finish in: one
// that is not a directory, or whose etc-hosts (hostsFile, <podDir>/etc-hosts) is a directory (its
// write comes last). A missing pod directory is fine: MakePodDataDirs makes it.
func (g *Generator) checkPodDir(pod *v1.Pod, podDir, hostsFile string) error {
	fail := func(what string) error {
		return errkind.New(ErrHost, fmt.Sprintf("pod %q: %s", pod.Namespace+"/"+pod.Name, what), nil)
	}
	fi, err := g.files.Stat(hostsFile)
	if err == nil {
		// The usual case, a pod's second call and later: the file was found in podDir, so podDir
		// is a directory, as Stat(podDir) would have said.
		if fi.IsDir() {
			return fail(hostsFile + " is a directory, not the pod's hosts file")
		}
		return nil
	}
	fi, err = g.files.Stat(podDir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return errkind.New(ErrHost, fmt.Sprintf("pod %q: checking the pod directory: %v", pod.Namespace+"/"+pod.Name, err), err)
	case !fi.IsDir():
		return fail("pod directory " + podDir + " is not a directory")
	}
	// podDir is a directory without the file (or the file could not be looked at): the write
	// makes it, or fails as it would have without this check.
	return nil
}
