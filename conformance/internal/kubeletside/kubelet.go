// Package kubeletside renders a scenario with kubelet v1.37's own code: a Kubelet and a
// kuberuntime manager assembled around fakes (fake clientset, fake CRI services, a fake container
// manager), whose generatePodSandboxConfig and generateContainerConfig are called by name.
//
// Kubelet reads feature gates and host facts (cgroup version, hugepage sizes, SELinux, page
// size) from process-wide state, so Render pins them to the scenario's and must not run
// concurrently with itself.
package kubeletside

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"sync"
	"time"
	"unsafe"

	cadvisorapi "github.com/google/cadvisor/lib/model"
	noopoteltrace "go.opentelemetry.io/otel/trace/noop"
	v1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/record"
	"k8s.io/component-base/featuregate"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	apitest "k8s.io/cri-api/pkg/apis/testing"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/kubelet"
	kubeletconfig "k8s.io/kubernetes/pkg/kubelet/apis/config"
	"k8s.io/kubernetes/pkg/kubelet/cm"
	"k8s.io/kubernetes/pkg/kubelet/configmap"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	"k8s.io/kubernetes/pkg/kubelet/network/dns"
	"k8s.io/kubernetes/pkg/kubelet/runtimeclass"
	"k8s.io/kubernetes/pkg/kubelet/secret"
	"k8s.io/kubernetes/pkg/kubelet/userns"
	"k8s.io/kubernetes/pkg/volume"
	"k8s.io/kubernetes/pkg/volume/util/hostutil"
	"k8s.io/kubernetes/pkg/volume/util/subpath"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/conformance/internal/result"
	"github.com/podconfig/podconfig/conformance/scenario"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/offline"
)

// pinMu serialises renders: feature gates and host facts are process-wide.
var pinMu sync.Mutex

// defaultGates is the feature gate as kubelet starts, copied before any scenario changes it.
var defaultGates = utilfeature.DefaultMutableFeatureGate.DeepCopy()

// Dirs are the directories a render writes under.
type Dirs struct {
	// Root is kubelet's --root-dir, Logs its pod logs directory.
	Root, Logs string
}

// Kubelet is a kubelet and runtime manager assembled for one scenario.
type Kubelet struct {
	sc      *scenario.Scenario
	dirs    Dirs
	kl      *kubelet.Kubelet
	manager unsafe.Pointer
	host    *offline.HostUtils
	stop    chan struct{}
	volumes []scenario.MountedVolume
}

// Render renders every container of sc with kubelet's code, writing under dirs.
func Render(ctx context.Context, sc *scenario.Scenario, pod *v1.Pod, dirs Dirs) (*result.Result, error) {
	pinMu.Lock()
	defer pinMu.Unlock()
	restore, err := Pin(sc.Node.WithDefaults())
	if err != nil {
		return nil, err
	}
	defer restore()
	k, err := New(ctx, sc, pod, dirs)
	if err != nil {
		return nil, err
	}
	defer k.Close()
	return k.RenderAll(ctx, pod), nil
}

// RenderAll renders the sandbox and every container of pod. The caller holds the pins.
func (k *Kubelet) RenderAll(ctx context.Context, pod *v1.Pod) *result.Result {
	res := &result.Result{}
	res.Sandbox, res.SandboxErr = k.Sandbox(ctx, pod)
	for _, c := range scenario.Containers(pod) {
		cfg, err := k.Container(ctx, pod, c)
		hosts, _ := os.ReadFile(filepath.Join(k.dirs.Root, "pods", string(pod.UID), "etc-hosts"))
		res.Containers = append(res.Containers, result.Container{Name: c.Name, Config: cfg, Err: err, HostsFile: hosts})
	}
	return res
}

// Sandbox is kubelet's generatePodSandboxConfig.
func (k *Kubelet) Sandbox(ctx context.Context, pod *v1.Pod) (*runtimeapi.PodSandboxConfig, error) {
	return generatePodSandboxConfig(k.manager, ctx, pod, k.sc.Attempt)
}

// PodDataDirs is kubelet's makePodDataDirs, which syncPod calls before it creates the sandbox:
// the pod's directory and its volumes and plugins directories, made when missing. podconfig's
// GeneratePodSandboxConfig does the same (configgen.MakePodDataDirs).
func (k *Kubelet) PodDataDirs(pod *v1.Pod) error {
	return makePodDataDirs(k.kl, pod)
}

// Container is kubelet's generateContainerConfig.
func (k *Kubelet) Container(ctx context.Context, pod *v1.Pod, c *v1.Container) (*runtimeapi.ContainerConfig, error) {
	var nsTarget *kubecontainer.ContainerID
	if scenario.IsEphemeral(pod, c.Name) && k.sc.NamespaceTarget != "" {
		nsTarget = &kubecontainer.ContainerID{Type: "containerd", ID: k.sc.NamespaceTarget}
	}
	var imageVolumes kubecontainer.ImageVolumes
	if scenario.HasImageVolume(pod) {
		imageVolumes = kubecontainer.ImageVolumes{}
		for _, v := range k.volumes {
			if v.Image != "" {
				imageVolumes[v.Name] = &runtimeapi.ImageSpec{Image: v.Image, UserSpecifiedImage: v.Image}
			}
		}
	}
	podIP := ""
	if len(k.sc.PodIPs) > 0 {
		podIP = k.sc.PodIPs[0]
	}
	cfg, cleanup, err := generateContainerConfig(k.manager, ctx, c, pod, k.sc.RestartCount, podIP, ImageRef(c.Image), k.sc.PodIPs, nsTarget, imageVolumes)
	if cleanup != nil {
		cleanup()
	}
	return cfg, err
}

// ImageRef is the image reference both sides give a container's image.
func ImageRef(image string) string { return scenario.ImageRef(image) }

// Pin sets kubelet's process-wide feature gates and host facts to n's and returns the function
// that restores the feature gates.
func Pin(n scenario.Node) (func(), error) {
	gates := defaultGates.DeepCopy()
	if len(n.FeatureGates) > 0 {
		m := map[string]bool{}
		for name, on := range n.FeatureGates {
			m[name] = on
		}
		if err := gates.SetFromMap(m); err != nil {
			return nil, fmt.Errorf("feature gates: %w", err)
		}
	}
	prevMutable, prev := utilfeature.DefaultMutableFeatureGate, utilfeature.DefaultFeatureGate
	utilfeature.DefaultMutableFeatureGate, utilfeature.DefaultFeatureGate = gates, gates

	cgroupsIsUnifiedOnce.Do(func() {})
	cgroupsHugePagesOnce.Do(func() {})
	v2 := !n.CgroupV1
	cgroupsIsUnified = v2
	kuberuntimeIsCgroup2 = func() bool { return v2 }
	cgroupsHugePageSizes = append([]string(nil), n.HugePageSizes...)
	kuberuntimePageSize = n.PageSize
	goSELinuxState.Lock()
	goSELinuxState.enabledSet, goSELinuxState.enabled = true, n.SELinux
	goSELinuxState.Unlock()
	return func() {
		utilfeature.DefaultMutableFeatureGate, utilfeature.DefaultFeatureGate = prevMutable, prev
	}, nil
}

var _ featuregate.FeatureGate = defaultGates

// Lock takes the lock Render holds; benchmarks pin once and render many times.
func Lock() func() {
	pinMu.Lock()
	return pinMu.Unlock
}

// New assembles a Kubelet for sc under dirs. The caller holds the pins (Lock, Pin).
func New(ctx context.Context, sc *scenario.Scenario, pod *v1.Pod, dirs Dirs) (*Kubelet, error) {
	n := sc.Node.WithDefaults()
	objs, err := sc.Decoded()
	if err != nil {
		return nil, err
	}
	nodeIPs := parseIPs(n.IPs)
	node := &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: n.Name},
		Status: v1.NodeStatus{
			Allocatable: v1.ResourceList{
				v1.ResourceCPU:    scenario.Quantity(n.AllocatableCPU),
				v1.ResourceMemory: scenario.Quantity(n.AllocatableMemory),
			},
			Capacity: v1.ResourceList{v1.ResourceMemory: scenario.Quantity(n.Memory)},
		},
	}
	for _, ip := range n.IPs {
		node.Status.Addresses = append(node.Status.Addresses, v1.NodeAddress{Type: v1.NodeInternalIP, Address: ip})
	}
	var services []*v1.Service
	var clientObjs []runtime.Object
	for _, o := range objs {
		switch o := o.(type) {
		case *v1.Node:
			node = o
		case *v1.Service:
			services = append(services, o)
		default:
			clientObjs = append(clientObjs, o)
		}
	}
	for name, handler := range n.RuntimeClasses {
		clientObjs = append(clientObjs, &nodev1.RuntimeClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Handler: handler})
	}
	client := fake.NewClientset(clientObjs...)

	k := &Kubelet{sc: sc, dirs: dirs, stop: make(chan struct{}), volumes: sc.MountedVolumes(dirs.Root)}
	if err := os.MkdirAll(filepath.Join(dirs.Root, "pods", string(pod.UID)), 0o750); err != nil {
		return nil, err
	}
	k.host = offline.NewHostUtils()
	if err := makeBlockDevices(k.volumes); err != nil {
		return nil, err
	}
	for _, p := range sc.ExistingPaths(k.volumes) {
		k.host.AddPath(p, os.ModeDir|0o777)
	}
	for p, content := range sc.FilePaths(k.volumes) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return nil, err
		}
		k.host.AddPath(filepath.Dir(p), os.ModeDir|0o755)
		k.host.AddPath(p, 0o644)
	}

	kl := &kubelet.Kubelet{}
	set(kl, "kubeClient", client)
	set(kl, "recorder", record.NewFakeRecorder(100))
	set(kl, "os", kubecontainer.RealOS{})
	set(kl, "hostutil", hostUtils{host: k.host})
	set(kl, "subpather", subpather{sp: offline.NewSubpather(k.host)})
	set(kl, "hostname", n.Name)
	set(kl, "nodeName", types.NodeName(n.Name))
	set(kl, "rootDirectory", dirs.Root)
	set(kl, "podLogsDirectory", dirs.Logs)
	set(kl, "nodeIPs", nodeIPs)
	set(kl, "maxPods", 110)
	set(kl, "serviceLister", serviceLister(services))
	set(kl, "serviceHasSynced", func() bool { return true })
	set(kl, "nodeHasSynced", func() bool { return true })
	set(kl, "nodeLister", nodeLister{node: node})
	set(kl, "secretManager", secret.NewSimpleSecretManager(client))
	set(kl, "configMapManager", configmap.NewSimpleConfigMapManager(client))
	contMgr := &containerManager{FakeContainerManager: cm.NewFakeContainerManager(klogger(ctx)), sc: sc, node: n}
	set(kl, "containerManager", cm.ContainerManager(contMgr))
	set(kl, "volumeManager", newVolumeManager(k.volumes, n.ExtraSupplementalGroups))

	resolv := ""
	if n.ResolvConf != "" {
		resolv = filepath.Join(dirs.Root, "resolv.conf")
		if err := os.WriteFile(resolv, []byte(n.ResolvConf), 0o644); err != nil {
			return nil, err
		}
	}
	nodeRef := &v1.ObjectReference{Kind: "Node", Name: n.Name, UID: types.UID(n.Name)}
	set(kl, "dnsConfigurer", dns.NewConfigurer(record.NewFakeRecorder(100), nodeRef, nodeIPs, parseIPs(n.ClusterDNS), n.ClusterDomain, resolv))

	rcm := runtimeclass.NewManager(client)
	rcm.Start(k.stop)
	rcm.WaitForCacheSync(k.stop)
	set(kl, "runtimeClassManager", rcm)

	rs := newRuntimeState(time.Hour)
	var handlers []kubecontainer.RuntimeHandler
	for _, h := range n.RuntimeHandlers {
		handlers = append(handlers, kubecontainer.RuntimeHandler{Name: h.Name, SupportsUserNamespaces: h.UserNamespaces, SupportsRecursiveReadOnlyMounts: h.RecursiveReadOnly})
	}
	setRuntimeHandlers(rs, handlers)
	setPointer(kl, "runtimeState", rs)

	unm, err := userns.MakeUserNsManager(klogger(ctx), kl, nil)
	if err != nil {
		return nil, fmt.Errorf("userns manager: %w", err)
	}
	set(kl, "usernsManager", unm)

	// The CRI side: an image service that knows every image's user, and the runtime manager.
	imgs := apitest.NewFakeImageService()
	for _, c := range scenario.Containers(pod) {
		img := &runtimeapi.Image{Id: ImageRef(c.Image), RepoTags: []string{c.Image}}
		if u, ok := sc.Images[c.Image]; ok {
			if u.UID != nil {
				img.Uid = &runtimeapi.Int64Value{Value: *u.UID}
			}
			img.Username = u.Username
		} else {
			img.Uid = &runtimeapi.Int64Value{Value: 0}
		}
		imgs.Images[c.Image] = img
	}
	memory := scenario.Quantity(n.Memory)
	machine := &cadvisorapi.MachineInfo{MemoryCapacity: uint64(memory.Value()), NumCores: 4}
	m, err := newFakeKubeRuntimeManager(ctx, apitest.NewFakeRuntimeService(), imgs, machine, kubecontainer.RealOS{}, kl, noopoteltrace.NewTracerProvider().Tracer(""), record.NewFakeRecorder(100))
	if err != nil {
		return nil, fmt.Errorf("runtime manager: %w", err)
	}
	rm := (*runtimeManager)(m)
	if err := rm.checkLayout(kl); err != nil {
		return nil, err
	}
	// kubelet's NewMainKubelet: single-process OOM kill on cgroup v1, memory.oom.group on v2
	// unless configured.
	rm.singleProcessOOMKill = ptr.To(n.CgroupV1)
	rm.cpuCFSQuota = !n.NoCPUCFSQuota
	rm.cpuCFSQuotaPeriod = metav1.Duration{Duration: 100 * time.Millisecond}
	rm.seccompProfileRoot = filepath.Join(dirs.Root, "seccomp")
	rm.seccompDefault = n.SeccompDefault
	rm.podLogsDirectory = dirs.Logs
	rm.memorySwapBehavior = "NoSwap"
	rm.memoryThrottlingFactor = nil // v1.37's default: no memory.high
	rm.memoryReservationPolicy = kubeletconfig.MemoryReservationPolicy("None")
	rm.runtimeClassManager = rcm
	rm.containerManager = contMgr
	rm.defaultPodSysctls = n.DefaultPodSysctls
	alloc := node.Status.Allocatable
	rm.getNodeAllocatable = func() v1.ResourceList { return alloc }
	k.kl, k.manager = kl, m
	return k, nil
}

// Close stops the informers.
func (k *Kubelet) Close() { close(k.stop) }

func set(kl *kubelet.Kubelet, field string, value any) {
	setv(reflect.ValueOf(kl).Elem(), field, value)
}

func setv(v reflect.Value, field string, value any) {
	f := v.FieldByName(field)
	if !f.IsValid() {
		panic(fmt.Sprintf("kubelet has no field %s in %s", field, v.Type()))
	}
	f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
	if value == nil {
		f.SetZero()
		return
	}
	f.Set(reflect.ValueOf(value))
}

// setPointer stores p in a pointer field whose type is unexported.
func setPointer(kl *kubelet.Kubelet, field string, p unsafe.Pointer) {
	f := reflect.ValueOf(kl).Elem().FieldByName(field)
	*(*unsafe.Pointer)(unsafe.Pointer(f.UnsafeAddr())) = p
}

func parseIPs(ss []string) []net.IP {
	var out []net.IP
	for _, s := range ss {
		if ip := net.ParseIP(s); ip != nil {
			out = append(out, ip)
		}
	}
	return out
}

type serviceLister []*v1.Service

func (l serviceLister) List(labels.Selector) ([]*v1.Service, error) { return l, nil }

type nodeLister struct{ node *v1.Node }

func (l nodeLister) List(labels.Selector) ([]*v1.Node, error) { return []*v1.Node{l.node}, nil }
func (l nodeLister) Get(name string) (*v1.Node, error) {
	if name != l.node.Name {
		return nil, apierrors.NewNotFound(v1.Resource("nodes"), name)
	}
	return l.node, nil
}

// hostUtils is kubelet's HostUtils over the in-memory paths both sides share.
type hostUtils struct {
	hostutil.HostUtils
	host *offline.HostUtils
}

func (h hostUtils) PathExists(p string) (bool, error)     { return h.host.PathExists(p) }
func (h hostUtils) GetMode(p string) (os.FileMode, error) { return h.host.GetMode(p) }

// subpather is kubelet's subpath.Interface over podconfig's in-memory model of the Linux backend:
// the bind targets kubelet's backend uses, without mounting. subPath safety is the backend's, not
// makeMounts', and is tested against the real backend in the core module.
type subpather struct{ sp *offline.Subpather }

func (s subpather) CleanSubPaths(podDir, volumeName string) error {
	return s.sp.CleanSubPaths(podDir, volumeName)
}
func (s subpather) PrepareSafeSubpath(p subpath.Subpath) (string, func(), error) {
	return s.sp.PrepareSafeSubpath(mounts.Subpath{
		VolumeMountIndex: p.VolumeMountIndex, Path: p.Path, VolumeName: p.VolumeName,
		VolumePath: p.VolumePath, PodDir: p.PodDir, ContainerName: p.ContainerName,
	})
}
func (s subpather) SafeMakeDir(subdir, base string, perm os.FileMode) error {
	return s.sp.SafeMakeDir(subdir, base, perm)
}

// MounterType is how kubelet's errors print the harness's mounter ("path is empty %T").
const MounterType = "*kubeletside.mounter"

// mounter is a mounted volume as kubelet's volume manager reports it.
type mounter struct {
	volume.MetricsNil
	path  string
	attrs volume.Attributes
}

func (m *mounter) GetPath() string                          { return m.path }
func (m *mounter) GetAttributes() volume.Attributes         { return m.attrs }
func (m *mounter) SetUp(volume.MounterArgs) error           { return nil }
func (m *mounter) SetUpAt(string, volume.MounterArgs) error { return nil }

// blockMapper is a block volume's mapper: kubelet joins its pod device map path and name.
type blockMapper struct {
	volume.MetricsNil
	dir, name string
}

func (b *blockMapper) GetGlobalMapPath(*volume.Spec) (string, error) { return "", nil }
func (b *blockMapper) GetPodDeviceMapPath() (string, string)         { return b.dir, b.name }
func (b *blockMapper) SetUpDevice() (string, error)                  { return "", nil }
func (b *blockMapper) MapPodDevice() (string, error)                 { return "", nil }

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func klogger(ctx context.Context) klog.Logger { return klog.FromContext(ctx) }
