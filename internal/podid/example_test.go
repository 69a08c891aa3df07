package podid_test

import (
	"fmt"

	"github.com/podconfig/podconfig/internal/podid"
)

// A namespace that would add a line to the container's resolv.conf is refused before any
// directory, cgroup or DNS name is built from it.
func ExampleProblem() {
	field, msg := podid.Problem("x\nnameserver 6.6.6.6", "web", "5f0c3a9e-1111-4222-8333-944455556666")
	fmt.Println(field)
	fmt.Println(msg[:52])
	// Output:
	// metadata.namespace
	// invalid metadata.namespace "x\nnameserver 6.6.6.6":
}
