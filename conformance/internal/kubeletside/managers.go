package kubeletside

import (
	"context"
	"os"
	"path/filepath"
	"unsafe"

	v1 "k8s.io/api/core/v1"
	kubeletconfig "k8s.io/kubernetes/pkg/kubelet/apis/config"
	"k8s.io/kubernetes/pkg/kubelet/cm"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	"k8s.io/kubernetes/pkg/kubelet/volumemanager"
	"k8s.io/kubernetes/pkg/volume"
	volumetypes "k8s.io/kubernetes/pkg/volume/util/types"

	"github.com/podconfig/podconfig/conformance/scenario"
)

// containerManager is kubelet's fake container manager with the two answers that reach container
// configs made real: the pod's cgroup (kubelet's own podContainerManagerImpl) and what device
// plugins give a container.
type containerManager struct {
	*cm.FakeContainerManager
	sc   *scenario.Scenario
	node scenario.Node
}

// podContainerManager mirrors kubelet's podContainerManagerImpl (v1.37.1), whose
// GetPodContainerName is called by name.
type podContainerManager struct {
	qosContainersInfo       cm.QOSContainersInfo
	subsystems              *cm.CgroupSubsystems
	cgroupManager           cm.CgroupManager
	podPidsLimit            int64
	enforceCPULimits        bool
	cpuCFSQuotaPeriod       uint64
	podContainerManager     cm.ContainerManager
	memoryReservationPolicy kubeletconfig.MemoryReservationPolicy
	memoryThrottlingFactor  *float64
}

type podCgroups struct {
	cm.PodContainerManager
	impl *podContainerManager
}

func (p podCgroups) GetPodContainerName(pod *v1.Pod) (cm.CgroupName, string) {
	if p.impl == nil {
		// kubelet's podContainerManagerNoop, for --cgroups-per-qos=false.
		return nil, ""
	}
	return getPodContainerName(unsafe.Pointer(p.impl), pod)
}

// NewPodContainerManager builds what kubelet's containerManagerImpl builds for the node's cgroup
// driver, root and per-QoS setting.
func (c *containerManager) NewPodContainerManager() cm.PodContainerManager {
	if c.node.NoCgroupsPerQOS {
		return podCgroups{}
	}
	root := cm.NewCgroupName(cm.ParseCgroupfsToCgroupName(c.node.CgroupRoot), "kubepods")
	return podCgroups{impl: &podContainerManager{
		qosContainersInfo: cm.QOSContainersInfo{
			Guaranteed: root,
			Burstable:  cm.NewCgroupName(root, "burstable"),
			BestEffort: cm.NewCgroupName(root, "besteffort"),
		},
		subsystems:    &cm.CgroupSubsystems{},
		cgroupManager: cm.NewCgroupManager(klogger(context.Background()), &cm.CgroupSubsystems{}, c.node.CgroupDriver),
	}}
}

// GetResources returns what the scenario's device plugins give the container.
func (c *containerManager) GetResources(_ context.Context, _ *v1.Pod, container *v1.Container) (*kubecontainer.RunContainerOptions, error) {
	opts := &kubecontainer.RunContainerOptions{}
	d, ok := c.sc.Devices[container.Name]
	if !ok {
		return opts, nil
	}
	for _, dev := range d.Devices {
		opts.Devices = append(opts.Devices, kubecontainer.DeviceInfo{PathOnHost: dev.PathOnHost, PathInContainer: dev.PathInContainer, Permissions: dev.Permissions})
	}
	for _, m := range d.Mounts {
		opts.Mounts = append(opts.Mounts, kubecontainer.Mount{Name: m.ContainerPath, ContainerPath: m.ContainerPath, HostPath: m.HostPath, ReadOnly: m.ReadOnly})
	}
	for _, k := range sortedKeys(d.Envs) {
		opts.Envs = append(opts.Envs, kubecontainer.EnvVar{Name: k, Value: d.Envs[k]})
	}
	for _, k := range sortedKeys(d.Annotations) {
		opts.Annotations = append(opts.Annotations, kubecontainer.Annotation{Name: k, Value: d.Annotations[k]})
	}
	for _, name := range d.CDIDevices {
		opts.CDIDevices = append(opts.CDIDevices, kubecontainer.CDIDevice{Name: name})
	}
	return opts, nil
}

// volumeManager reports the scenario's mounted volumes.
type volumeManager struct {
	volumemanager.VolumeManager
	volumes kubecontainer.VolumeMap
	groups  []int64
}

func newVolumeManager(vols []scenario.MountedVolume, groups []int64) *volumeManager {
	vm := &volumeManager{volumes: kubecontainer.VolumeMap{}, groups: groups}
	for _, v := range vols {
		info := kubecontainer.VolumeInfo{
			ReadOnly:            v.ReadOnly,
			SELinuxLabeled:      v.SELinuxLabeled,
			InnerVolumeSpecName: v.InnerVolumeName,
		}
		if info.InnerVolumeSpecName == "" {
			info.InnerVolumeSpecName = v.Name
		}
		if v.BlockDevice != "" {
			info.BlockVolumeMapper = &blockMapper{dir: filepath.Dir(v.BlockDevice), name: filepath.Base(v.BlockDevice)}
		} else {
			info.Mounter = &mounter{path: v.Path, attrs: volume.Attributes{ReadOnly: v.ReadOnly, Managed: v.SELinuxRelabel, SELinuxRelabel: v.SELinuxRelabel}}
		}
		vm.volumes[v.Name] = info
	}
	return vm
}

func (v *volumeManager) GetMountedVolumesForPod(volumetypes.UniquePodName) kubecontainer.VolumeMap {
	// makeMounts marks volumes labelled in the map it is given; each call gets a fresh copy, as
	// kubelet's volume manager builds the map on every call.
	out := make(kubecontainer.VolumeMap, len(v.volumes))
	for k, info := range v.volumes {
		out[k] = info
	}
	return out
}

func (v *volumeManager) GetExtraSupplementalGroupsForPod(*v1.Pod) []int64 { return v.groups }

// makeBlockDevices creates the block volumes' device symlinks, which kubelet checks on the host.
func makeBlockDevices(vols []scenario.MountedVolume) error {
	for _, v := range vols {
		if v.BlockDevice == "" {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(v.BlockDevice), 0o750); err != nil {
			return err
		}
		if err := os.Symlink("/dev/null", v.BlockDevice); err != nil && !os.IsExist(err) {
			return err
		}
	}
	return nil
}
