package validation

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

// ctrMounts sets the first container's volumeMounts.
func ctrMounts(mounts ...v1.VolumeMount) func(*v1.Pod) {
	return ctrFirst(func(c *v1.Container) { c.VolumeMounts = mounts })
}

// ctrDevices sets the first container's volumeDevices.
func ctrDevices(devices ...v1.VolumeDevice) func(*v1.Pod) {
	return ctrFirst(func(c *v1.Container) { c.VolumeDevices = devices })
}

func TestContainerVolumeMounts(t *testing.T) {
	ctrRun(t, []ctrCase{
		{
			name:   "a mount of a volume the pod lacks is refused",
			mutate: ctrMounts(v1.VolumeMount{Name: "cache", MountPath: "/cache"}),
			want:   []string{`spec.containers[0].volumeMounts[0].name: Not found: "cache"`},
		},
		{
			name:   "a mount without a name or a path is refused",
			mutate: ctrMounts(v1.VolumeMount{}),
			want: []string{
				`spec.containers[0].volumeMounts[0].name: Required value`,
				`spec.containers[0].volumeMounts[0].name: Not found: ""`,
				`spec.containers[0].volumeMounts[0].mountPath: Required value`,
			},
		},
		{
			name:   "two mounts at one path are refused",
			mutate: ctrMounts(v1.VolumeMount{Name: "config", MountPath: "/etc/app"}, v1.VolumeMount{Name: "config", MountPath: "/etc/app"}),
			want:   []string{`spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/etc/app": must be unique`},
		},
		{
			name: "an absolute subPath and one with '..' are refused, on the list",
			mutate: ctrMounts(
				v1.VolumeMount{Name: "config", MountPath: "/a", SubPath: "/etc"},
				v1.VolumeMount{Name: "config", MountPath: "/b", SubPath: "x/../../y"},
			),
			want: []string{
				`spec.containers[0].volumeMounts.subPath: Invalid value: "/etc": must be a relative path`,
				`spec.containers[0].volumeMounts.subPath: Invalid value: "x/../../y": must not contain '..'`,
			},
		},
		{
			name:   "subPath and subPathExpr together are refused",
			mutate: ctrMounts(v1.VolumeMount{Name: "config", MountPath: "/a", SubPath: "x", SubPathExpr: "$(POD)"}),
			want:   []string{`spec.containers[0].volumeMounts[0].subPathExpr: Invalid value: "$(POD)": subPathExpr and subPath are mutually exclusive`},
		},
		{
			name:   "an unknown mount propagation is refused",
			mutate: ctrMounts(v1.VolumeMount{Name: "config", MountPath: "/a", MountPropagation: ptr.To[v1.MountPropagationMode]("Shared")}),
			want:   []string{`spec.containers[0].volumeMounts.mountPropagation: Unsupported value: "Shared": supported values: "Bidirectional", "HostToContainer", "None"`},
		},
		{
			name:   "bidirectional propagation in a container that is not privileged is refused",
			mutate: ctrMounts(v1.VolumeMount{Name: "config", MountPath: "/a", MountPropagation: ptr.To(v1.MountPropagationBidirectional)}),
			want:   []string{`spec.containers[0].volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers`},
		},
		{
			name: "bidirectional propagation in a privileged container is accepted",
			mutate: ctrFirst(func(c *v1.Container) {
				c.SecurityContext = &v1.SecurityContext{Privileged: ptr.To(true)}
				c.VolumeMounts = []v1.VolumeMount{{Name: "config", MountPath: "/a", MountPropagation: ptr.To(v1.MountPropagationBidirectional)}}
			}),
		},
		{
			name: "a recursive read-only mount that is writable or receives mounts is refused",
			mutate: ctrMounts(v1.VolumeMount{
				Name: "config", MountPath: "/a", RecursiveReadOnly: ptr.To(v1.RecursiveReadOnlyEnabled),
				MountPropagation: ptr.To(v1.MountPropagationHostToContainer),
			}),
			want: []string{
				`spec.containers[0].volumeMounts.recursiveReadOnly: Forbidden: may only be specified when readOnly is true`,
				`spec.containers[0].volumeMounts.recursiveReadOnly: Forbidden: may only be specified when mountPropagation is None or not specified`,
			},
		},
		{
			name:   "an unknown recursiveReadOnly is refused",
			mutate: ctrMounts(v1.VolumeMount{Name: "config", MountPath: "/a", ReadOnly: true, RecursiveReadOnly: ptr.To[v1.RecursiveReadOnlyMode]("Always")}),
			want:   []string{`spec.containers[0].volumeMounts.recursiveReadOnly: Unsupported value: "Always": supported values: "Disabled", "Enabled", "IfPossible"`},
		},
		{
			name:   "an unknown or repeated bind mount option is refused",
			mutate: ctrMounts(v1.VolumeMount{Name: "config", MountPath: "/a", BindMountOptions: []string{"ro", "noexec", "noexec"}}),
			want: []string{
				`spec.containers[0].volumeMounts[0].bindMountOptions[0]: Unsupported value: "ro": supported values: "nodev", "noexec", "nosuid"`,
				`spec.containers[0].volumeMounts[0].bindMountOptions[2]: Duplicate value: "noexec"`,
			},
		},
		{
			name: "bind mount options on an image volume are refused",
			mutate: func(pod *v1.Pod) {
				pod.Spec.Volumes = append(pod.Spec.Volumes, v1.Volume{Name: "tools", VolumeSource: v1.VolumeSource{
					Image: &v1.ImageVolumeSource{Reference: "tools:1", PullPolicy: v1.PullIfNotPresent},
				}})
				ctrMounts(v1.VolumeMount{Name: "tools", MountPath: "/tools", BindMountOptions: []string{"nodev"}})(pod)
			},
			want: []string{`spec.containers[0].volumeMounts[0].bindMountOptions: Invalid value: ["nodev"]: bindMountOptions may not be used with image volumes`},
		},
	})
}

func TestContainerVolumeDevices(t *testing.T) {
	ctrRun(t, []ctrCase{
		{
			name:   "a device of a volume that is not a claim is refused",
			mutate: ctrDevices(v1.VolumeDevice{Name: "config", DevicePath: "/dev/xvda"}),
			want:   []string{`spec.containers[0].volumeDevices[0].name: Invalid value: "config": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode`},
		},
		{
			name:   "a device of a volume the pod lacks, without a path, is refused",
			mutate: ctrDevices(v1.VolumeDevice{Name: "disk"}),
			want: []string{
				`spec.containers[0].volumeDevices[0].name: Not found: "disk"`,
				`spec.containers[0].volumeDevices[0].devicePath: Required value`,
			},
		},
		{
			name:   "a device named twice, at one path twice, is refused",
			mutate: ctrDevices(v1.VolumeDevice{Name: "data", DevicePath: "/dev/xvda"}, v1.VolumeDevice{Name: "data", DevicePath: "/dev/xvda"}),
			want: []string{
				`spec.containers[0].volumeDevices[1].name: Invalid value: "data": must be unique`,
				`spec.containers[0].volumeDevices[1].devicePath: Invalid value: "/dev/xvda": must be unique`,
			},
		},
		{
			name:   "a device path with '..' is refused",
			mutate: ctrDevices(v1.VolumeDevice{Name: "data", DevicePath: "/dev/../xvda"}),
			want:   []string{`spec.containers[0].volumeDevices[0].devicePath: Invalid value: "/dev/../xvda": can not contain backsteps ('..')`},
		},
		{
			name: "a volume both mounted and a device, at one path, is refused on both",
			mutate: ctrFirst(func(c *v1.Container) {
				c.VolumeMounts = []v1.VolumeMount{{Name: "data", MountPath: "/dev/xvda"}}
				c.VolumeDevices = []v1.VolumeDevice{{Name: "data", DevicePath: "/dev/xvda"}}
			}),
			want: []string{
				`spec.containers[0].volumeMounts[0].name: Invalid value: "data": must not already exist in volumeDevices`,
				`spec.containers[0].volumeMounts[0].mountPath: Invalid value: "/dev/xvda": must not already exist as a path in volumeDevices`,
				`spec.containers[0].volumeDevices[0].name: Invalid value: "data": must not already exist in volumeMounts`,
				`spec.containers[0].volumeDevices[0].devicePath: Invalid value: "/dev/xvda": must not already exist as a path in volumeMounts`,
			},
		},
	})
}
