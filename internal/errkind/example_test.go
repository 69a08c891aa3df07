package errkind_test

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/podconfig/podconfig/internal/errkind"
)

// An error keeps kubelet's text while callers branch on its category and its cause.
func ExampleNew() {
	errVolumeNotFound := errors.New("volume not found")
	err := errkind.New(errVolumeNotFound, `cannot find volume "data" to mount into container "web"`, fs.ErrNotExist)
	fmt.Println(err)
	fmt.Println(errors.Is(err, errVolumeNotFound), errors.Is(err, fs.ErrNotExist))
	// Output:
	// cannot find volume "data" to mount into container "web"
	// true true
}
