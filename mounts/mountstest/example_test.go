package mountstest_test

import (
	"errors"
	"fmt"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/mounts/mountstest"
)

// A test makes the second subPath preparation fail and checks that nothing stays bound.
func ExampleSubpather_injectedError() {
	hu := mountstest.NewHostUtils()
	hu.AddPath("/vol", 0o755)
	sp := mountstest.NewSubpather(hu)
	sp.Funcs.PrepareSafeSubpath = func(s mounts.Subpath) error {
		if s.VolumeMountIndex == 1 {
			return errors.New("unexpected symlink found /vol/b")
		}
		return nil
	}

	target, undo, err := sp.PrepareSafeSubpath(mounts.Subpath{VolumeMountIndex: 0, Path: "/vol", VolumeName: "vol", VolumePath: "/vol", PodDir: "/pod", ContainerName: "ctr"})
	fmt.Println(target, err)
	_, _, err = sp.PrepareSafeSubpath(mounts.Subpath{VolumeMountIndex: 1, Path: "/vol", VolumeName: "vol", VolumePath: "/vol", PodDir: "/pod", ContainerName: "ctr"})
	fmt.Println(err)
	undo()
	fmt.Println(len(sp.Binds()), "binds left")
	// Output:
	// /pod/volume-subpaths/vol/ctr/0 <nil>
	// unexpected symlink found /vol/b
	// 0 binds left
}
