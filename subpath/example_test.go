package subpath_test

import (
	"fmt"

	"github.com/podconfig/podconfig/subpath"
)

// The bind target of a subPath mount is named after the volume, the container and the index of
// the mount in the container's volumeMounts; names that are not single path elements are refused.
func ExampleBindTarget() {
	target, err := subpath.BindTarget("/var/lib/kubelet/pods/uid-1", "config", "app", 2)
	fmt.Println(target, err)

	_, err = subpath.BindTarget("/var/lib/kubelet/pods/uid-1", "..", "app", 2)
	fmt.Println(err)
	// Output:
	// /var/lib/kubelet/pods/uid-1/volume-subpaths/config/app/2 <nil>
	// invalid volume name "..": must not be '.' or '..'
}
