package subpath

// Mounter is the part of k8s.io/mount-utils' mount.Interface the backend uses to check and remove
// mount points; any mount.Interface satisfies it.
type Mounter interface {
	// IsMountPoint reports whether file is a mount point.
	IsMountPoint(file string) (bool, error)
	// Unmount unmounts target.
	Unmount(target string) error
}

// Option configures a backend built by New.
type Option func(*config)

type config struct {
	mounter   Mounter
	forceWalk bool
}

// WithMounter makes the backend check and remove mount points through m, for example a
// mount-utils mount.Interface, instead of its own statx and umount2 system calls.
func WithMounter(m Mounter) Option {
	return func(c *config) { c.mounter = m }
}

// WithoutOpenat2 makes the backend resolve paths with the O_NOFOLLOW|O_PATH walk kubelet uses
// even when the kernel has openat2(2). The walk is what runs on kernels older than 5.6.
func WithoutOpenat2() Option {
	return func(c *config) { c.forceWalk = true }
}

func newConfig(opts []Option) config {
	var c config
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}
