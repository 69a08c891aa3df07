// Package hostfs provides the host file operations podconfig performs, on the real OS and in memory.
//
// [OS] is the real backend: each method is a thin wrapper over the os function of the same name and
// keeps its semantics (umask applied on create, symlinks followed except by Lstat, Readlink and
// Symlink, errors as *fs.PathError or *os.LinkError).
//
// [Memory] is the in-memory backend for offline rendering and tests:
//
//	fsys := hostfs.NewMemory()
//
// It keeps a tree of directories, regular files and symlinks with permission bits, resolves symlinks
// the way the Linux kernel does (relative to the link's directory, ".." taken physically, at most 40
// links per lookup before ELOOP) and returns the same error values as the OS backend, so
// errors.Is(err, fs.ErrNotExist) and errors.Is(err, syscall.ENOTDIR) work on both. Every file keeps an
// identity for its lifetime: [Inode] reads it from either backend's FileInfo, so a test can check
// that a rewrite happened in place.
//
// Memory hands out one immutable FileInfo per unchanged file, so the lookups a pod's every call
// repeats allocate nothing; this is not visible in results.
//
// OpenBeneath opens a path as if a given directory were the root: symlinks and ".." never leave
// it. OS does it in one kernel walk that keeps the descriptor (openat2 RESOLVE_IN_ROOT, or
// pathrs-lite's checked walk), so it is safe against a concurrent symlink swap; Memory resolves the
// same way. Being a method, it survives any wrapper that forwards it.
//
// Consumers do not take a hostfs type: each declares the few methods it needs as its own small
// interface, which both backends satisfy.
//
// # Current limitations of Memory
//
//   - No umask: modes are stored exactly as given (Create makes 0666 files, where the OS backend
//     under the usual umask 022 makes 0644).
//   - Permission bits are stored and reported but never enforced; every caller acts as root.
//   - No ownership (uid/gid), no hard links, no special files (devices, FIFOs, sockets), no
//     timestamps: ModTime is always the zero time.
//   - No rename; Remove removes one file or empty directory, as os.Remove does.
//   - Directory sizes are reported as 0; name length limits (ENAMETOOLONG) are not modelled.
//   - Relative paths are resolved from "/", as if the working directory were the root.
//   - A file returned by Open reads the file's current contents at each Read; it cannot write.
package hostfs
