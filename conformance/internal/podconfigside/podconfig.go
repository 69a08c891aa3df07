// Package podconfigside renders a scenario with podconfig, on the same node facts the kubelet
// side is given, on the offline node's parts (package offline): its files in memory (New) or,
// for the production benchmark, on the real file backend (NewOnHost).
package podconfigside

import (
	"context"
	"net"
	"os"
	"path/filepath"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/blockdev"
	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/conformance/internal/kubeletside"
	"github.com/podconfig/podconfig/conformance/internal/result"
	"github.com/podconfig/podconfig/conformance/scenario"
	"github.com/podconfig/podconfig/features"
	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/offline"
	"github.com/podconfig/podconfig/resources"
	"github.com/podconfig/podconfig/security"
)

// DefaultUserNamespaceID is the host id podconfig's mapper gives when the kubelet side allocated
// none. kubelet's userns manager picks a free block at random; the allocator is the caller's in
// podconfig, so the run gives podconfig the block kubelet chose (New's usernsHostID).
const DefaultUserNamespaceID = 65536

// TerminationMessageName is the termination-message file name podconfig is given; kubelet's is
// random and normalised to it.
const TerminationMessageName = "0000002a"

// Node is a podconfig Generator for one scenario, with the volumes it mounts.
type Node struct {
	Gen     *configgen.Generator
	Files   configgen.HostFiles
	Volumes mounts.VolumeMap
	sc      *scenario.Scenario
	root    string
}

// New builds the Generator for sc under root and logs, its files in memory.
func New(sc *scenario.Scenario, pod *v1.Pod, root, logs string, usernsHostID uint32) (*Node, error) {
	return newNode(sc, pod, root, logs, usernsHostID, hostfs.NewMemory(), func() uint32 { return 42 })
}

// NewOnHost builds the Generator for sc under root and logs as a node runs it: its files are the
// host's (hostfs.OS), and termination-message files get random names, as kubelet's do. HostUtils
// and the Subpather stay in memory, as they do on the kubelet side.
func NewOnHost(sc *scenario.Scenario, pod *v1.Pod, root, logs string, usernsHostID uint32) (*Node, error) {
	return newNode(sc, pod, root, logs, usernsHostID, hostfs.OS{}, nil)
}

// NewOnFiles is NewOnHost with files in place of hostfs.OS: the host's files seen through a
// wrapper, such as hostfstest's Interceptor counting the calls a config makes.
func NewOnFiles(sc *scenario.Scenario, pod *v1.Pod, root, logs string, usernsHostID uint32, files configgen.HostFiles) (*Node, error) {
	return newNode(sc, pod, root, logs, usernsHostID, files, nil)
}

func newNode(sc *scenario.Scenario, pod *v1.Pod, root, logs string, usernsHostID uint32, files configgen.HostFiles, termRand func() uint32) (*Node, error) {
	n := sc.Node.WithDefaults()
	objs, err := sc.Decoded()
	if err != nil {
		return nil, err
	}
	objects := offline.NewObjects()
	node := &v1.Node{}
	node.Name = n.Name
	node.Status.Allocatable = v1.ResourceList{
		v1.ResourceCPU:    scenario.Quantity(n.AllocatableCPU),
		v1.ResourceMemory: scenario.Quantity(n.AllocatableMemory),
	}
	node.Status.Capacity = v1.ResourceList{v1.ResourceMemory: scenario.Quantity(n.Memory)}
	for _, ip := range n.IPs {
		node.Status.Addresses = append(node.Status.Addresses, v1.NodeAddress{Type: v1.NodeInternalIP, Address: ip})
	}
	hasNode := false
	for _, o := range objs {
		if _, ok := o.(*v1.Node); ok {
			hasNode = true
		}
		objects.Add(o)
	}
	if !hasNode {
		objects.Add(node)
	}

	// kubelet's syncPod makes the pod's data directories before any container config.
	if err := files.MkdirAll(filepath.Join(root, "pods", string(pod.UID)), 0o750); err != nil {
		return nil, err
	}
	hu := offline.NewHostUtils()
	sp := offline.NewSubpather(hu)
	blocks := offline.NewBlockDevices()
	vols := sc.MountedVolumes(root)
	vm := mounts.VolumeMap{}
	for _, v := range vols {
		mv := mounts.Volume{
			MounterType:     kubeletside.MounterType,
			HostPath:        v.Path,
			ReadOnly:        v.ReadOnly,
			SELinuxRelabel:  v.SELinuxRelabel && !v.SELinuxLabeled,
			BlockDevicePath: v.BlockDevice,
			InnerVolumeName: v.InnerVolumeName,
		}
		if v.Image != "" {
			mv.Image = &runtimeapi.ImageSpec{Image: v.Image, UserSpecifiedImage: v.Image}
		}
		if v.BlockDevice != "" {
			blocks.Add(v.BlockDevice)
		}
		vm[v.Name] = mv
	}
	for _, p := range sc.ExistingPaths(vols) {
		hu.AddPath(p, os.ModeDir|0o777)
		_ = files.MkdirAll(p, 0o777)
	}
	for p, content := range sc.FilePaths(vols) {
		if err := files.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := files.WriteFile(p, []byte(content), 0o644); err != nil {
			return nil, err
		}
		hu.AddPath(filepath.Dir(p), os.ModeDir|0o755)
		hu.AddPath(p, 0o644)
	}

	users := security.ImageUserMap{}
	for _, c := range scenario.Containers(pod) {
		u := sc.Images[c.Image]
		users[c.Image] = security.ImageUser{UID: u.UID, Username: u.Username}
		if u.UID == nil && u.Username == "" {
			zero := int64(0)
			users[c.Image] = security.ImageUser{UID: &zero}
		}
	}

	gates := features.Default()
	for name, on := range n.FeatureGates {
		switch name {
		case "EnvFiles":
			gates.EnvFiles = on
		case "PodLevelResources":
			gates.PodLevelResources = on
		case "MemoryQoS":
			gates.MemoryQoS = on
		case "CustomCPUCFSQuotaPeriod":
			gates.CustomCPUCFSQuotaPeriod = on
		case "ContainerStopSignals":
			gates.ContainerStopSignals = on
		case "DefaultPodSysctls":
			gates.DefaultPodSysctls = on
		case "DRANodeAllocatableResources":
			gates.DRANodeAllocatableResources = on
		}
	}

	memory := scenario.Quantity(n.Memory)
	alloc := scenario.Quantity(n.AllocatableMemory)
	res := resources.DefaultConfig(resources.Node{
		CgroupV2:          !n.CgroupV1,
		MemoryCapacity:    memory.Value(),
		AllocatableMemory: alloc.Value(),
		HugePageSizes:     n.HugePageSizes,
		PageSize:          n.PageSize,
	})
	res.Kubelet.CPUCFSQuota = !n.NoCPUCFSQuota

	var handlers []*runtimeapi.RuntimeHandler
	var usernsHandlers map[string]bool
	for _, h := range n.RuntimeHandlers {
		handlers = append(handlers, &runtimeapi.RuntimeHandler{Name: h.Name, Features: &runtimeapi.RuntimeHandlerFeatures{
			UserNamespaces: h.UserNamespaces, RecursiveReadOnlyMounts: h.RecursiveReadOnly,
		}})
		if usernsHandlers == nil {
			usernsHandlers = map[string]bool{}
		}
		usernsHandlers[h.Name] = h.UserNamespaces
	}
	if usernsHostID == 0 {
		usernsHostID = DefaultUserNamespaceID
	}
	userns := offline.FixedUserNamespaces(usernsHostID)
	userns.Handlers = usernsHandlers

	var resolv []byte
	if n.ResolvConf != "" {
		resolv = []byte(n.ResolvConf)
	}
	opts := configgen.Options{
		NodeIPs:                parseIPs(n.IPs),
		ClusterDomain:          n.ClusterDomain,
		ClusterDNS:             n.ClusterDNS,
		ResolvConf:             resolv,
		RootDir:                root,
		PodLogsDir:             logs,
		FeatureGates:           &gates,
		Cgroups:                configgen.NodeCgroups{Driver: configgen.CgroupDriver(n.CgroupDriver), Root: n.CgroupRoot, NoCgroupsPerQOS: n.NoCgroupsPerQOS},
		SELinuxEnabled:         n.SELinux,
		RuntimeHandlers:        handlers,
		ConfigMaps:             objects,
		Secrets:                objects,
		Services:               objects,
		Node:                   objects,
		Files:                  files,
		HostUtils:              hu,
		Subpather:              sp,
		BlockDevices:           blocks,
		ImageUsers:             users,
		Resources:              &res,
		TerminationMessageRand: termRand,
	}
	opts.Security.SeccompProfileRoot = filepath.Join(root, "seccomp")
	opts.Security.SeccompDefault = n.SeccompDefault
	opts.Security.UserNamespaces = userns
	opts.Security.RuntimeClasses = offline.RuntimeClasses(n.RuntimeClasses)
	opts.Security.DefaultPodSysctls = n.DefaultPodSysctls
	if groups := n.ExtraSupplementalGroups; groups != nil {
		opts.ExtraSupplementalGroups = func(*v1.Pod) []int64 { return groups }
	}
	if len(sc.Devices) > 0 {
		opts.DeviceResources = configgen.DeviceResourceGetterFunc(func(_ context.Context, _ *v1.Pod, c *v1.Container) (*configgen.DeviceResources, error) {
			return deviceResources(sc.Devices[c.Name]), nil
		})
	}
	gen, err := configgen.New(opts)
	if err != nil {
		return nil, err
	}
	return &Node{Gen: gen, Files: files, Volumes: vm, sc: sc, root: root}, nil
}

func deviceResources(d scenario.DeviceResources) *configgen.DeviceResources {
	out := &configgen.DeviceResources{CDIDevices: d.CDIDevices}
	for _, dev := range d.Devices {
		out.Devices = append(out.Devices, blockdev.DeviceInfo{PathOnHost: dev.PathOnHost, PathInContainer: dev.PathInContainer, Permissions: dev.Permissions})
	}
	for _, m := range d.Mounts {
		out.Mounts = append(out.Mounts, mounts.Mount{Name: m.ContainerPath, ContainerPath: m.ContainerPath, HostPath: m.HostPath, ReadOnly: m.ReadOnly})
	}
	for k, v := range d.Envs {
		out.Envs = append(out.Envs, configgen.EnvVar{Name: k, Value: v})
	}
	if len(d.Annotations) > 0 {
		out.Annotations = d.Annotations
	}
	return out
}

// Render renders the sandbox and every container of pod.
func (n *Node) Render(ctx context.Context, pod *v1.Pod) *result.Result {
	res := &result.Result{}
	res.Sandbox, res.SandboxErr = n.Sandbox(ctx, pod)
	for _, c := range scenario.Containers(pod) {
		cfg, err := n.Container(ctx, pod, c)
		var hosts []byte
		if f, err := n.Files.Open(filepath.Join(n.root, "pods", string(pod.UID), "etc-hosts")); err == nil {
			st, _ := f.Stat()
			hosts = make([]byte, st.Size())
			_, _ = f.Read(hosts)
			_ = f.Close()
		}
		res.Containers = append(res.Containers, result.Container{Name: c.Name, Config: cfg, Err: err, HostsFile: hosts})
	}
	return res
}

// Sandbox is GeneratePodSandboxConfig.
func (n *Node) Sandbox(ctx context.Context, pod *v1.Pod) (*runtimeapi.PodSandboxConfig, error) {
	return n.Gen.GeneratePodSandboxConfig(ctx, pod, n.sc.Attempt)
}

// Container is GenerateContainerConfig.
func (n *Node) Container(ctx context.Context, pod *v1.Pod, c *v1.Container) (*runtimeapi.ContainerConfig, error) {
	nsTarget := ""
	if scenario.IsEphemeral(pod, c.Name) {
		nsTarget = n.sc.NamespaceTarget
	}
	cfg, err := n.Gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{
		Pod: pod, Container: c, RestartCount: n.sc.RestartCount, PodIPs: n.sc.PodIPs,
		ImageRef: ImageRef(c.Image), Volumes: n.Volumes, NamespaceTarget: nsTarget,
	})
	return cfg, err
}

// ImageRef is the image reference both sides give a container's image.
func ImageRef(image string) string { return scenario.ImageRef(image) }

func parseIPs(ss []string) []net.IP {
	var out []net.IP
	for _, s := range ss {
		if ip := net.ParseIP(s); ip != nil {
			out = append(out, ip)
		}
	}
	return out
}
