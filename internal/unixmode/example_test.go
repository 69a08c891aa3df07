//go:build unix

package unixmode_test

import (
	"fmt"
	"io/fs"

	"github.com/podconfig/podconfig/internal/unixmode"
)

// A directory mode with the setgid bit, as chmod(2) takes it and as fs.FileMode prints it.
func Example() {
	bits := unixmode.FromFileMode(0o2775&0o777 | fs.ModeSetgid)
	fmt.Printf("%o\n", bits)
	fmt.Println(unixmode.ToFileMode(0o040000 | bits))
	// Output:
	// 2775
	// dgrwxrwxr-x
}
