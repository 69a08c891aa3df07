package volumes

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"path"
	"strconv"
	"strings"
	"time"
)

// Names the atomic writer reserves in the volume directory.
const (
	dataDirName    = "..data"
	newDataDirName = "..data_tmp"
	// tsDirLayout names a timestamped directory: "..2006_01_02_15_04_05." then a random number.
	tsDirLayout = "..2006_01_02_15_04_05."
)

// Modes the writer gives what it creates: the timestamped directory is chmod'ed to 0755, and
// directories inside it get 0777 less kubelet's usual umask 022.
const (
	tsDirMode  fs.FileMode = 0o755
	subDirMode fs.FileMode = 0o755
)

// AtomicWriter writes a payload into a volume directory so that a container never sees a mix of
// two versions (kubelet: volumeutil.AtomicWriter). The files go into a new directory
// ..<UTC timestamp>.<random>, the symlink ..data is pointed at it by renaming ..data_tmp over
// it, and each top-level payload name is a symlink through ..data (token -> ..data/token).
// Names that left the payload are removed, the old timestamped directory with them. When the
// contents are unchanged and nothing must be removed, nothing is written.
//
// Differences from kubelet, each on the safe side: every path is resolved through the FS, which
// follows no symlink; payload paths are also validated after cleaning (ValidatePayload); a
// ..data link that names anything but a timestamped directory is an error, not a directory to
// read and delete; the old contents are read only from regular files; a failure after the new
// directory was made removes it (kubelet leaves it to the volume's teardown); a ..data_tmp left by
// a crash is replaced instead of failing every later write with EEXIST.
type AtomicWriter struct {
	fsys FS
	now  func() time.Time
}

// NewAtomicWriter returns a writer into the volume directory fsys.
func NewAtomicWriter(fsys FS) *AtomicWriter {
	return &AtomicWriter{fsys: fsys, now: time.Now}
}

// Write makes the volume hold exactly payload (kubelet: AtomicWriter.Write). setPerms, when not
// nil, runs after the new timestamped directory is filled and before ..data is swapped, with
// that directory's name; it is where the fsGroup ownership pass goes. It is not called when
// nothing is written.
func (w *AtomicWriter) Write(payload Payload, setPerms func(tsDir string) error) error {
	if w == nil || w.fsys == nil {
		return fmt.Errorf("%w: an AtomicWriter needs an FS: use NewAtomicWriter", ErrMissingDependency)
	}
	if w.now == nil {
		w.now = time.Now
	}
	clean, err := ValidatePayload(payload)
	if err != nil {
		return err
	}
	oldTs, err := w.fsys.Readlink(dataDirName)
	switch {
	case err != nil && !isNotExist(err):
		return err
	case err != nil:
		oldTs = ""
	case !isTimestampDir(oldTs):
		return fmt.Errorf("%s links to %q, which is not a data directory of the volume", dataDirName, oldTs)
	}

	var remove []string
	write := true
	if oldTs != "" {
		if remove, err = w.pathsToRemove(clean, oldTs); err != nil {
			return err
		}
		changed, err := w.shouldWritePayload(clean, oldTs)
		if err != nil {
			return err
		}
		if !changed && len(remove) == 0 {
			write, oldTs = false, ""
		}
	}

	if write {
		tsDir, err := w.newTimestampDir()
		if err != nil {
			return err
		}
		if err := w.swapIn(clean, tsDir, setPerms); err != nil {
			_ = removeAll(w.fsys, tsDir)
			return err
		}
	}
	if err := w.createUserVisibleFiles(clean); err != nil {
		return err
	}
	if err := w.removeUserVisiblePaths(remove); err != nil {
		return err
	}
	if write && oldTs != "" {
		return removeAll(w.fsys, oldTs)
	}
	return nil
}

// swapIn fills tsDir, runs setPerms and points ..data at it.
func (w *AtomicWriter) swapIn(p Payload, tsDir string, setPerms func(string) error) error {
	if err := w.writePayloadToDir(p, tsDir); err != nil {
		return err
	}
	if setPerms != nil {
		if err := setPerms(tsDir); err != nil {
			return err
		}
	}
	err := w.fsys.Symlink(tsDir, newDataDirName)
	if isExist(err) {
		// A crash between the symlink and the rename left it; it is ours to replace.
		if _, lerr := w.fsys.Readlink(newDataDirName); lerr == nil {
			if rerr := w.fsys.Remove(newDataDirName); rerr == nil {
				err = w.fsys.Symlink(tsDir, newDataDirName)
			}
		}
	}
	if err != nil {
		return err
	}
	if err := w.fsys.Rename(newDataDirName, dataDirName); err != nil {
		_ = w.fsys.Remove(newDataDirName)
		return err
	}
	return nil
}

// isTimestampDir reports whether name is one element named as newTimestampDir names.
func isTimestampDir(name string) bool {
	if strings.Contains(name, "/") || !strings.HasPrefix(name, "..") || len(name) < len(tsDirLayout)+1 {
		return false
	}
	_, err := time.Parse(tsDirLayout, name[:len(tsDirLayout)])
	return err == nil
}

// shouldWritePayload reports whether any file's content differs from the old version (kubelet:
// shouldWritePayload); modes and owners are not compared, as in kubelet. An old entry that is a
// directory fails, as kubelet's read does.
func (w *AtomicWriter) shouldWritePayload(p Payload, oldTs string) (bool, error) {
	for _, f := range p {
		name := oldTs + "/" + f.Path
		// Missing, or behind something the writer never makes (a symlink in the middle): the
		// new version differs. Kubelet follows such a link; nothing is read through it here.
		if _, err := w.fsys.Lstat(name); err != nil {
			return true, nil
		}
		old, err := w.fsys.ReadFile(name)
		if err != nil {
			return false, err
		}
		if !bytes.Equal(old, f.Data) {
			return true, nil
		}
	}
	return false, nil
}

// pathsToRemove lists what the old version holds that the payload does not, files and
// directories, as paths relative to the timestamped directory (kubelet: pathsToRemove).
func (w *AtomicWriter) pathsToRemove(p Payload, oldTs string) ([]string, error) {
	keep := make(map[string]bool, len(p))
	for _, f := range p {
		for sub := f.Path; sub != "."; sub = path.Dir(sub) {
			keep[sub] = true
		}
	}
	var out []string
	var walk func(rel string) error
	walk = func(rel string) error {
		name := oldTs
		if rel != "" {
			name += "/" + rel
		}
		entries, err := w.fsys.ReadDir(name)
		if err != nil {
			return err
		}
		for _, e := range entries {
			child := e.Name()
			if rel != "" {
				child = rel + "/" + child
			}
			if !keep[child] {
				out = append(out, child)
			}
			if e.IsDir() {
				if err := walk(child); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(""); err != nil {
		if isNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	return out, nil
}

// newTimestampDir makes ..<UTC now>.<random uint32>, mode 0755 (kubelet: newTimestampDir with
// os.MkdirTemp).
func (w *AtomicWriter) newTimestampDir() (string, error) {
	prefix := w.now().UTC().Format(tsDirLayout)
	for try := 0; ; try++ {
		name := prefix + strconv.FormatUint(uint64(rand.Uint32()), 10)
		err := w.fsys.Mkdir(name, tsDirMode)
		if err == nil {
			return name, nil
		}
		if !isExist(err) || try == 9999 {
			return "", err
		}
	}
}

// writePayloadToDir writes every file below dir with its exact mode, creating parent
// directories, and chowns it to its owner (kubelet: writePayloadToDir).
func (w *AtomicWriter) writePayloadToDir(p Payload, dir string) error {
	made := map[string]bool{}
	for _, f := range p {
		if err := w.mkdirAll(dir, path.Dir(f.Path), made); err != nil {
			return err
		}
		name := dir + "/" + f.Path
		if err := w.fsys.WriteFile(name, f.Data, f.Mode); err != nil {
			return err
		}
		if f.Owner != nil {
			if err := w.fsys.Lchown(name, int(*f.Owner), -1); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *AtomicWriter) mkdirAll(base, rel string, made map[string]bool) error {
	if rel == "." || made[rel] {
		return nil
	}
	if err := w.mkdirAll(base, path.Dir(rel), made); err != nil {
		return err
	}
	if err := w.fsys.Mkdir(base+"/"+rel, subDirMode); err != nil && !isExist(err) {
		return err
	}
	made[rel] = true
	return nil
}

// createUserVisibleFiles links each top-level payload name through ..data where nothing is at
// that name yet; whatever is there (a link, or a directory such as a nested mount point) is left
// (kubelet: createUserVisibleFiles).
func (w *AtomicWriter) createUserVisibleFiles(p Payload) error {
	for _, f := range p {
		top, _, _ := strings.Cut(f.Path, "/")
		if _, err := w.fsys.Readlink(top); err == nil || !isNotExist(err) {
			continue
		}
		if err := w.fsys.Symlink(dataDirName+"/"+top, top); err != nil {
			return err
		}
		if f.Owner != nil {
			if err := w.fsys.Lchown(top, int(*f.Owner), -1); err != nil {
				return err
			}
		}
	}
	return nil
}

// removeUserVisiblePaths removes the top-level names that left the payload, trying all and
// returning the last error (kubelet: removeUserVisiblePaths).
func (w *AtomicWriter) removeUserVisiblePaths(paths []string) error {
	var last error
	for _, p := range paths {
		if strings.Contains(p, "/") {
			continue
		}
		if err := w.fsys.Remove(p); err != nil {
			last = err
		}
	}
	return last
}
