package vknode

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sort"
	"sync"
	"time"

	"github.com/virtual-kubelet/virtual-kubelet/errdefs"
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/record"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/clock"

	"github.com/podconfig/podconfig/backoff"
	"github.com/podconfig/podconfig/clientgo"
	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/logs"
	"github.com/podconfig/podconfig/offline"
	"github.com/podconfig/podconfig/podruntime"
	"github.com/podconfig/podconfig/security"
	"github.com/podconfig/podconfig/subpath"
	"github.com/podconfig/podconfig/volumes"
)

// firstUsernsHostID is the first host id kubelet hands out to pods' user namespaces without an
// /etc/subuid entry; it hands out --max-pods ranges of 65536 ids from there.
const firstUsernsHostID = 1 << 16

// Config describes the node and the runtime a Provider runs pods on.
type Config struct {
	// NodeName is the node's name: pods with this spec.nodeName are the provider's.
	NodeName string
	// Runtime and Images are the CRI services. Required.
	Runtime runtimeapi.RuntimeServiceClient
	Images  runtimeapi.ImageServiceClient
	// Client is the API server's clientset, with the node's credentials: ConfigMaps and Secrets
	// are read with it (one GET each, as the Node authorizer lets a node read the objects of
	// its pods only), Services listed, service-account tokens requested, and pods the
	// provider has torn down deleted. Required.
	Client kubernetes.Interface
	// Services lists the Services of a namespace for the pods' service environment variables;
	// nil lists them through Client on every call.
	Services configgen.ServiceLister
	// APIPods reads pods as the API server last had them (an informer's lister), so a worker
	// sees the conditions others set on its pod's status (readiness gates) as kubelet's pod
	// manager does; nil keeps the status the pod came with.
	APIPods corelisters.PodLister
	// Recorder records kubelet's events (Pulling, Started, BackOff, ...) and podconfig's
	// warnings; nil records none.
	Recorder record.EventRecorder
	// NodeIPs are the node's IPs: status.hostIP and the IPs of host-network pods.
	NodeIPs []net.IP
	// RootDir and PodLogsDir are kubelet's --root-dir and pod logs directory; empty means
	// /var/lib/kubelet and /var/log/pods.
	RootDir    string
	PodLogsDir string
	// CgroupRoot is kubelet's --cgroup-root; CgroupDriver its --cgroup-driver, used when the
	// runtime does not report its own (empty means cgroupfs).
	CgroupRoot   string
	CgroupDriver configgen.CgroupDriver
	// ClusterDomain and ClusterDNS are kubelet's --cluster-domain and --cluster-dns.
	ClusterDomain string
	ClusterDNS    []string
	// MaxPods is kubelet's --max-pods: the node's pods capacity, and the most pods it runs at
	// once; a pod past it is refused (OutOfpods), as kubelet's admission refuses it, since a pod
	// whose creator set its spec.nodeName never met the scheduler. It is also how many ranges of
	// 65536 host ids pods' user namespaces get, as kubelet without an /etc/subuid entry. Zero
	// means 110.
	MaxPods int
	// ContainerLogMaxSize and ContainerLogMaxFiles are kubelet's --container-log-max-size and
	// --container-log-max-files: a running container's log at least that large is rotated, and
	// a container keeps at most that many log files (see logs.ContainerLogManager); empty and
	// zero mean kubelet's defaults, 10Mi and 5, and a negative size turns rotation off.
	ContainerLogMaxSize  string
	ContainerLogMaxFiles int
	// ResolvConf is the resolv.conf of pods with dnsPolicy Default.
	ResolvConf []byte
	// ResyncInterval is how often a running pod is synced when nothing changed, and its
	// configMap, secret, downwardAPI and projected volumes rewritten if their sources changed
	// (kubelet's sync period); zero means 10s.
	ResyncInterval time.Duration
	// Logf receives what the provider does; nil discards it.
	Logf func(format string, args ...any)
}

// Provider runs the pods the API server binds to its node on a CRI runtime: virtual-kubelet's
// PodLifecycleHandler and PodNotifier over podconfig. Each pod gets a worker that sets up its
// volumes (volumes.Manager), drives it with podruntime's SyncPod as kubelet's pod worker does,
// and reports the status podruntime generates through NotifyPods; DeletePod stops it with its
// grace period, removes it from the runtime and the host, and deletes it from the API server, as
// kubelet's status manager does once a pod is torn down.
type Provider struct {
	cfg    Config
	gen    *configgen.Generator
	rt     *podruntime.Manager
	vols   *volumes.Manager
	sub    *subpath.Linux
	userns *offline.UserNamespaces
	node   *v1.Node

	mu   sync.Mutex
	pods map[string]*podWorker // by namespace/name
	// active counts the admitted pods that have not ended nor been torn down (kubelet's active
	// pods), against Config.MaxPods.
	active int
	notify func(*v1.Pod)
}

// New returns a Provider for cfg. It asks the runtime for its version, cgroup driver and
// handlers, as kubelet does at start-up, and starts rotating the runtime's container logs every
// 10s (kubelet's containerLogMonitorInterval) until ctx is done.
func New(ctx context.Context, cfg Config) (*Provider, error) {
	if cfg.Runtime == nil || cfg.Images == nil || cfg.Client == nil {
		return nil, errors.New("vknode: Config.Runtime, Config.Images and Config.Client are required")
	}
	if cfg.NodeName == "" {
		return nil, errors.New("vknode: Config.NodeName is required")
	}
	if cfg.RootDir == "" {
		cfg.RootDir = configgen.DefaultRootDir
	}
	if cfg.PodLogsDir == "" {
		cfg.PodLogsDir = logs.DefaultPodLogsDirectory
	}
	if cfg.MaxPods <= 0 {
		cfg.MaxPods = defaultMaxPods
	}
	if cfg.ContainerLogMaxSize == "" {
		cfg.ContainerLogMaxSize = logs.DefaultContainerLogMaxSize
	}
	if cfg.ContainerLogMaxFiles == 0 {
		cfg.ContainerLogMaxFiles = logs.DefaultContainerLogMaxFiles
	}
	if cfg.ResyncInterval <= 0 {
		cfg.ResyncInterval = 10 * time.Second
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	version, err := cfg.Runtime.Version(ctx, &runtimeapi.VersionRequest{})
	if err != nil {
		return nil, fmt.Errorf("vknode: runtime version: %w", err)
	}
	facts, err := configgen.ReadRuntimeFacts(ctx, cfg.Runtime)
	if err != nil {
		return nil, fmt.Errorf("vknode: %w", err)
	}
	node, err := nodeObject(cfg, version)
	if err != nil {
		return nil, fmt.Errorf("vknode: %w", err)
	}
	api := clientgo.FromClientset(cfg.Client, cfg.NodeName)
	if cfg.Services != nil {
		api.Services = cfg.Services
	}
	nodeGetter := configgen.NodeGetterFunc(func(context.Context) (*v1.Node, error) { return node, nil })
	driver := cfg.CgroupDriver
	if driver == "" {
		driver = configgen.CgroupDriverCgroupfs
	}
	p := &Provider{cfg: cfg, sub: subpath.New(), node: node, pods: map[string]*podWorker{}}
	opts := configgen.Options{
		NodeIPs:       cfg.NodeIPs,
		ClusterDomain: cfg.ClusterDomain,
		ClusterDNS:    cfg.ClusterDNS,
		ResolvConf:    cfg.ResolvConf,
		RootDir:       cfg.RootDir,
		PodLogsDir:    cfg.PodLogsDir,
		Cgroups:       configgen.NodeCgroups{Driver: driver, Root: cfg.CgroupRoot},
		ConfigMaps:    api.ConfigMaps,
		Secrets:       api.Secrets,
		Services:      api.Services,
		Node:          nodeGetter,
		ImageUsers:    security.CRIImageUser{Client: cfg.Images},
		OnWarning:     p.onWarning,
	}
	facts.Apply(&opts)
	p.userns = offline.AllocatingUserNamespaces(firstUsernsHostID, cfg.MaxPods)
	p.userns.Handlers = facts.UserNamespaceHandlers()
	opts.Security.UserNamespaces = p.userns
	if p.gen, err = configgen.New(opts); err != nil {
		return nil, fmt.Errorf("vknode: %w", err)
	}
	clk := clock.RealClock{}
	p.vols = &volumes.Manager{RootDir: cfg.RootDir, Host: volumes.NewLinuxHost(), Sources: volumes.Sources{
		ConfigMaps: api.ConfigMaps, Secrets: api.Secrets, Node: nodeGetter,
		Tokens: volumes.NewTokenManager(clientgo.TokenRequester(cfg.Client), clk)}}
	p.rt, err = podruntime.New(ctx, podruntime.Options{
		Runtime: cfg.Runtime, Images: cfg.Images, Generator: p.gen, RuntimeName: version.GetRuntimeName(),
		NodeIPs: cfg.NodeIPs, RuntimeHandlers: facts.Handlers, CrashLoop: backoff.NewCrashLoop(0, 0, clk),
		Clock: clk, Events: p.onEvent,
		OnWarning: func(pod *v1.Pod, msg string) { cfg.Logf("warning: pod %s/%s: %s", pod.Namespace, pod.Name, msg) },
	})
	if err != nil {
		return nil, fmt.Errorf("vknode: %w", err)
	}
	logManager, err := logs.NewContainerLogManager(logs.ContainerLogManagerOptions{
		Runtime: cfg.Runtime, MaxSize: cfg.ContainerLogMaxSize, MaxFiles: cfg.ContainerLogMaxFiles,
		MonitorInterval: logs.DefaultContainerLogMonitorInterval, Clock: clk,
		OnError: func(err error) { cfg.Logf("warning: failed to rotate container logs: %v", err) },
	})
	if err != nil {
		return nil, fmt.Errorf("vknode: failed to initialize container log manager: %w", err)
	}
	logManager.Start(ctx)
	return p, nil
}

// Node returns the Node object the provider registers: its addresses, capacity, node info and
// conditions, the kubelet port unset (the caller sets status.daemonEndpoints). A copy.
func (p *Provider) Node() *v1.Node { return p.node.DeepCopy() }

// onWarning records podconfig's warnings as kubelet records them, as events on the pod.
func (p *Provider) onWarning(pod *v1.Pod, c *v1.Container, w configgen.Warning) {
	name := ""
	if c != nil {
		name = "/" + c.Name
	}
	p.cfg.Logf("warning: pod %s/%s%s: %s", pod.Namespace, pod.Name, name, w)
	clientgo.Recorder{Events: p.cfg.Recorder}.OnWarning(pod, c, w)
}

// onEvent records an event of podruntime's with kubelet's reference: the pod and the
// container's field path.
func (p *Provider) onEvent(e podruntime.Event) {
	p.cfg.Logf("event: pod %s/%s %s %s: %s", e.Pod.Namespace, e.Pod.Name, e.FieldPath, e.Reason, e.Message)
	if p.cfg.Recorder == nil {
		return
	}
	ref := &v1.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: e.Pod.Namespace, Name: e.Pod.Name,
		UID: e.Pod.UID, ResourceVersion: e.Pod.ResourceVersion, FieldPath: e.FieldPath}
	p.cfg.Recorder.Event(ref, e.Type, e.Reason, e.Message)
}

func key(namespace, name string) string { return namespace + "/" + name }

// CreatePod starts a worker for the pod and returns: the worker reports the pod's status through
// NotifyPods as it goes. When the provider still runs a pod of the same namespace and name with
// another UID, the API server's pod of that name is a new one and the old one is gone from it:
// the old pod is deleted (within its grace period) and the new one starts once the old one is
// torn down, as kubelet's pod workers keep a name's pods apart.
func (p *Provider) CreatePod(ctx context.Context, pod *v1.Pod) error {
	if pod.Spec.NodeName != p.cfg.NodeName {
		return errdefs.InvalidInputf("pod %s/%s is bound to node %q, not %q", pod.Namespace, pod.Name, pod.Spec.NodeName, p.cfg.NodeName)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	k := key(pod.Namespace, pod.Name)
	old, ok := p.pods[k]
	if ok && old.uid == pod.UID {
		old.update(pod)
		return nil
	}
	w := newPodWorker(p, pod)
	if ok {
		old.delete(old.current())
		w.after = old.done
	}
	p.pods[k] = w
	go w.run()
	return nil
}

// UpdatePod gives the pod's worker the pod's new spec and metadata: a changed image restarts
// the container, changed labels and annotations show in downwardAPI volumes.
func (p *Provider) UpdatePod(ctx context.Context, pod *v1.Pod) error {
	w := p.worker(pod.Namespace, pod.Name)
	if w == nil || w.uid != pod.UID {
		return p.CreatePod(ctx, pod)
	}
	w.update(pod)
	return nil
}

// DeletePod stops the pod's worker, which then kills the pod within its grace period (the
// pod's deletionGracePeriodSeconds), removes it from the runtime and the host, reports its final
// status and deletes it from the API server. It returns at once; it may be called more than
// once.
func (p *Provider) DeletePod(ctx context.Context, pod *v1.Pod) error {
	w := p.worker(pod.Namespace, pod.Name)
	if w == nil || (pod.UID != "" && w.uid != pod.UID) {
		return errdefs.NotFoundf("pod %s/%s is not on this node", pod.Namespace, pod.Name)
	}
	w.delete(pod)
	return nil
}

// GetPod returns the pod as the provider runs it, with its last status.
func (p *Provider) GetPod(ctx context.Context, namespace, name string) (*v1.Pod, error) {
	w := p.worker(namespace, name)
	if w == nil {
		return nil, errdefs.NotFoundf("pod %s/%s is not on this node", namespace, name)
	}
	return w.snapshot(), nil
}

// GetPodStatus returns the pod's last status.
func (p *Provider) GetPodStatus(ctx context.Context, namespace, name string) (*v1.PodStatus, error) {
	pod, err := p.GetPod(ctx, namespace, name)
	if err != nil {
		return nil, err
	}
	return &pod.Status, nil
}

// GetPods returns every pod the provider runs or is tearing down, by namespace and name.
func (p *Provider) GetPods(ctx context.Context) ([]*v1.Pod, error) {
	p.mu.Lock()
	workers := make([]*podWorker, 0, len(p.pods))
	for _, w := range p.pods {
		workers = append(workers, w)
	}
	p.mu.Unlock()
	out := make([]*v1.Pod, 0, len(workers))
	for _, w := range workers {
		out = append(out, w.snapshot())
	}
	sort.Slice(out, func(i, j int) bool { return key(out[i].Namespace, out[i].Name) < key(out[j].Namespace, out[j].Name) })
	return out, nil
}

// NotifyPods registers the function the workers call with a pod whose status changed.
func (p *Provider) NotifyPods(_ context.Context, f func(*v1.Pod)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.notify = f
}

// Wait blocks until every pod's worker has ended or ctx is done. Workers end once their pods
// are deleted.
func (p *Provider) Wait(ctx context.Context) error {
	for {
		p.mu.Lock()
		n := len(p.pods)
		p.mu.Unlock()
		if n == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Shutdown deletes every pod on the node, each with its own grace period capped at grace, and
// waits until all are torn down or ctx is done.
func (p *Provider) Shutdown(ctx context.Context, grace time.Duration) error {
	p.mu.Lock()
	workers := make([]*podWorker, 0, len(p.pods))
	for _, w := range p.pods {
		workers = append(workers, w)
	}
	p.mu.Unlock()
	for _, w := range workers {
		w.shutdown(grace)
	}
	return p.Wait(ctx)
}

func (p *Provider) worker(namespace, name string) *podWorker {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pods[key(namespace, name)]
}

// publish hands a pod with its new status to NotifyPods' function.
func (p *Provider) publish(pod *v1.Pod) {
	p.mu.Lock()
	f := p.notify
	p.mu.Unlock()
	if f != nil {
		f(pod)
	}
}

// admit is kubelet's admission of the worker's pod, as far as the provider does it, in kubelet's
// order: the sysctl allowlist, then room for one more among the active pods (the pods capacity
// of kubelet's resource fit). An admitted worker counts as active until deactivate. It returns
// kubelet's reason and message for a refused pod, or "" for an admitted one.
func (p *Provider) admit(w *podWorker) (reason, message string) {
	if reason, message := admitSysctls(w.current()); reason != "" {
		return reason, message
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.active+1 > p.cfg.MaxPods {
		return reasonOutOfPods, fmt.Sprintf("Node didn't have enough resource: %s, requested: 1, used: %d, capacity: %d",
			v1.ResourcePods, p.active, p.cfg.MaxPods)
	}
	w.active = true
	p.active++
	return "", ""
}

// deactivate stops counting the worker's pod among the active ones: it ended or was torn down.
func (p *Provider) deactivate(w *podWorker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if w.active {
		w.active = false
		p.active--
	}
}

// forget drops a worker that ended.
func (p *Provider) forget(w *podWorker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pods[w.key] == w {
		delete(p.pods, w.key)
	}
}
