package node

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// mountTmpfs mounts a tmpfs on dir for a memory-backed emptyDir; size 0 means the kernel's default.
func mountTmpfs(dir string, size int64) error {
	opts := "mode=0777"
	if size > 0 {
		opts += fmt.Sprintf(",size=%d", size)
	}
	if err := unix.Mount("tmpfs", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("mount tmpfs on %s: %w", dir, err)
	}
	return nil
}

func unmount(dir string) error {
	if err := unix.Unmount(dir, unix.UMOUNT_NOFOLLOW); err != nil {
		return fmt.Errorf("unmount %s: %w", dir, err)
	}
	return nil
}
