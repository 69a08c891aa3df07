// Package hostfstest injects errors into hostfs backends for tests.
//
// Wrap either backend and replace the methods a test wants to fail, leaving the others to the
// wrapped backend:
//
//	fsys := hostfstest.Wrap(hostfs.NewMemory(), hostfstest.Funcs{
//		Chmod: func(fsys hostfstest.FS, path string, perm fs.FileMode) error {
//			return &fs.PathError{Op: "chmod", Path: path, Err: syscall.EROFS}
//		},
//	})
//
// A method without a replacement is forwarded, OpenBeneath included, so a wrapped backend keeps
// its guarantee of never opening a file outside the root it is given.
package hostfstest
