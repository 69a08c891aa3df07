package configgen

import (
	"fmt"

	pathrs "github.com/cyphar/filepath-securejoin/pathrs-lite"
	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/internal/envfile"
)

// readEnvFile reads key from the env file that SecureJoin resolved to path from unsafePath inside
// root. On the host file system it does not open path: kubelet's SecureJoin-then-open leaves a
// window in which the pod can swap a directory of its volume for a symlink and have the kubelet
// read a host file into the environment. It opens unsafePath again with pathrs-lite's
// OpenInRoot, which resolves it the same way in one walk that cannot leave root, and checks that
// what it opened is a regular file before reading, so a FIFO cannot block the call either.
func readEnvFile(fsys EnvFileFS, root, unsafePath, path, key string) (string, error) {
	if _, ok := fsys.(hostfs.OS); !ok {
		return readEnvFileFS(fsys, path, key)
	}
	handle, err := pathrs.OpenInRoot(root, unsafePath)
	if err != nil {
		return "", fmt.Errorf("failed to open environment variable file %q: %w", path, err)
	}
	defer func() { _ = handle.Close() }()
	fi, err := handle.Stat()
	if err != nil {
		return "", fmt.Errorf("failed to open environment variable file %q: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return "", notRegularError(path, fi.Mode())
	}
	f, err := pathrs.Reopen(handle, unix.O_RDONLY)
	if err != nil {
		return "", fmt.Errorf("failed to open environment variable file %q: %w", path, err)
	}
	defer func() { _ = f.Close() }()
	return envfile.Parse(f, path, key)
}
