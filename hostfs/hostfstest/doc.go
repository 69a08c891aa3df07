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
package hostfstest
