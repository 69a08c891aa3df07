package configgen

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	securejoin "github.com/cyphar/filepath-securejoin"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/internal/envfile"
	"github.com/podconfig/podconfig/internal/pathelem"
)

// fileKey resolves a fileKeyRef (kubelet: the FileKeyRef case of makeEnvironmentVariables, gate
// EnvFiles); keep is false when the variable is to be left out.
//
// Kubelet joins the path with SecureJoin and then opens the result. Here the backend opens the
// file beneath the volume's root itself (see readEnvFile), so the joined path only names the file
// in errors: it is resolved once something fails, and a SecureJoin error then comes first, as in
// kubelet. A file that opens and defines the key needs no join. (SecureJoin fails where a
// confined open of the same path succeeds only if the file system changes in between.)
func (b *envBuilder) fileKey(envName string, ref *v1.FileKeySelector) (value string, keep bool, err error) {
	vol, ok := b.in.Volumes[ref.VolumeName]
	if !ok || !vol.Mountable() {
		return "", false, newEnvError(ErrEnvFile, fmt.Sprintf("cannot find the volume %q referenced by FileKeyRef", ref.VolumeName), nil)
	}
	if _, err := vol.GetPath(); err != nil {
		return "", false, newEnvError(ErrEnvFile, fmt.Sprintf("failed to get host path for volume %q: %v", ref.VolumeName, err), err)
	}
	fsys := b.in.Files
	if fsys == nil {
		fsys = hostfs.OS{}
	}
	value, failure, read := readEnvFile(fsys, vol.HostPath, ref.Path, ref.Key)
	if read && value != "" {
		return value, true, nil
	}
	path, err := secureJoin(vol.HostPath, ref.Path, fsys)
	if err != nil {
		return "", false, newEnvError(ErrEnvFile, err.Error(), err)
	}
	if !read {
		err := failure.error(path)
		// Kubelet logs the detail and fails with a fixed text, so that the pod's events do not
		// reveal host paths or file contents.
		b.warn(ReasonFailedToParseEnvFile, fmt.Sprintf("%s: env var %q: failed to parse env file: %v", b.where(), envName, err))
		return "", false, newEnvError(ErrEnvFile, "couldn't parse env file", err)
	}
	if isTrue(ref.Optional) {
		b.warn(ReasonOptionalFileKeyNotFound, fmt.Sprintf("skipping optional envvar %q: key %q not found in file %q of volume %q", envName, ref.Key, ref.Path, ref.VolumeName))
		return "", false, nil
	}
	return "", false, newEnvError(ErrKeyNotFound, fmt.Sprintf("environment variable key %q not found in file %q", ref.Key, path), nil)
}

// readEnvFile reads key from the env file unsafePath inside root. It does not open SecureJoin's
// path: kubelet's SecureJoin-then-open
// leaves a window in which the pod can swap a directory of its volume for a symlink and have the
// kubelet read a host file into the environment. The backend opens unsafePath beneath root
// instead, and refuses anything but a regular file or directory before reading, so a FIFO cannot
// block the call either. A failure comes back as an envFileFailure, whose error names the path
// SecureJoin resolved, as kubelet's errors do; ok is true when nothing failed.
func readEnvFile(fsys EnvFileFS, root, unsafePath, key string) (value string, failure envFileFailure, ok bool) {
	f, err := fsys.OpenBeneath(root, unsafePath)
	if err != nil {
		if nr, isNR := errors.AsType[*hostfs.NotRegularError](err); isNR {
			return "", envFileFailure{how: notRegularFile, mode: nr.Mode}, false
		}
		return "", envFileFailure{how: openFailed, err: err}, false
	}
	defer func() { _ = f.Close() }()
	fi, err := f.Stat()
	if err != nil {
		return "", envFileFailure{how: openFailed, err: err}, false
	}
	if mode := fi.Mode(); !mode.IsRegular() {
		return "", envFileFailure{how: notRegularFile, mode: mode}, false
	}
	value, err = envfile.Scan(f, key)
	if err != nil {
		return "", envFileFailure{how: parseFailed, err: err}, false
	}
	return value, envFileFailure{}, true
}

// envFileFailure is why readEnvFile failed, kept apart from the file's path, which its error
// names.
type envFileFailure struct {
	how  envFileFailed
	err  error
	mode fs.FileMode
}

type envFileFailed int

const (
	openFailed envFileFailed = iota
	notRegularFile
	parseFailed
)

// error returns the failure's text with kubelet's words, naming the file as path.
func (f envFileFailure) error(path string) error {
	switch f.how {
	case notRegularFile:
		return notRegularError(path, f.mode)
	case parseFailed:
		if re, ok := f.err.(*envfile.ReadError); ok {
			return re.WithPath(path)
		}
		return f.err
	}
	return fmt.Errorf("failed to open environment variable file %q: %w", path, f.err)
}

func notRegularError(path string, mode fs.FileMode) error {
	return fmt.Errorf("failed to open environment variable file %q: not a regular file (%v)", path, mode.Type())
}

var (
	_ EnvFileFS = hostfs.OS{}
	_ EnvFileFS = (*hostfs.Memory)(nil)
)

// secureJoin is securejoin.SecureJoinVFS, which kubelet uses for an env file's path, with a
// shortcut for the usual case: when neither path has a ".." element and no component below root
// is a symlink, the result is filepath.Join(root, unsafePath), found with the same Lstat of each
// component and one allocation. A symlink, an error other than not-existing, or a ".." sends the
// whole join to SecureJoinVFS, so results and errors are always its own.
func secureJoin(root, unsafePath string, fsys EnvFileFS) (string, error) {
	if filepath.Separator != '/' || pathelem.HasDotDot(root) || pathelem.HasDotDot(unsafePath) {
		return securejoin.SecureJoinVFS(root, unsafePath, fsys)
	}
	base := filepath.Clean(root)
	full := filepath.Clean(root + "/" + unsafePath)
	i := len(base)
	switch {
	case base == "/":
		i = 0
	case root == "" || base == "." || !strings.HasPrefix(full, base) || len(full) > i && full[i] != '/':
		return securejoin.SecureJoinVFS(root, unsafePath, fsys)
	}
	for i < len(full) {
		end := strings.IndexByte(full[i+1:], '/')
		if end < 0 {
			end = len(full)
		} else {
			end += i + 1
		}
		fi, err := fsys.Lstat(full[:end])
		if err != nil && !securejoin.IsNotExist(err) || err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return securejoin.SecureJoinVFS(root, unsafePath, fsys)
		}
		i = end
	}
	return full, nil
}
