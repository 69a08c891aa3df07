package hostfstest_test

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/hostfs/hostfstest"
)

func TestInterceptor(t *testing.T) {
	errInjected := errors.New("injected")
	fail := hostfstest.Funcs{
		MkdirAll:  func(hostfstest.FS, string, fs.FileMode) error { return errInjected },
		WriteFile: func(hostfstest.FS, string, []byte, fs.FileMode) error { return errInjected },
		Create:    func(hostfstest.FS, string) error { return errInjected },
		Chmod:     func(hostfstest.FS, string, fs.FileMode) error { return errInjected },
		ReadFile:  func(hostfstest.FS, string) ([]byte, error) { return nil, errInjected },
		Open:      func(hostfstest.FS, string) (fs.File, error) { return nil, errInjected },
		Stat:      func(hostfstest.FS, string) (fs.FileInfo, error) { return nil, errInjected },
		Lstat:     func(hostfstest.FS, string) (fs.FileInfo, error) { return nil, errInjected },
		Readlink:  func(hostfstest.FS, string) (string, error) { return "", errInjected },
		ReadDir:   func(hostfstest.FS, string) ([]fs.DirEntry, error) { return nil, errInjected },
		Symlink:   func(hostfstest.FS, string, string) error { return errInjected },
		Remove:    func(hostfstest.FS, string) error { return errInjected },
		OpenBeneath: func(hostfstest.FS, string, string) (fs.File, error) {
			return nil, errInjected
		},
	}
	calls := []struct {
		name string
		call func(f hostfstest.FS) error
	}{
		{"MkdirAll", func(f hostfstest.FS) error { return f.MkdirAll("/d/e", 0o755) }},
		{"WriteFile", func(f hostfstest.FS) error { return f.WriteFile("/d/w", []byte("x"), 0o644) }},
		{"Create", func(f hostfstest.FS) error { return f.Create("/d/c") }},
		{"Chmod", func(f hostfstest.FS) error { return f.Chmod("/d/f", 0o600) }},
		{"ReadFile", func(f hostfstest.FS) error { _, err := f.ReadFile("/d/f"); return err }},
		{"Open", func(f hostfstest.FS) error {
			file, err := f.Open("/d/f")
			if err == nil {
				file.Close()
			}
			return err
		}},
		{"Stat", func(f hostfstest.FS) error { _, err := f.Stat("/d/f"); return err }},
		{"Lstat", func(f hostfstest.FS) error { _, err := f.Lstat("/d/f"); return err }},
		{"Readlink", func(f hostfstest.FS) error { _, err := f.Readlink("/d/l"); return err }},
		{"ReadDir", func(f hostfstest.FS) error { _, err := f.ReadDir("/d"); return err }},
		{"Symlink", func(f hostfstest.FS) error { return f.Symlink("f", "/d/l2") }},
		{"Remove", func(f hostfstest.FS) error { return f.Remove("/d/l") }},
		{"OpenBeneath", func(f hostfstest.FS) error {
			file, err := f.OpenBeneath("/d", "f")
			if err == nil {
				file.Close()
			}
			return err
		}},
	}
	for _, c := range calls {
		t.Run(c.name+" calls through when not replaced", func(t *testing.T) {
			m := hostfs.NewMemory()
			require.NoError(t, m.MkdirAll("/d", 0o755))
			require.NoError(t, m.WriteFile("/d/f", []byte("data"), 0o644))
			require.NoError(t, m.Symlink("f", "/d/l"))
			w := hostfstest.Wrap(m, hostfstest.Funcs{})
			require.NoError(t, c.call(w))
			assert.Equal(t, 1, w.Calls())
		})
		t.Run(c.name+" returns the injected error when replaced", func(t *testing.T) {
			w := hostfstest.Wrap(hostfs.NewMemory(), fail)
			require.ErrorIs(t, c.call(w), errInjected)
			assert.Equal(t, 1, w.Calls())
		})
		t.Run(c.name+" on a zero Interceptor fails with ErrNoFS", func(t *testing.T) {
			var w hostfstest.Interceptor
			require.ErrorIs(t, c.call(&w), hostfstest.ErrNoFS)
			assert.Equal(t, 1, w.Calls())
		})
	}
}

// ExampleWrap fails Chmod on one path only, after letting the others through.
func ExampleWrap() {
	fsys := hostfstest.Wrap(hostfs.NewMemory(), hostfstest.Funcs{
		Chmod: func(fsys hostfstest.FS, path string, perm fs.FileMode) error {
			if path == "/locked" {
				return &fs.PathError{Op: "chmod", Path: path, Err: syscall.EROFS}
			}
			return fsys.Chmod(path, perm)
		},
	})
	_ = fsys.WriteFile("/open", nil, 0o600)
	_ = fsys.WriteFile("/locked", nil, 0o600)
	fmt.Println(fsys.Chmod("/open", 0o644))
	fmt.Println(fsys.Chmod("/locked", 0o644))
	fmt.Println(fsys.Calls())
	// Output:
	// <nil>
	// chmod /locked: read-only file system
	// 4
}
