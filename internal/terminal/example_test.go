package terminal_test

import (
	"fmt"

	"github.com/podconfig/podconfig/internal/terminal"
)

// A mount path that would erase the line before it and print a row of its own is shown with its
// escape sequences written out.
func ExampleEscape() {
	fmt.Println(terminal.Escape("/data\x1b[1A\x1b[2K\r  privileged false"))
	// Output: /data\x1b[1A\x1b[2K\r  privileged false
}
