package main

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/admission"
	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/internal/terminal"
	"github.com/podconfig/podconfig/manifest"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/offline"
	"github.com/podconfig/podconfig/resources"
	"github.com/podconfig/podconfig/security"
	"github.com/podconfig/podconfig/validation"
)

// result is what render leaves once every pod is written: what standard error says about them.
type result struct {
	// Rendered is how many pods were rendered and written.
	Rendered int
	// Pods are the warnings of the rendered pods that have any, in order.
	Pods     []podSummary
	Warnings []string
	// Failures are the documents and pods that could not be rendered, each naming the document,
	// the pod and container, the cause and, where there is one, the remedy.
	Failures []string
}

// podSummary is what the warnings on standard error need of a pod once its configs are written.
type podSummary struct {
	Name       string // namespace/name
	Warnings   []configgen.Warning
	Containers []containerWarnings // those with warnings
}

type containerWarnings struct {
	Name     string
	Warnings []configgen.Warning
}

// summaryOf is p's podSummary.
func summaryOf(p *podResult) podSummary {
	s := podSummary{Name: p.Pod.Namespace + "/" + p.Pod.Name, Warnings: p.Warnings}
	for _, c := range p.Items {
		if len(c.Warnings) > 0 {
			s.Containers = append(s.Containers, containerWarnings{Name: c.Name, Warnings: c.Warnings})
		}
	}
	return s
}

// podResult is one pod's configs.
type podResult struct {
	Source   string
	Pod      *v1.Pod // as rendered: after the render identity and defaults
	QOSClass v1.PodQOSClass
	Sandbox  *runtimeapi.PodSandboxConfig
	Items    []containerResult
	Warnings []configgen.Warning
	// crictl is set with -o crictl: what writing the pod's host files needs.
	crictl *crictlPod
	// Volumes are the files of the pod's configMap, secret, downwardAPI and projected volumes.
	Volumes []jsonVolume
}

// containerResult is one container's config.
type containerResult struct {
	Name string
	// Type is "init", "sidecar", "container" or "ephemeral".
	Type      string
	LogPath   string
	HostsFile string
	Config    *runtimeapi.ContainerConfig
	Warnings  []configgen.Warning
}

// render reads the inputs and renders every pod, handing each to emit as soon as it is rendered
// and keeping only its warnings: one pod's configs are held at a time, whatever the input's size.
// An error from emit stops the render.
func render(cfg *renderConfig, stdin io.Reader, emit func(*podResult) error) (*result, error) {
	sources, dirWarnings, err := listSources(cfg.files, cfg.recursive)
	if err != nil {
		return nil, err
	}
	inputs, closeInputs, err := openSources(sources, stdin)
	defer closeInputs()
	if err != nil {
		return nil, err
	}
	for i := range inputs {
		inputs[i].Reader = &templateSniffer{r: inputs[i].Reader}
	}
	opts := manifest.Options{Replicas: cfg.replicas, DefaultTemplates: cfg.applyDefaults, ContinueOnError: true, CheckWorkload: cfg.checkWorkload}
	if cfg.ordinal >= 0 {
		opts.Ordinal = &cfg.ordinal
	}
	// The workloads are kept as read and each is made into its Pods only when the loop below
	// reaches it: a large input is never held decoded at once.
	stream, err := manifest.Open(opts, inputs...)
	if err != nil {
		return nil, err
	}
	bundle := stream.Bundle()
	resolvConf := []byte(typicalResolvConf)
	if cfg.resolvConf != "" {
		if resolvConf, err = os.ReadFile(cfg.resolvConf); err != nil {
			return nil, fmt.Errorf("--resolv-conf: %w", err)
		}
	}
	var hostsFile []byte
	if cfg.hostsFile != "" {
		if hostsFile, err = os.ReadFile(cfg.hostsFile); err != nil {
			return nil, fmt.Errorf("--hosts-file: %w", err)
		}
	}
	if !cfg.scheduledTime.IsZero() {
		bundle.Context.ScheduledTime = cfg.scheduledTime // the flag wins over the RenderContext
	}
	var unknown unknowns
	out := &result{Warnings: append(dirWarnings, bundle.Warnings...)}
	for _, err := range bundle.Errors {
		out.Failures = append(out.Failures, err.Error()+templateHint(err, inputs))
	}
	r := &renderer{hostsFile: hostsFile, lacks: &lacked{objects: map[string]int{}}, cfg: cfg, bundle: bundle, resolvConf: resolvConf, objects: objectsOf(bundle), store: &podObjects{next: stream}}
	if cfg.container != "" && len(bundle.Errors) == 0 && !hasContainer(stream, cfg.container) {
		// Known before any pod is written.
		return nil, fmt.Errorf("--container %q: no pod in the input has a container of that name", cfg.container)
	}
	// The failures of making pods, then of duplicate pods, come first, as reading's errors.
	var made, duplicates, failed []string
	var resolvConfPods []string
	var imageUsers imageUserSummary
	pods := 0
	for p, err := range stream.Pods() {
		if err != nil {
			if errors.Is(err, manifest.ErrDuplicatePod) {
				duplicates = append(duplicates, err.Error()+templateHint(err, inputs))
			} else {
				made = append(made, err.Error()+templateHint(err, inputs))
			}
			continue
		}
		i := pods
		pods++
		pr, err := r.renderPod(i, p)
		if err != nil {
			r.forgetPod()
			failed = append(failed, fmt.Sprintf("%s: %v", p.Source, err))
			continue
		}
		err = emit(pr)
		r.forgetPod()
		if err != nil {
			return nil, err
		}
		out.Rendered++
		if s := summaryOf(pr); len(s.Warnings) > 0 || len(s.Containers) > 0 {
			out.Pods = append(out.Pods, s)
		}
		unknown.note(cfg, bundle, p.Kind, pr.Pod)
		if r.assumesResolvConf(pr.Pod) {
			resolvConfPods = append(resolvConfPods, pr.Pod.Namespace+"/"+pr.Pod.Name)
		}
		imageUsers.add(r.imageUserUses(pr))
	}
	out.Failures = slices.Concat(out.Failures, made, duplicates, failed)
	if w := assumedObjects(out.Pods); w != "" {
		out.Warnings = append(out.Warnings, w)
	}
	if w := lackedObjects(r.lacks); w != "" {
		out.Warnings = append(out.Warnings, w)
	}
	if len(resolvConfPods) > 0 {
		out.Warnings = append(out.Warnings, fmt.Sprintf("%d %s DNS from the node's resolv.conf, which is not known offline (%s): rendered with a typical one, nameserver 10.0.0.2 and no search domains; give the node's with --resolv-conf FILE", len(resolvConfPods), plural(len(resolvConfPods), "pod takes its", "pods take their"), strings.Join(resolvConfPods, ", ")))
	}
	out.Warnings = append(out.Warnings, imageUsers.warnings()...)
	out.Warnings = append(out.Warnings, unknown.warnings()...)
	if pods == 0 && len(out.Failures) == 0 {
		out.Warnings = append(out.Warnings, "the input holds no pod and no workload")
	}
	return out, nil
}

// lackedObjects is one warning counting the objects the input lacks that failed pods need, and
// the pods that need each, so that many pods failing for one missing Secret read as one fix. Each
// pod's failure names its own objects, so the warning is for an object two pods or more lack.
func lackedObjects(lacks *lacked) string {
	if !slices.ContainsFunc(slices.Collect(maps.Values(lacks.objects)), func(n int) bool { return n > 1 }) {
		return ""
	}
	var parts []string
	for _, obj := range slices.Sorted(maps.Keys(lacks.objects)) {
		n := lacks.objects[obj]
		parts = append(parts, fmt.Sprintf("%s (%d %s)", obj, n, plural(n, "pod", "pods")))
	}
	n := len(lacks.objects)
	return fmt.Sprintf("%d pods failed for %d %s the input lacks: %s; add %s to the input, or render with --allow-missing for placeholders",
		lacks.pods, n, plural(n, "object", "objects"), strings.Join(parts, ", "), plural(n, "it", "them"))
}

// plural is one or many, by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// reasonAssumedObject is the warning reason of a ServiceAccount or RuntimeClass admission took
// as existing with no settings.
const reasonAssumedObject = "AssumedObject"

// assumedObjects is one warning naming the objects admission assumed for any pod, so that what
// each pod's warnings say is also on standard error, once.
func assumedObjects(pods []podSummary) string {
	count := map[string]int{}
	var order []string
	for _, p := range pods {
		for _, w := range p.Warnings {
			if w.Reason != reasonAssumedObject {
				continue
			}
			obj, _, _ := strings.Cut(w.Message, " is not in the input")
			if count[obj] == 0 {
				order = append(order, obj)
			}
			count[obj]++
		}
	}
	if len(order) == 0 {
		return ""
	}
	parts := make([]string, len(order))
	for i, obj := range order {
		parts[i] = fmt.Sprintf("%s (%d pods)", obj, count[obj])
	}
	return "not in the input, assumed to exist with no settings (add them to render their own): " + strings.Join(parts, ", ")
}

// typicalResolvConf stands in for the node's /etc/resolv.conf when --resolv-conf names none: the
// resolver a cloud network offers at the second address of the node's subnet, no search domains.
const typicalResolvConf = "nameserver 10.0.0.2\n"

// assumesResolvConf tells whether pod takes its DNS from the node's resolv.conf (dnsPolicy
// Default, or a host-network pod without ClusterFirstWithHostNet) when --resolv-conf gives none:
// one warning names them all.
func (r *renderer) assumesResolvConf(pod *v1.Pod) bool {
	spec := pod.Spec
	return r.cfg.resolvConf == "" && (spec.DNSPolicy == v1.DNSDefault || (spec.HostNetwork && spec.DNSPolicy != v1.DNSClusterFirstWithHostNet && spec.DNSPolicy != v1.DNSNone))
}

// hasContainer tells whether a pod of the stream has a container of that name. A workload that
// fails, or a pod that repeats another, counts as having it: the render reports those instead.
func hasContainer(stream *manifest.Stream, name string) bool {
	for p, err := range stream.Pods() {
		if err != nil {
			return true
		}
		for _, e := range containersOf(p.Pod) {
			if e.c.Name == name {
				return true
			}
		}
	}
	return false
}

// renderer renders the pods of one bundle.
type renderer struct {
	// hostsFile is --hosts-file's content, nil without it.
	hostsFile []byte
	// lacks counts the objects the input lacks that pods need.
	lacks      *lacked
	cfg        *renderConfig
	bundle     *manifest.Bundle
	resolvConf []byte
	// objects are the input's objects every offline node serves, one store for them all: its
	// Services and Node (objectsOf).
	objects *offline.Objects
	// store serves the input's ConfigMaps and Secrets, which objects leaves out; nil means objects
	// holds them.
	store *podObjects
	// nodes are the offline nodes built so far, by the name and IPs pods give them, at most
	// maxOfflineNodes.
	nodes map[string]*offlineNode
	// users are the image-user rules (imageUsers).
	users *imageUserRules
	// admission are the input's objects prepared for admitting its pods, once the first is.
	admission *admission.Prepared
	// warn takes the warnings of the pod being rendered.
	warn func(*v1.Container, configgen.Warning)
	// rendered is the pod rendered last and its node, until forgetPod.
	rendered struct {
		pod  *v1.Pod
		node *offlineNode
	}
}

// forgetPod removes what the offline node holds for the pod rendered last (its directories and
// files, the host paths, block devices and subPath binds below them), once it is written:
// the pods of an input never see each other's directories, so what a node holds stays that of one
// pod, however many the input has.
func (r *renderer) forgetPod() {
	if r.store != nil {
		r.store.forget()
	}
	pod, on := r.rendered.pod, r.rendered.node
	r.rendered.pod, r.rendered.node = nil, nil
	if on == nil {
		return
	}
	// A pod whose name or UID is not a path element made no directory, and has nothing to remove.
	_ = on.node.RemovePod(pod)
}

// objectStore serves ConfigMaps and Secrets.
type objectStore interface {
	configgen.ConfigMapGetter
	configgen.SecretGetter
}

// podObjects serves the input's ConfigMaps and Secrets, which the reader keeps as JSON and decodes
// when asked, to the pod being rendered: each is decoded once for the pod, however many of its
// containers and volumes read it, and dropped when the pod is forgotten, so that an object only
// one pod reads is not held decoded after it. An object a second pod reads is kept decoded for
// the rest of the render: decoding it for every pod would make the work grow with the object's
// size times the number of pods (a large ConfigMap read by every pod of a large input), where
// keeping it holds no more than reading every object decoded would.
type podObjects struct {
	next       objectStore
	mu         sync.Mutex
	configMaps decodedObjects[*v1.ConfigMap]
	secrets    decodedObjects[*v1.Secret]
}

func (p *podObjects) GetConfigMap(ctx context.Context, namespace, name string) (*v1.ConfigMap, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.configMaps.get(namespace+"/"+name, func() (*v1.ConfigMap, error) {
		return p.next.GetConfigMap(ctx, namespace, name)
	})
}

func (p *podObjects) GetSecret(ctx context.Context, namespace, name string) (*v1.Secret, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.secrets.get(namespace+"/"+name, func() (*v1.Secret, error) {
		return p.next.GetSecret(ctx, namespace, name)
	})
}

// forget drops what was decoded for the pod rendered last alone.
func (p *podObjects) forget() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.configMaps.forget()
	p.secrets.forget()
}

// decodedObjects holds the objects of one kind decoded for the render, by namespace/name: those the
// pod being rendered read (pod), and those more than one pod read (kept).
type decodedObjects[T any] struct {
	pod, kept map[string]T
	// readBefore names the objects a pod forgotten before read.
	readBefore map[string]bool
}

// get returns the object key, decoding it with load unless it is held.
func (d *decodedObjects[T]) get(key string, load func() (T, error)) (T, error) {
	if v, ok := d.kept[key]; ok {
		return v, nil
	}
	if v, ok := d.pod[key]; ok {
		return v, nil
	}
	v, err := load()
	if err != nil {
		return v, err
	}
	into := &d.pod
	if d.readBefore[key] {
		into = &d.kept
	}
	if *into == nil {
		*into = map[string]T{}
	}
	(*into)[key] = v
	return v, nil
}

func (d *decodedObjects[T]) forget() {
	if len(d.pod) > 0 && d.readBefore == nil {
		d.readBefore = map[string]bool{}
	}
	for key := range d.pod {
		d.readBefore[key] = true
	}
	clear(d.pod)
}

// objectsOf is the store of what the offline nodes serve: the input's ConfigMaps, Secrets,
// Services and Node, and the kubernetes Service every cluster has, unless the input has its own.
func objectsOf(b *manifest.Bundle) *offline.Objects {
	var objs []interface{}
	hasKubernetes := false
	for _, o := range b.ConfigMaps {
		objs = append(objs, withNamespace(o, &o.ObjectMeta))
	}
	for _, o := range b.Secrets {
		objs = append(objs, withNamespace(o, &o.ObjectMeta))
	}
	for _, o := range b.Services {
		objs = append(objs, withNamespace(o, &o.ObjectMeta))
		allocateClusterIP(o)
		hasKubernetes = hasKubernetes || (o.Namespace == metav1.NamespaceDefault && o.Name == "kubernetes")
	}
	if !hasKubernetes {
		objs = append(objs, &v1.Service{
			ObjectMeta: metav1.ObjectMeta{Name: "kubernetes", Namespace: metav1.NamespaceDefault},
			Spec: v1.ServiceSpec{ClusterIP: "10.96.0.1", Ports: []v1.ServicePort{{
				Name: "https", Port: 443, Protocol: v1.ProtocolTCP,
			}}},
		})
	}
	if b.Node != nil {
		objs = append(objs, b.Node)
	}
	return offline.NewObjects(objs...)
}

// assumedNode is the Node served when the input has none: named as the pod is bound (manifest
// binds pods to "node"), with nodeIPs as its InternalIPs (status.hostIP), and the offline node's
// 16 GiB of memory (15 GiB allocatable) and 4 CPUs (the limits resourceFieldRef reports for a
// container without one).
func assumedNode(name string, nodeIPs []net.IP) *v1.Node {
	if name == "" {
		name = "node"
	}
	node := &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: v1.NodeStatus{
			Capacity:    v1.ResourceList{v1.ResourceCPU: resource.MustParse("4"), v1.ResourceMemory: resource.MustParse("16Gi")},
			Allocatable: v1.ResourceList{v1.ResourceCPU: resource.MustParse("4"), v1.ResourceMemory: resource.MustParse("15Gi")},
		},
	}
	for _, ip := range nodeIPs {
		node.Status.Addresses = append(node.Status.Addresses, v1.NodeAddress{Type: v1.NodeInternalIP, Address: ip.String()})
	}
	return node
}

// allocateClusterIP gives a Service the API server would give a cluster IP (not headless, not
// ExternalName, none written) a stable one in 10.96.0.0/16, derived from its namespace and name,
// so that its service-link variables appear as they do on a cluster.
func allocateClusterIP(svc *v1.Service) {
	if svc.Spec.ClusterIP != "" || svc.Spec.Type == v1.ServiceTypeExternalName {
		return
	}
	h := fnv.New32a()
	h.Write([]byte(svc.Namespace + "/" + svc.Name))
	n := h.Sum32()%(256*256-512) + 256 // skip 10.96.0.x, where the kubernetes Service and DNS live
	ip := fmt.Sprintf("10.96.%d.%d", n/256, n%256)
	svc.Spec.ClusterIP, svc.Spec.ClusterIPs = ip, []string{ip}
}

// withNamespace puts an object with no namespace in "default", as kubectl apply does.
func withNamespace(obj interface{}, meta *metav1.ObjectMeta) interface{} {
	if meta.Namespace == "" {
		meta.Namespace = metav1.NamespaceDefault
	}
	return obj
}

// offlineNode is an offline node and its Generator, which every pod of the input that runs on the
// same node renders on, one after the other: the input's objects are stored once, and the
// Generator keeps what it learns of them (a namespace's service variables) from one pod to the
// next, as a node does.
type offlineNode struct {
	node *offline.Node
	gen  *configgen.Generator
	// store serves the input's ConfigMaps and Secrets.
	store objectStore
	// placeholders stands in for missing objects under --allow-missing; nil otherwise.
	placeholders *placeholders
}

// node returns the offline node pod renders on, built from the flags and the input the first time
// a pod names it (by its name, when the input has no Node, and its IPs).
func (r *renderer) node(pod *v1.Pod) (*offlineNode, error) {
	nodeIPs := r.podNodeIPs(pod)
	key := fmt.Sprint(nodeIPs)
	if r.bundle.Node == nil {
		key = pod.Spec.NodeName + " " + key
	}
	if on, ok := r.nodes[key]; ok {
		return on, nil
	}
	// Every pod may name a node of its own: a node holds its own Node object only, and shares
	// the input's other objects with every other node, and no more than maxOfflineNodes are
	// kept, so that the nodes of a large input cost neither copies of its objects nor a node's
	// memory per pod.
	nodeObjects := r.objects
	if r.bundle.Node == nil {
		nodeObjects = offline.NewObjects(assumedNode(pod.Spec.NodeName, nodeIPs))
	}
	on := &offlineNode{node: r.newNode(nodeObjects, nodeIPs)}
	on.store = r.objects
	if r.store != nil {
		on.store = r.store
	}
	o := &on.node.Options
	o.Services = r.objects
	o.ConfigMaps, o.Secrets = on.store, on.store
	if r.cfg.allowMissing {
		on.placeholders = &placeholders{objects: on.store}
		p := on.placeholders
		o.ConfigMaps, o.Secrets = configgen.ConfigMapGetterFunc(p.configMap), configgen.SecretGetterFunc(p.secret)
	}
	if r.cfg.output == "crictl" && !r.cfg.showSecrets {
		// The container configs are files on disk: a Secret's values reach their environment,
		// as its volumes, only with --show-secrets.
		o.Secrets = hiddenSecrets{o.Secrets}
	}
	gen, err := on.node.Generator()
	if err != nil {
		return nil, err
	}
	on.gen = gen
	if r.nodes == nil || len(r.nodes) >= maxOfflineNodes {
		// A node made again later is the same: the pods rendered on it are forgotten.
		r.nodes = map[string]*offlineNode{}
	}
	r.nodes[key] = on
	return on, nil
}

// maxOfflineNodes bounds the offline nodes a render keeps for the pods still to come.
const maxOfflineNodes = 64

// newNode builds an offline node from the flags, serving objects.
func (r *renderer) newNode(objects *offline.Objects, nodeIPs []net.IP) *offline.Node {
	node := offline.NewNode()
	node.Objects = objects
	node.Options.ImageUsers = r.imageUsers()
	o := &node.Options
	o.NodeIPs = nodeIPs
	if len(r.cfg.clusterDNS) > 0 {
		o.ClusterDNS = r.cfg.clusterDNS
	}
	o.ClusterDomain = r.cfg.clusterDomain
	o.ResolvConf = r.resolvConf
	o.Cgroups.Driver = configgen.CgroupDriver(r.cfg.cgroupDriver)
	o.Cgroups.Root = r.cfg.cgroupRoot
	if r.cfg.output == "crictl" {
		o.RootDir = filepath.Join(r.cfg.outputDir, crictlRootDir)
		o.PodLogsDir = filepath.Join(r.cfg.outputDir, crictlPodLogsDir)
	}
	gates := r.cfg.featureGates.gates
	o.FeatureGates = &gates
	o.Resources.Node.CgroupV2 = r.cfg.cgroupVersion == 2
	if n := r.bundle.Node; n != nil {
		if mem, ok := n.Status.Capacity[v1.ResourceMemory]; ok && mem.Value() > 0 {
			o.Resources.Node.MemoryCapacity = mem.Value()
		}
		if mem, ok := n.Status.Allocatable[v1.ResourceMemory]; ok && mem.Value() > 0 {
			o.Resources.Node.AllocatableMemory = mem.Value()
			if o.Resources.Node.MemoryCapacity < mem.Value() {
				o.Resources.Node.MemoryCapacity = mem.Value()
			}
		}
	}
	o.OnWarning = func(_ *v1.Pod, c *v1.Container, w configgen.Warning) { r.warn(c, w) }
	if r.hostsFile != nil {
		o.NodeHosts = func() ([]byte, error) { return r.hostsFile, nil }
	}
	o.DeviceResources = r.cfg.deviceResources()
	return node
}

// podNodeIPs are the IPs of the node the pod runs on: a live pod's status.hostIPs (kubectl get
// -o yaml) unless --node-ip or a Node document says otherwise, else nodeIPs.
func (r *renderer) podNodeIPs(pod *v1.Pod) []net.IP {
	if len(r.cfg.nodeIPs) > 0 || r.bundle.Node != nil {
		return r.nodeIPs()
	}
	var ips []net.IP
	for _, h := range pod.Status.HostIPs {
		if ip := net.ParseIP(h.IP); ip != nil {
			ips = append(ips, ip)
		}
	}
	if ip := net.ParseIP(pod.Status.HostIP); len(ips) == 0 && ip != nil {
		ips = append(ips, ip)
	}
	if len(ips) == 0 {
		return r.nodeIPs()
	}
	return ips
}

// nodeIPs are --node-ip, else the Node's InternalIPs, else the offline node's 10.0.0.1.
func (r *renderer) nodeIPs() []net.IP {
	var ips []net.IP
	for _, s := range r.cfg.nodeIPs {
		ips = append(ips, net.ParseIP(s))
	}
	if len(ips) == 0 && r.bundle.Node != nil {
		for _, a := range r.bundle.Node.Status.Addresses {
			if ip := net.ParseIP(a.Address); a.Type == v1.NodeInternalIP && ip != nil {
				ips = append(ips, ip)
			}
		}
	}
	if len(ips) == 0 {
		ips = []net.IP{net.ParseIP("10.0.0.1")}
	}
	return ips
}

// podIPs are --pod-ip, else the RenderContext's, else the pod's status.podIPs (a pod saved with
// kubectl get -o yaml), else 10.244.0.<10+i> for the i-th pod, except that a host-network pod gets
// none by default: its sandbox reports none, and the Generator gives it the node's IPs.
func (r *renderer) podIPs(i int, pod *v1.Pod) []string {
	switch {
	case len(r.cfg.podIPs) > 0:
		return r.cfg.podIPs
	case len(r.bundle.Context.PodIPs) > 0:
		return r.bundle.Context.PodIPs
	case len(pod.Status.PodIPs) > 0:
		ips := make([]string, len(pod.Status.PodIPs))
		for i, ip := range pod.Status.PodIPs {
			ips[i] = ip.IP
		}
		return ips
	case pod.Spec.HostNetwork:
		return nil
	default:
		return []string{fmt.Sprintf("10.244.%d.%d", (10+i)/256, (10+i)%256)}
	}
}

// renderPod renders the sandbox and the containers of one pod, init containers first, in the
// order a node starts them.
func (r *renderer) renderPod(i int, p manifest.Pod) (*podResult, error) {
	pod := p.Pod.DeepCopy()
	out := &podResult{Source: p.Source, Pod: pod}
	// A pod's errors are gathered across the stages, as far as each lets the next one run, so
	// that one run names them all: admission, validation, then the sandbox, the volumes and every
	// container.
	errs := newPodErrors(pod, r.lacks)
	if err := r.prepare(pod, func(w configgen.Warning) { out.Warnings = append(out.Warnings, w) }); err != nil {
		errs.add(fmt.Errorf("admission: %w", err), admissionHint(err), err, pod.Namespace)
	}
	if r.cfg.validation && r.cfg.applyDefaults {
		// The API server validates a pod once defaulted and admitted; so does render. A pod it
		// refuses reaches no node: nothing after this is checked.
		if err := validation.ValidateObject(pod); err != nil {
			errs.add(err, "", nil, "")
			return nil, errs.err()
		}
	}
	warnings := map[string][]configgen.Warning{}
	r.warn = func(c *v1.Container, w configgen.Warning) {
		if c == nil {
			out.Warnings = append(out.Warnings, w)
			return
		}
		warnings[c.Name] = append(warnings[c.Name], w)
	}
	on, err := r.node(pod)
	if err != nil {
		errs.add(err, "", nil, "")
		return nil, errs.err()
	}
	r.rendered.pod, r.rendered.node = pod, on
	if p := on.placeholders; p != nil {
		p.pod, p.warn, p.warned = pod, r.warn, nil
	}
	node, gen := on.node, on.gen
	out.QOSClass = resources.ComputePodQOS(pod, r.cfg.featureGates.gates.PodLevelResources)
	ctx := context.Background()
	if out.Sandbox, err = gen.GeneratePodSandboxConfig(ctx, pod, 0); err != nil {
		errs.add(fmt.Errorf("sandbox: %w", err), "", nil, "")
		return nil, errs.err()
	}
	volumes := node.Volumes(pod)
	if r.cfg.allowMissing {
		placeholderBlockDevices(pod, volumes, node, func(w configgen.Warning) { out.Warnings = append(out.Warnings, w) })
	}
	podIPs := r.podIPs(i, pod)
	if r.cfg.output == "crictl" {
		// The runtime writes the containers' logs there; kubelet makes it before RunPodSandbox.
		if _, err := gen.MakePodLogsDirectory(pod); err != nil {
			errs.add(err, "", nil, "")
			return nil, errs.err()
		}
		out.crictl = r.newCrictlPod(pod, on, volumes)
	}
	out.Volumes = r.renderVolumes(ctx, pod, on, errs)
	for _, e := range containersOf(pod) {
		if r.cfg.container != "" && e.c.Name != r.cfg.container {
			continue
		}
		c := e.c
		if w := placeholderWarning(&c); w != nil {
			warnings[c.Name] = append(warnings[c.Name], *w)
		}
		if r.cfg.allowMissing {
			placeholderEnvFiles(&c, volumes, node.Files, func(w configgen.Warning) { warnings[c.Name] = append(warnings[c.Name], w) })
		}
		cfg, err := gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{
			Pod: pod, Container: &c, RestartCount: r.bundle.Context.RestartCount, PodIPs: podIPs,
			ImageRef: c.Image, Volumes: volumes, NamespaceTarget: e.nsTarget,
		})
		if err != nil {
			if cause := envFileCause(err); cause != nil {
				// The library keeps kubelet's terse text (kubelet only logs the cause); say it here.
				err = fmt.Errorf("%w: %v", err, cause)
			}
			cerr := fmt.Errorf("container %s: %w", terminal.Escape(c.Name), err)
			switch _, rule := r.imageUsers().match(c.Image); {
			case !r.cfg.allowMissing && errors.Is(err, mounts.ErrVolumeNotFound) && len(c.VolumeDevices) > 0:
				errs.add(cerr, "offline a PersistentVolumeClaim has no block device: render with --allow-missing for a placeholder", nil, "")
			case !r.cfg.allowMissing && apierrors.IsNotFound(err):
				errs.add(cerr, missingObjectHint, err, pod.Namespace)
			case !r.cfg.allowMissing && errors.Is(err, configgen.ErrEnvFile) && errors.Is(err, fs.ErrNotExist):
				errs.add(cerr, missingEnvFileHint, nil, "")
			case rule == nil && errors.Is(err, security.ErrRunAsNonRoot):
				errs.add(cerr, unknownImageUserHint(c.Image), nil, "")
			default:
				errs.add(cerr, "", nil, "")
			}
			continue
		}
		if out.crictl != nil {
			for target, source := range node.Subpather.Binds() {
				if strings.HasPrefix(target, out.crictl.podDir+"/") {
					out.crictl.binds[target] = source
				}
			}
		}
		cr := containerResult{
			Name: c.Name, Type: e.kind, Config: cfg, Warnings: warnings[c.Name],
			LogPath: filepath.Join(out.Sandbox.LogDirectory, cfg.LogPath),
		}
		for _, m := range cfg.Mounts {
			if m.ContainerPath == mounts.HostsContainerPath {
				if b, err := node.Files.ReadFile(m.HostPath); err == nil {
					cr.HostsFile = string(b)
				}
			}
		}
		out.Items = append(out.Items, cr)
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	return out, nil
}

// envFileCause is the cause of an env-file (fileKeyRef) failure, which the error's text leaves
// out as kubelet's does; nil for other errors.
func envFileCause(err error) error {
	if !errors.Is(err, configgen.ErrEnvFile) {
		return nil
	}
	for e := err; e != nil; {
		if multi, ok := e.(interface{ Unwrap() []error }); ok {
			for _, inner := range multi.Unwrap() {
				if inner != nil && inner != configgen.ErrEnvFile {
					return inner
				}
			}
			return nil
		}
		e = errors.Unwrap(e)
	}
	return nil
}

// missingObjectHint is the remedy for a ConfigMap or Secret the input lacks.
const missingObjectHint = "add it to the input, or render with --allow-missing for a placeholder"

// admissionHint says how to get past a refusal by admission.
func admissionHint(err error) string {
	var refused *admission.ForbiddenError
	switch {
	case apierrors.IsNotFound(err):
		return "add it to the input, or render with --allow-missing to assume it with no settings"
	case errors.As(err, &refused) && strings.Contains(refused.Err.Error(), "PriorityClass"):
		return "add the PriorityClass to the input, or give its value with --priority-class NAME=VALUE"
	}
	return "render with --admission=false to see the pod as written"
}

// containerEntry is a container in start order with its kind.
type containerEntry struct {
	c        v1.Container
	kind     string
	nsTarget string
}

func containersOf(pod *v1.Pod) []containerEntry {
	var out []containerEntry
	for _, c := range pod.Spec.InitContainers {
		kind := "init"
		if c.RestartPolicy != nil && *c.RestartPolicy == v1.ContainerRestartPolicyAlways {
			kind = "sidecar"
		}
		out = append(out, containerEntry{c: c, kind: kind})
	}
	for _, c := range pod.Spec.Containers {
		out = append(out, containerEntry{c: c, kind: "container"})
	}
	for _, ec := range pod.Spec.EphemeralContainers {
		e := containerEntry{c: v1.Container(ec.EphemeralContainerCommon), kind: "ephemeral"}
		if ec.TargetContainerName != "" {
			// The runtime's ID of the target; offline there is none, so name it.
			e.nsTarget = "<id of container " + ec.TargetContainerName + ">"
		}
		out = append(out, e)
	}
	return out
}
