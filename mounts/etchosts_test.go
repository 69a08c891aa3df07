package mounts_test

import (
	"io/fs"
	"testing"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/mounts"
)

func TestMakeMountsEtcHosts(t *testing.T) {
	hosts := mounts.Mount{Name: "k8s-managed-etc-hosts", ContainerPath: "/etc/hosts", HostPath: podDir + "/etc-hosts", SELinuxRelabel: true}
	plain := mounts.Mount{Name: "disk", ContainerPath: "/data", HostPath: "/vol/disk"}
	cases := []makeMountsCase{
		{
			name:    "pod with IPs gets the hosts mount last",
			volumes: disk,
			podIPs:  []string{"10.0.0.1"},
			mounts:  []v1.VolumeMount{{MountPath: "/data", Name: "disk"}},
			want:    []mounts.Mount{plain, hosts},
		},
		{
			name: "pod network without IPs gets no hosts mount",
			want: []mounts.Mount{},
		},
		{
			name:        "host network pod without IPs gets the hosts mount",
			hostNetwork: true,
			want:        []mounts.Mount{hosts},
		},
		{
			name:    "volumeMount at exactly /etc/hosts replaces the hosts mount",
			volumes: disk,
			podIPs:  []string{"10.0.0.1"},
			mounts:  []v1.VolumeMount{{MountPath: "/etc/hosts", Name: "disk"}},
			want:    []mounts.Mount{{Name: "disk", ContainerPath: "/etc/hosts", HostPath: "/vol/disk"}},
		},
		{
			name:    "volumeMount at a spelling of /etc/hosts that is not exact keeps the hosts mount",
			volumes: disk,
			podIPs:  []string{"10.0.0.1"},
			mounts:  []v1.VolumeMount{{MountPath: "/etc//hosts", Name: "disk"}},
			want:    []mounts.Mount{{Name: "disk", ContainerPath: "/etc//hosts", HostPath: "/vol/disk"}, hosts},
		},
		{
			name:      "hosts file error is returned verbatim",
			podIPs:    []string{"10.0.0.1"},
			hostsFile: func() (string, error) { return "", fs.ErrPermission },
			wantErr:   "permission denied",
			wantIs:    []error{fs.ErrPermission},
		},
		{
			name:        "hosts mount needed without EnsureHostsFile is an error",
			podIPs:      []string{"10.0.0.1"},
			noHostsFunc: true,
			wantErr:     `container "ctr" needs the managed /etc/hosts mount but EnsureHostsFile is nil`,
			wantIs:      []error{mounts.ErrMissingDependency},
		},
		{
			name:        "EnsureHostsFile is not needed without the hosts mount",
			noHostsFunc: true,
			want:        []mounts.Mount{},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, tc.run)
	}
}
