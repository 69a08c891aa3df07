package subpath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/internal/pathelem"
)

// Permission bits SetUpLocalVolume adds for fsGroup (kubelet: rwMask, roMask, execMask).
const (
	groupRWBits   = 0o660
	groupROBits   = 0o440
	groupExecBits = 0o110
	localDirMode  = 0o750
)

// SetUpLocalVolume bind-mounts v.GlobalPath onto v.Dir, read-only when v.ReadOnly, and applies
// v.FSGroup to a read-write volume (kubelet: localVolumeMounter.SetUpAt and
// SetVolumeOwnership). It is idempotent: when v.Dir is already a mount point nothing is done.
//
// v.Dir is created with mode 0750. The bind goes through descriptors of the source and the
// target, and a read-only volume gets a second bind,remount,ro mount because a plain bind
// ignores the flag. When a mount fails, a half-made mount is unmounted and the directories this
// call created are removed (when empty).
//
// With FSGroup set, every file and directory below v.Dir is given group FSGroup and mode|0660
// (directories also setgid and 0110); symlinks are chowned themselves and never followed or
// chmodded. The walk opens each entry relative to its parent without following symlinks, so a
// container racing to swap a file for a symlink cannot redirect a chown or chmod outside the
// volume. A file that cannot be changed is reported in the warnings (kubelet logs it) and the
// walk goes on; a directory that cannot be read is an error. Unlike kubelet, the ownership is
// applied on every set-up rather than only when no other pod has the volume mounted; the result
// is the same since the change is idempotent.
func (l *Linux) SetUpLocalVolume(v LocalVolume) (warnings []string, err error) {
	if v.GlobalPath == "" {
		return nil, fmt.Errorf("LocalVolume volume %q path is empty", v.Name)
	}
	if pathelem.HasDotDot(v.GlobalPath) {
		return nil, fmt.Errorf("invalid path: %s must not contain '..'", v.GlobalPath)
	}
	if v.Dir == "" {
		return nil, fmt.Errorf("LocalVolume volume %q target directory is empty", v.Name)
	}
	mu := l.lockFor(v.Dir)
	mu.Lock()
	defer mu.Unlock()
	mounted, err := l.mounter.IsMountPoint(v.Dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if mounted {
		return nil, nil
	}

	created, err := mkdirAllTracked(v.Dir)
	if err != nil {
		l.undo(v.Dir, v.Dir, created, false)
		return nil, err
	}
	if err := bindPaths(v.GlobalPath, v.Dir); err != nil {
		l.undo(v.Dir, v.Dir, created, false)
		return nil, err
	}
	if v.ReadOnly {
		if err := unix.Mount("", v.Dir, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY, ""); err != nil {
			l.undo(v.Dir, v.Dir, created, true)
			return nil, fmt.Errorf("error remounting %s read-only: %w", v.Dir, err)
		}
		return nil, nil
	}
	if v.FSGroup == nil {
		return nil, nil
	}
	return setVolumeOwnership(v.Dir, int(*v.FSGroup), false, v.OnRootMismatch)
}

// bindPaths binds source (symlinks followed, as mount(8) would) onto the directory target (a
// symlink there refused) through descriptors of both.
func bindPaths(source, target string) error {
	srcFD, err := unix.Open(source, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("error mounting %s at %s: %w", source, target, &os.PathError{Op: "open", Path: source, Err: err})
	}
	defer func() { _ = unix.Close(srcFD) }()
	tgtFD, err := unix.Open(target, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("error mounting %s at %s: %w", source, target, &os.PathError{Op: "open", Path: target, Err: err})
	}
	defer func() { _ = unix.Close(tgtFD) }()
	if err := unix.Mount(procFD(srcFD), procFD(tgtFD), "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("error mounting %s at %s: %w", source, target, err)
	}
	return nil
}
