package hostfs_test

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/podconfig/podconfig/hostfs"
)

// ExampleMemory rewrites a file in place in an in-memory tree and shows that it keeps its identity
// and mode, as a file that running containers have bind-mounted must.
func ExampleMemory() {
	fsys := hostfs.NewMemory()
	_ = fsys.MkdirAll("/var/lib/kubelet/pods/uid", 0o750)
	_ = fsys.Symlink("/var/lib/kubelet/pods/uid", "/pod")

	_ = fsys.WriteFile("/pod/etc-hosts", []byte("first\n"), 0o644)
	before, _ := fsys.Stat("/pod/etc-hosts")
	_ = fsys.WriteFile("/pod/etc-hosts", []byte("second\n"), 0o600)
	after, _ := fsys.Stat("/var/lib/kubelet/pods/uid/etc-hosts")

	inoBefore, _ := hostfs.Inode(before)
	inoAfter, _ := hostfs.Inode(after)
	data, _ := fsys.ReadFile("/pod/etc-hosts")
	fmt.Printf("%q %s same file: %t\n", data, after.Mode(), inoBefore == inoAfter)

	_, err := fsys.ReadFile("/pod/missing")
	fmt.Println(err, errors.Is(err, fs.ErrNotExist))
	// Output:
	// "second\n" -rw-r--r-- same file: true
	// open /pod/missing: no such file or directory true
}
