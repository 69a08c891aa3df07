package volumes

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// File is one file of a volume's payload (kubelet: volumeutil.FileProjection, keyed by its path).
type File struct {
	// Path is relative to the volume directory, cleaned; it may have several elements.
	Path string
	// Data is the file's content.
	Data []byte
	// Mode is the file's permission bits, exactly as written (the umask does not apply).
	Mode fs.FileMode
	// Owner is the uid the file is chowned to (kubelet: FsUser); nil leaves it owned by the
	// writer. The group is set by the fsGroup ownership pass, not here.
	Owner *int64
}

// Payload is the files of one volume, sorted by path, each path once.
type Payload []File

// Lookup returns the file at path and whether there is one.
func (p Payload) Lookup(path string) (File, bool) {
	i, ok := slices.BinarySearchFunc(p, path, func(f File, path string) int { return strings.Compare(f.Path, path) })
	if !ok {
		return File{}, false
	}
	return p[i], true
}

// budget counts the bytes of one volume's files as they are collected, so that a payload that
// would pass the bound fails before its data is copied: a source can name one large object many
// times (items of one key, projected sources of one ConfigMap, downwardAPI items of one large
// annotation), each time a copy. A nil budget or one with max 0 counts nothing.
type budget struct{ max, used int64 }

// take counts n bytes more, failing once the volume's files pass the bound.
func (b *budget) take(n int) error {
	if b == nil || b.max <= 0 {
		return nil
	}
	b.used += int64(n)
	if b.used > b.max {
		return fmt.Errorf("%w: the volume's files would take more than %d bytes", ErrPayloadTooLarge, b.max)
	}
	return nil
}

// projection collects a payload keyed by path as kubelet's plugins build it: a later entry at
// the same path replaces an earlier one.
type projection map[string]File

func (m projection) set(path string, data []byte, mode int32, owner *int64) {
	m[path] = File{Path: path, Data: data, Mode: fs.FileMode(mode) & fs.ModePerm, Owner: owner}
}

func (m projection) merge(o projection) {
	for k, v := range o {
		m[k] = v
	}
}

// payload returns the files sorted by path. It does not validate them: the writer does.
func (m projection) payload() Payload {
	p := make(Payload, 0, len(m))
	for _, f := range m {
		p = append(p, f)
	}
	slices.SortFunc(p, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return p
}

// Limits of payload paths (kubelet's atomic writer).
const (
	maxPathLength = 4096
	maxFileLength = 255
)

// ValidatePath checks one payload path as kubelet's atomic writer does (validatePath): not empty,
// relative, at most 4096 bytes, no ".." element, no element over 255 bytes, and a first element
// that does not start with "..", which is reserved for the writer's own ..data and timestamped
// directories. The texts are kubelet's.
func ValidatePath(targetPath string) error {
	if targetPath == "" {
		return fmt.Errorf("invalid path: must not be empty: %q", targetPath)
	}
	if filepath.IsAbs(targetPath) {
		return fmt.Errorf("invalid path: must be relative path: %s", targetPath)
	}
	// The API server lets a NUL through and kubelet's system call fails on it after the volume's
	// other files were written; refused here, nothing is.
	if strings.IndexByte(targetPath, 0) >= 0 {
		return fmt.Errorf("invalid path: must not contain a NUL byte: %q", targetPath)
	}
	if len(targetPath) > maxPathLength {
		return fmt.Errorf("invalid path: must be less than or equal to %d characters", maxPathLength)
	}
	items := strings.Split(targetPath, string(filepath.Separator))
	for _, item := range items {
		if item == ".." {
			return fmt.Errorf("invalid path: must not contain '..': %s", targetPath)
		}
		if len(item) > maxFileLength {
			return fmt.Errorf("invalid path: filenames must be less than or equal to %d characters", maxFileLength)
		}
	}
	if strings.HasPrefix(items[0], "..") && len(items[0]) > 2 {
		return fmt.Errorf("invalid path: must not start with '..': %s", targetPath)
	}
	return nil
}

// ValidatePayload checks every path of p with ValidatePath, as given and after cleaning, and
// returns the payload keyed by cleaned path, sorted (kubelet: validatePayload). Unlike kubelet,
// which checks only the raw path, a path that reaches a reserved name only once cleaned
// ("./..data") is refused, and two paths that clean to one ("a" and "./a") are an error instead of
// one silently winning: kubelet keeps whichever its map visits last.
func ValidatePayload(p Payload) (Payload, error) {
	out := make(Payload, 0, len(p))
	seen := make(map[string]string, len(p))
	for _, f := range p {
		if err := ValidatePath(f.Path); err != nil {
			return nil, err
		}
		clean := filepath.Clean(f.Path)
		if clean != f.Path {
			if err := ValidatePath(clean); err != nil {
				return nil, err
			}
		}
		if clean == "." {
			return nil, fmt.Errorf("invalid path: must name a file: %s", f.Path)
		}
		if prev, dup := seen[clean]; dup {
			return nil, fmt.Errorf("invalid path: %s and %s name the same file", prev, f.Path)
		}
		seen[clean] = f.Path
		f.Path = clean
		f.Mode &= fs.ModePerm
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	// A file that is also another file's directory fails kubelet's writer with ENOTDIR or EEXIST
	// depending on its map order; refuse it before anything is written.
	for _, f := range out {
		for dir := filepath.Dir(f.Path); dir != "."; dir = filepath.Dir(dir) {
			if prev, ok := seen[dir]; ok {
				return nil, fmt.Errorf("invalid path: %s is a file and the directory of %s", prev, seen[f.Path])
			}
		}
	}
	return out, nil
}
