package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"sigs.k8s.io/yaml"
)

// Scenario is one pod rendered by kubelet and by podconfig on the same node.
type Scenario struct {
	// Name identifies the scenario in test names and failure messages.
	Name string `json:"name"`
	// Description says which kubelet rule the scenario exercises.
	Description string `json:"description,omitempty"`
	// Area is the row of the compatibility table (docs/compatibility.md) the scenario covers.
	Area string `json:"area,omitempty"`
	// Node holds the node and kubelet facts both sides are given.
	Node Node `json:"node,omitempty"`
	// Pod is the pod. Unless RawPod is set it goes through the API server's defaulting first, as
	// every pod kubelet receives from the API server has.
	Pod *v1.Pod `json:"pod"`
	// RawPod skips the API server's defaulting.
	RawPod bool `json:"rawPod,omitempty"`
	// Objects are the ConfigMaps, Secrets and Services the pod refers to (and the Node, which
	// otherwise is built from Node).
	Objects []runtime.RawExtension `json:"objects,omitempty"`
	// PodIPs are the sandbox's IPs.
	PodIPs []string `json:"podIPs,omitempty"`
	// Images give the user each image runs as; an image not listed runs as uid 0.
	Images map[string]ImageUser `json:"images,omitempty"`
	// Volumes override how the pod's volumes are mounted; a pod volume not listed is mounted where
	// kubelet mounts its plugin, <root>/pods/<uid>/volumes/<plugin>/<name>.
	Volumes map[string]Volume `json:"volumes,omitempty"`
	// Missing lists pod volumes that are not mounted (kubelet's volume manager does not have them).
	Missing []string `json:"missing,omitempty"`
	// Paths lists paths relative to a volume (volume/sub/path) that exist on the node, as
	// directories, for subPath checks.
	Paths []string `json:"paths,omitempty"`
	// Files are regular files on the node, by volume/relative/path: what fileKeyRef reads.
	Files map[string]string `json:"files,omitempty"`
	// Devices are what device plugins give each container, by container name.
	Devices map[string]DeviceResources `json:"devices,omitempty"`
	// RestartCount is the restart count of every container.
	RestartCount int `json:"restartCount,omitempty"`
	// Attempt is the sandbox attempt.
	Attempt uint32 `json:"attempt,omitempty"`
	// NamespaceTarget is the container ID an ephemeral container targets.
	NamespaceTarget string `json:"namespaceTarget,omitempty"`
	// Deviations name the expected differences (see the conformance package's Deviations).
	Deviations []string `json:"deviations,omitempty"`
}

// Node is the node and kubelet configuration of a scenario. The zero value is a cgroup v2 node
// with the cgroupfs driver, 2MB and 1GB hugepages, no SELinux and kubelet's defaults.
type Node struct {
	Name          string   `json:"name,omitempty"`
	IPs           []string `json:"ips,omitempty"`
	ClusterDomain string   `json:"clusterDomain,omitempty"`
	ClusterDNS    []string `json:"clusterDNS,omitempty"`
	// ResolvConf is the content of kubelet's --resolv-conf file; empty means none.
	ResolvConf string `json:"resolvConf,omitempty"`
	// CgroupV1 makes the node a cgroup v1 node.
	CgroupV1 bool `json:"cgroupV1,omitempty"`
	// CgroupDriver is cgroupfs (default) or systemd.
	CgroupDriver string `json:"cgroupDriver,omitempty"`
	// CgroupRoot is kubelet's --cgroup-root; empty means "/".
	CgroupRoot string `json:"cgroupRoot,omitempty"`
	// NoCgroupsPerQOS is --cgroups-per-qos=false.
	NoCgroupsPerQOS bool `json:"noCgroupsPerQOS,omitempty"`
	// HugePageSizes are the sizes the node lists, in runc's names; nil means 2MB and 1GB.
	HugePageSizes []string `json:"hugePageSizes,omitempty"`
	// PageSize is the node's page size; 0 means 4096.
	PageSize int64 `json:"pageSize,omitempty"`
	// SELinux says SELinux is enabled on the node.
	SELinux bool `json:"selinux,omitempty"`
	// Memory is the node's memory capacity; empty means 16Gi.
	Memory string `json:"memory,omitempty"`
	// AllocatableCPU and AllocatableMemory are the node's allocatable; empty means 4 and 15Gi.
	AllocatableCPU    string `json:"allocatableCPU,omitempty"`
	AllocatableMemory string `json:"allocatableMemory,omitempty"`
	// RuntimeHandlers are the handlers the runtime reports; nil means none reported.
	RuntimeHandlers []RuntimeHandler `json:"runtimeHandlers,omitempty"`
	// RuntimeClasses map RuntimeClass names to handlers.
	RuntimeClasses map[string]string `json:"runtimeClasses,omitempty"`
	// FeatureGates set kubelet feature gates by name.
	FeatureGates map[string]bool `json:"featureGates,omitempty"`
	// SeccompDefault is kubelet's seccompDefault setting.
	SeccompDefault bool `json:"seccompDefault,omitempty"`
	// NoCPUCFSQuota is kubelet's cpuCFSQuota: false.
	NoCPUCFSQuota bool `json:"noCPUCFSQuota,omitempty"`
	// DefaultPodSysctls are kubelet's default pod sysctls (used with the DefaultPodSysctls gate).
	DefaultPodSysctls map[string]string `json:"defaultPodSysctls,omitempty"`
	// ExtraSupplementalGroups are the groups the pod's volumes add.
	ExtraSupplementalGroups []int64 `json:"extraSupplementalGroups,omitempty"`
}

// RuntimeHandler is a runtime handler and its features.
type RuntimeHandler struct {
	Name              string `json:"name"`
	UserNamespaces    bool   `json:"userNamespaces,omitempty"`
	RecursiveReadOnly bool   `json:"recursiveReadOnly,omitempty"`
}

// ImageUser is what the runtime says an image runs as.
type ImageUser struct {
	UID      *int64 `json:"uid,omitempty"`
	Username string `json:"username,omitempty"`
}

// Volume says how one pod volume is mounted.
type Volume struct {
	// HostPath replaces the default mount path.
	HostPath string `json:"hostPath,omitempty"`
	// EmptyPath mounts the volume with an empty path.
	EmptyPath bool `json:"emptyPath,omitempty"`
	// ReadOnly is the mounter's read-only attribute.
	ReadOnly *bool `json:"readOnly,omitempty"`
	// SELinuxRelabel is the mounter's managed-and-relabel attributes.
	SELinuxRelabel *bool `json:"selinuxRelabel,omitempty"`
	// SELinuxLabeled says the volume was relabelled already.
	SELinuxLabeled bool `json:"selinuxLabeled,omitempty"`
	// BlockDevice makes the volume a block volume whose device symlink is this path.
	BlockDevice string `json:"blockDevice,omitempty"`
	// InnerVolumeName is the PV name of a PVC volume.
	InnerVolumeName string `json:"innerVolumeName,omitempty"`
}

// DeviceResources are what device plugins give one container.
type DeviceResources struct {
	Devices     []Device          `json:"devices,omitempty"`
	Mounts      []DeviceMount     `json:"mounts,omitempty"`
	Envs        map[string]string `json:"envs,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
	CDIDevices  []string          `json:"cdiDevices,omitempty"`
}

// Device is a device-plugin device.
type Device struct {
	PathOnHost      string `json:"pathOnHost"`
	PathInContainer string `json:"pathInContainer"`
	Permissions     string `json:"permissions"`
}

// DeviceMount is a device-plugin mount.
type DeviceMount struct {
	ContainerPath string `json:"containerPath"`
	HostPath      string `json:"hostPath"`
	ReadOnly      bool   `json:"readOnly,omitempty"`
}

// Defaults of a Node's zero fields.
const (
	DefaultNodeName      = "node-1"
	DefaultClusterDomain = "cluster.local"
	DefaultMemory        = "16Gi"
	DefaultAllocCPU      = "4"
	DefaultAllocMemory   = "15Gi"
	DefaultPageSize      = 4096
)

// WithDefaults returns n with its zero fields set to the documented defaults.
func (n Node) WithDefaults() Node {
	if n.Name == "" {
		n.Name = DefaultNodeName
	}
	if n.IPs == nil {
		n.IPs = []string{"10.0.0.1"}
	}
	if n.ClusterDomain == "" {
		n.ClusterDomain = DefaultClusterDomain
	}
	if n.ClusterDNS == nil {
		n.ClusterDNS = []string{"10.96.0.10"}
	}
	if n.CgroupDriver == "" {
		n.CgroupDriver = "cgroupfs"
	}
	if n.CgroupRoot == "" {
		n.CgroupRoot = "/"
	}
	if n.HugePageSizes == nil {
		n.HugePageSizes = []string{"2MB", "1GB"}
	}
	if n.PageSize == 0 {
		n.PageSize = DefaultPageSize
	}
	if n.Memory == "" {
		n.Memory = DefaultMemory
	}
	if n.AllocatableCPU == "" {
		n.AllocatableCPU = DefaultAllocCPU
	}
	if n.AllocatableMemory == "" {
		n.AllocatableMemory = DefaultAllocMemory
	}
	return n
}

// Quantity parses a quantity of a scenario, panicking on a malformed one: scenarios are test
// data checked by Load.
func Quantity(s string) resource.Quantity { return resource.MustParse(s) }

// Decoded returns the scenario's objects decoded into typed API objects.
func (s *Scenario) Decoded() ([]runtime.Object, error) {
	scheme := runtime.NewScheme()
	if err := v1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	dec := serializer.NewCodecFactory(scheme).UniversalDeserializer()
	out := make([]runtime.Object, 0, len(s.Objects))
	for i, raw := range s.Objects {
		if raw.Object != nil {
			out = append(out, raw.Object)
			continue
		}
		obj, _, err := dec.Decode(raw.Raw, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("scenario %s: object %d: %w", s.Name, i, err)
		}
		out = append(out, obj)
	}
	return out, nil
}

// Validate checks what both sides need: a named pod with a UID.
func (s *Scenario) Validate() error {
	switch {
	case s.Name == "":
		return fmt.Errorf("scenario without a name")
	case s.Pod == nil:
		return fmt.Errorf("scenario %s: no pod", s.Name)
	case s.Pod.UID == "":
		return fmt.Errorf("scenario %s: the pod has no uid", s.Name)
	}
	for _, q := range []string{s.Node.Memory, s.Node.AllocatableCPU, s.Node.AllocatableMemory} {
		if q == "" {
			continue
		}
		if _, err := resource.ParseQuantity(q); err != nil {
			return fmt.Errorf("scenario %s: %w", s.Name, err)
		}
	}
	_, err := s.Decoded()
	return err
}

// Load reads every *.yaml file under dir; a file holds one scenario or a list of them.
func Load(dir string) ([]*Scenario, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var all []*Scenario
	seen := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var list []*Scenario
		if strings.HasPrefix(strings.TrimSpace(string(data)), "-") {
			err = yaml.UnmarshalStrict(data, &list)
		} else {
			var one Scenario
			err = yaml.UnmarshalStrict(data, &one)
			list = []*Scenario{&one}
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for _, s := range list {
			if err := s.Validate(); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			if prev, dup := seen[s.Name]; dup {
				return nil, fmt.Errorf("%s: scenario %s is also in %s", f, s.Name, prev)
			}
			seen[s.Name] = f
			all = append(all, s)
		}
	}
	return all, nil
}

// Containers returns the pod's containers in the order kubelet starts them: init containers,
// containers, then ephemeral containers (as the Container they run as).
func Containers(pod *v1.Pod) []*v1.Container {
	var out []*v1.Container
	for i := range pod.Spec.InitContainers {
		out = append(out, &pod.Spec.InitContainers[i])
	}
	for i := range pod.Spec.Containers {
		out = append(out, &pod.Spec.Containers[i])
	}
	for i := range pod.Spec.EphemeralContainers {
		c := v1.Container(pod.Spec.EphemeralContainers[i].EphemeralContainerCommon)
		out = append(out, &c)
	}
	return out
}

// IsEphemeral reports whether name is one of the pod's ephemeral containers.
func IsEphemeral(pod *v1.Pod, name string) bool {
	for _, c := range pod.Spec.EphemeralContainers {
		if c.Name == name {
			return true
		}
	}
	return false
}

// ImageRef is the image reference (image ID) both sides give a container's image.
func ImageRef(image string) string { return fmt.Sprintf("sha256:%x", image) }
