package blockdev_test

import (
	"fmt"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/blockdev"
	"github.com/podconfig/podconfig/blockdev/blockdevtest"
	"github.com/podconfig/podconfig/mounts"
)

// A container asks for a raw block volume at /dev/xvda; the node has mapped the PVC's device to a
// symlink in the pod's directory. The in-memory checker stands in for the host.
func ExampleMakeBlockVolumes() {
	link := "/var/lib/kubelet/pods/uid/volumeDevices/kubernetes.io~csi/pv-1"
	devices, warnings, err := blockdev.MakeBlockVolumes(
		&v1.Container{Name: "db", VolumeDevices: []v1.VolumeDevice{{Name: "data", DevicePath: "/dev/xvda"}}},
		mounts.VolumeMap{"data": {BlockDevicePath: link}},
		blockdevtest.NewSymlinks(link),
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range blockdev.ToCRIDevices(devices) {
		fmt.Println(d.HostPath, "->", d.ContainerPath, d.Permissions)
	}
	fmt.Println(len(warnings), "warnings")
	// Output:
	// /var/lib/kubelet/pods/uid/volumeDevices/kubernetes.io~csi/pv-1 -> /dev/xvda mrw
	// 0 warnings
}
