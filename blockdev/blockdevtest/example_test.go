package blockdevtest_test

import (
	"fmt"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/blockdev"
	"github.com/podconfig/podconfig/blockdev/blockdevtest"
	"github.com/podconfig/podconfig/mounts"
)

// Offline, a block volume's device symlink exists when it was added; a missing one is skipped
// with a warning, as kubelet skips it.
func ExampleNewSymlinks() {
	links := blockdevtest.NewSymlinks("/var/lib/kubelet/pods/uid/volumeDevices/kubernetes.io~csi/pv1")
	volumes := mounts.VolumeMap{
		"disk":  {BlockDevicePath: "/var/lib/kubelet/pods/uid/volumeDevices/kubernetes.io~csi/pv1"},
		"spare": {BlockDevicePath: "/var/lib/kubelet/pods/uid/volumeDevices/kubernetes.io~csi/pv2", ReadOnly: true},
	}
	c := &v1.Container{Name: "db", VolumeDevices: []v1.VolumeDevice{
		{Name: "disk", DevicePath: "/dev/xvda"}, {Name: "spare", DevicePath: "/dev/xvdb"},
	}}
	devices, warnings, err := blockdev.MakeBlockVolumes(c, volumes, links)
	fmt.Println(err)
	for _, d := range devices {
		fmt.Println(d.PathInContainer, d.Permissions)
	}
	fmt.Println(len(warnings))
	// Output:
	// <nil>
	// /dev/xvda mrw
	// 1
}
