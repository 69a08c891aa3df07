package mounts_test

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/mounts/mountstest"
)

// A pod with an IP mounts a config directory through a subPath and a log directory through a
// subPathExpr, and gets the managed /etc/hosts last. The in-memory backends stand in for the
// node, so this runs offline; on a node, pass the subpath package's Linux backend instead.
func ExampleMakeMounts() {
	const podDir = "/var/lib/kubelet/pods/uid"
	hu := mountstest.NewHostUtils()
	hu.AddPath("/vol/config", 0o755)
	hu.AddPath("/vol/logs", 0o777)
	sp := mountstest.NewSubpather(hu)

	ms, cleanup, warnings, err := mounts.MakeMounts(mounts.Input{
		Pod: &v1.Pod{},
		Container: &v1.Container{Name: "web", VolumeMounts: []v1.VolumeMount{
			{Name: "config", MountPath: "/etc/app", SubPath: "web", ReadOnly: true},
			{Name: "logs", MountPath: "/var/log/app", SubPathExpr: "$(POD_NAME)"},
		}},
		PodDir:    podDir,
		PodIPs:    []string{"10.244.1.17"},
		Volumes:   mounts.VolumeMap{"config": {HostPath: "/vol/config"}, "logs": {HostPath: "/vol/logs"}},
		HostUtils: hu,
		Subpather: sp,
		Env:       map[string]string{"POD_NAME": "web-0"},
		EnsureHostsFile: func() (string, error) {
			return podDir + "/etc-hosts", nil // a real caller writes the file here (package hosts)
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = cleanup // call it only if the container is then not created
	for _, m := range ms {
		fmt.Printf("%s -> %s ro=%v\n", m.HostPath, m.ContainerPath, m.ReadOnly)
	}
	fmt.Println(len(warnings), "warnings")
	// Output:
	// /var/lib/kubelet/pods/uid/volume-subpaths/config/web/0 -> /etc/app ro=true
	// /var/lib/kubelet/pods/uid/volume-subpaths/logs/web/1 -> /var/log/app ro=false
	// /var/lib/kubelet/pods/uid/etc-hosts -> /etc/hosts ro=false
	// 0 warnings
}

// A subPath that climbs out of its volume is refused before anything touches the host.
func ExampleMakeMounts_subPathEscape() {
	_, _, _, err := mounts.MakeMounts(mounts.Input{
		Pod: &v1.Pod{},
		Container: &v1.Container{Name: "web", VolumeMounts: []v1.VolumeMount{
			{Name: "data", MountPath: "/data", SubPathExpr: "$(DIR)/shadow"},
		}},
		Volumes: mounts.VolumeMap{"data": {HostPath: "/vol/data"}},
		Env:     map[string]string{"DIR": "../../etc"},
	})
	fmt.Println(err)
	// Output:
	// unable to provision SubPath `../../etc/shadow`: must not contain '..'
}

// A runtime shim that drives Docker turns CRI mounts into -v bind strings.
func ExampleDockerBindStrings() {
	binds, warnings := mounts.DockerBindStrings([]*runtimeapi.Mount{
		{HostPath: "/vol/config", ContainerPath: "/etc/app", Readonly: true, SelinuxRelabel: true},
		{HostPath: "/vol/shared", ContainerPath: "/mnt/shared", Propagation: runtimeapi.MountPropagation_PROPAGATION_HOST_TO_CONTAINER},
		{HostPath: "/vol/cache", ContainerPath: "/cache"},
	})
	for _, b := range binds {
		fmt.Println(b)
	}
	fmt.Println(len(warnings), "warnings")
	// Output:
	// /vol/config:/etc/app:ro,Z
	// /vol/shared:/mnt/shared:rslave
	// /vol/cache:/cache
	// 0 warnings
}
