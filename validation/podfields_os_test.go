package validation

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

func TestPodOS(t *testing.T) {
	pfRun(t, []pfCase{
		{
			name: "an os without a name is refused",
			edit: func(p *v1.Pod) { p.Spec.OS = &v1.PodOS{} },
			want: []string{"spec.os.name: Required value"},
		},
		{
			name: "an unknown os is refused on spec.os",
			edit: func(p *v1.Pod) { p.Spec.OS = &v1.PodOS{Name: "darwin"} },
			want: []string{`spec.os: Unsupported value: "darwin": supported values: "linux", "windows"`},
		},
		{
			name: "a linux pod with windowsOptions in the pod or a container is refused",
			edit: func(p *v1.Pod) {
				p.Spec.OS = &v1.PodOS{Name: v1.Linux}
				pfPodSC(p).WindowsOptions = &v1.WindowsSecurityContextOptions{}
				pfContainerSC(p).WindowsOptions = &v1.WindowsSecurityContextOptions{}
			},
			want: []string{
				"spec.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod",
				"spec.containers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod",
			},
		},
		{
			name: "a windows pod is refused each Linux-only field of the pod, its namespaces and its containers",
			edit: func(p *v1.Pod) {
				p.Spec.OS = &v1.PodOS{Name: v1.Windows}
				sc := pfPodSC(p)
				sc.SELinuxOptions = &v1.SELinuxOptions{}
				sc.FSGroup = ptr.To[int64](1)
				sc.Sysctls = []v1.Sysctl{{Name: "kernel.domainname", Value: "1"}}
				sc.SupplementalGroups = []int64{1000}
				p.Spec.HostUsers = ptr.To(true)
				p.Spec.HostIPC = true
				csc := pfContainerSC(p)
				csc.Capabilities = &v1.Capabilities{}
				csc.ReadOnlyRootFilesystem = ptr.To(true)
				csc.RunAsGroup = ptr.To[int64](1)
			},
			want: []string{
				"spec.securityContext.seLinuxOptions: Forbidden: cannot be set for a windows pod",
				"spec.securityContext.fsGroup: Forbidden: cannot be set for a windows pod",
				"spec.securityContext.sysctls: Forbidden: cannot be set for a windows pod",
				"spec.securityContext.supplementalGroups: Forbidden: cannot be set for a windows pod",
				"spec.hostUsers: Forbidden: cannot be set for a windows pod",
				"spec.hostIPC: Forbidden: cannot be set for a windows pod",
				"spec.containers[0].securityContext.capabilities: Forbidden: cannot be set for a windows pod",
				"spec.containers[0].securityContext.readOnlyRootFilesystem: Forbidden: cannot be set for a windows pod",
				"spec.containers[0].securityContext.runAsGroup: Forbidden: cannot be set for a windows pod",
			},
		},
		{
			name: "a windows pod is not checked for AppArmor annotations matching the fields",
			edit: func(p *v1.Pod) {
				p.Spec.OS = &v1.PodOS{Name: v1.Windows}
				p.Annotations = map[string]string{v1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix + "app": "unconfined"}
				pfContainerSC(p).AppArmorProfile = &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeRuntimeDefault}
			},
			want: []string{"spec.containers[0].securityContext.appArmorProfile: Forbidden: cannot be set for a windows pod"},
		},
	})
}

func TestWindowsHostProcessAndUserNamespaces(t *testing.T) {
	pfRun(t, []pfCase{
		{
			name: "a container hostProcess other than the pod's, a mix of host-process containers and no hostNetwork are refused",
			edit: func(p *v1.Pod) {
				pfPodSC(p).WindowsOptions = &v1.WindowsSecurityContextOptions{HostProcess: ptr.To(true)}
				pfContainerSC(p).WindowsOptions = &v1.WindowsSecurityContextOptions{HostProcess: ptr.To(false)}
				p.Spec.InitContainers = []v1.Container{p.Spec.Containers[0]}
				p.Spec.InitContainers[0].Name = "init"
				p.Spec.InitContainers[0].SecurityContext = nil
			},
			want: []string{
				"spec.containers[0].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true",
				`spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers`,
				"spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers",
			},
		},
		{
			name: "a windows host-process pod on the host network is accepted (privileged pods are allowed)",
			edit: func(p *v1.Pod) {
				p.Spec.OS = &v1.PodOS{Name: v1.Windows}
				p.Spec.HostNetwork = true
				pfPodSC(p).WindowsOptions = &v1.WindowsSecurityContextOptions{HostProcess: ptr.To(true)}
			},
		},
		{
			name: "a pod with hostUsers false shares no namespace with the host and has no volumeDevices",
			edit: func(p *v1.Pod) {
				p.Spec.HostUsers = ptr.To(false)
				p.Spec.HostNetwork = true
				p.Spec.HostPID = true
				p.Spec.HostIPC = true
				p.Spec.Volumes = []v1.Volume{{Name: "disk", VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "c"}}}}
				p.Spec.Containers[0].VolumeDevices = []v1.VolumeDevice{{Name: "disk", DevicePath: "/dev/xvda"}}
			},
			want: []string{
				"spec.hostNetwork: Forbidden: when `hostUsers` is false",
				"spec.HostPID: Forbidden: when `hostUsers` is false",
				"spec.HostIPC: Forbidden: when `hostUsers` is false",
				"spec.containers[0].volumeDevices: Forbidden: when `hostUsers` is false",
			},
		},
	})
}
