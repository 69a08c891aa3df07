package conformance

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/admission"
	"github.com/podconfig/podconfig/conformance/scenario"
	"github.com/podconfig/podconfig/defaults"
	"github.com/podconfig/podconfig/manifest"
)

// sharedRealworld holds the real manifests public projects ship, shared by the project and never
// copied into it, relative to the conformance module: the project's checkout and shared/ sit side
// by side.
const sharedRealworld = "../../shared/realworld"

// realworldFiles are the plain manifests of the shared real-world set (k8s/ and projects/; odd/
// holds inputs that are not plain manifests), sorted. The test or benchmark is skipped, saying
// where the set was looked for, when it is absent.
func realworldFiles(tb testing.TB) []string {
	tb.Helper()
	var files []string
	for _, dir := range []string{"k8s", "projects"} {
		found, err := filepath.Glob(filepath.Join(sharedRealworld, dir, "*.yaml"))
		if err != nil {
			tb.Fatal(err)
		}
		files = append(files, found...)
	}
	if len(files) == 0 {
		abs, _ := filepath.Abs(sharedRealworld)
		tb.Skipf("skipping: no real manifests under %s (%s): the shared real-world set sits beside the project's checkout", sharedRealworld, abs)
	}
	sort.Strings(files)
	return files
}

// realworldPod is one pod of the real manifests as both sides render it, or why it is left out.
type realworldPod struct {
	sc *scenario.Scenario
	// skipped says why the pod is not rendered: it failed admission.
	skipped string
}

// realworldScenarios reads each real manifest on its own, as `podconfig render FILE` does (each
// workload made into its first Pod, templates defaulted), and gives each Pod the render identity,
// the API server's defaults and its default admission (a missing ServiceAccount or RuntimeClass
// assumed, as with --allow-missing). Each pod becomes a scenario on a node of render's: its
// manifest's ConfigMaps, Secrets and Services (with cluster IPs) and the kubernetes Service, a
// placeholder for each ConfigMap or Secret the pod needs and the manifest lacks, images running as
// root unless the pod asks for a non-root user without naming one (then uid 65532), and pod IPs
// 10.244.0.x, or the node's on the host network. Its hostPath volumes are redirected under hostRoot, so
// that neither side touches the host's own directories.
func realworldScenarios(tb testing.TB, hostRoot string) []realworldPod {
	tb.Helper()
	var out []realworldPod
	for _, path := range realworldFiles(tb) {
		data, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		name := strings.TrimPrefix(path, sharedRealworld+"/")
		b, err := manifest.Read(manifest.Options{DefaultTemplates: true, ContinueOnError: true}, manifest.Input{Name: name, Reader: bytes.NewReader(data)})
		if err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		for _, p := range b.Pods {
			pod, err := admitted(p.Pod, b)
			if err != nil {
				out = append(out, realworldPod{skipped: fmt.Sprintf("%s: %v", p.Source, err)})
				continue
			}
			out = append(out, realworldPod{sc: realworldScenario(p.Source, pod, b, len(out), hostRoot)})
		}
	}
	return out
}

// admitted is a copy of pod as render prepares it: the render identity, the API server's object
// defaults, then its default admission with missing objects assumed.
func admitted(pod *v1.Pod, b *manifest.Bundle) (*v1.Pod, error) {
	pod = pod.DeepCopy()
	defaults.SetRenderIdentity(pod)
	gates := defaults.DefaultFeatureGates()
	defaults.SetObjectDefaultsPod(pod, defaults.WithFeatureGates(gates), defaults.ObjectDefaultsOnly())
	objs := &admission.Objects{
		ServiceAccounts: b.ServiceAccounts, PriorityClasses: b.PriorityClasses,
		LimitRanges: b.LimitRanges, RuntimeClasses: b.RuntimeClasses,
	}
	if b.Node != nil {
		objs.Nodes = []*v1.Node{b.Node}
	}
	if err := admission.Admit(pod, objs, admission.WithFeatureGates(gates), admission.AssumeMissing(nil)); err != nil {
		return nil, err
	}
	return pod, nil
}

// realworldScenario is the scenario of the i-th admitted pod of the real manifests.
func realworldScenario(source string, pod *v1.Pod, b *manifest.Bundle, i int, hostRoot string) *scenario.Scenario {
	sc := &scenario.Scenario{
		Name:   source + " pod " + pod.Namespace + "/" + pod.Name,
		Pod:    pod,
		RawPod: true, // defaulted and admitted above
		Node:   scenario.Node{Name: pod.Spec.NodeName, ResolvConf: "nameserver 10.0.0.2\n"},
		Images: map[string]scenario.ImageUser{},
	}
	// A host-network pod's IPs are the node's, which is how kubelet's status gives them to its
	// containers.
	sc.PodIPs = sc.Node.WithDefaults().IPs
	if !pod.Spec.HostNetwork {
		sc.PodIPs = []string{fmt.Sprintf("10.244.%d.%d", (10+i)/256, (10+i)%256)}
	}
	for _, o := range realworldObjects(pod, b) {
		sc.Objects = append(sc.Objects, runtime.RawExtension{Object: o})
	}
	for _, c := range scenario.Containers(pod) {
		uid := int64(0)
		if needsNonRoot(pod, c) {
			uid = 65532
		}
		sc.Images[c.Image] = scenario.ImageUser{UID: ptr.To(uid)}
	}
	sc.Volumes = map[string]scenario.Volume{}
	for _, vol := range pod.Spec.Volumes {
		if vol.HostPath != nil {
			sc.Volumes[vol.Name] = scenario.Volume{HostPath: filepath.Join(hostRoot, vol.HostPath.Path)}
		}
	}
	sc.Files = map[string]string{}
	for _, c := range scenario.Containers(pod) {
		for _, d := range c.VolumeDevices {
			sc.Volumes[d.Name] = scenario.Volume{BlockDevice: d.Name}
		}
		for _, e := range c.Env {
			if e.ValueFrom == nil || e.ValueFrom.FileKeyRef == nil {
				continue
			}
			ref := e.ValueFrom.FileKeyRef
			file := ref.VolumeName + "/" + ref.Path
			sc.Files[file] += ref.Key + "='value of " + ref.Key + "'\n"
		}
	}
	return sc
}

// needsNonRoot tells whether c must run as a non-root user its pod does not name: such a
// container fails on a root image, and its image is then given a non-root user.
func needsNonRoot(pod *v1.Pod, c *v1.Container) bool {
	psc, csc := pod.Spec.SecurityContext, c.SecurityContext
	nonRoot := (csc != nil && csc.RunAsNonRoot != nil && *csc.RunAsNonRoot) ||
		(psc != nil && psc.RunAsNonRoot != nil && *psc.RunAsNonRoot && (csc == nil || csc.RunAsNonRoot == nil))
	named := (csc != nil && csc.RunAsUser != nil) || (psc != nil && psc.RunAsUser != nil)
	return nonRoot && !named
}

// realworldObjects are the objects the node serves for pod: its manifest's ConfigMaps, Secrets
// and Services in "default" when they name no namespace (as kubectl apply puts them), Services
// given a cluster IP as the API server would, the kubernetes Service every cluster has, and a
// placeholder for each ConfigMap or Secret the pod refers to without marking it optional that
// the manifest lacks.
func realworldObjects(pod *v1.Pod, b *manifest.Bundle) []runtime.Object {
	var objs []runtime.Object
	have := map[string]bool{}
	for _, cm := range b.ConfigMaps {
		cm = cm.DeepCopy()
		inDefault(&cm.ObjectMeta)
		have["ConfigMap "+cm.Namespace+"/"+cm.Name] = true
		objs = append(objs, cm)
	}
	for _, s := range b.Secrets {
		s = s.DeepCopy()
		inDefault(&s.ObjectMeta)
		have["Secret "+s.Namespace+"/"+s.Name] = true
		objs = append(objs, s)
	}
	hasKubernetes := false
	for _, svc := range b.Services {
		svc = svc.DeepCopy()
		inDefault(&svc.ObjectMeta)
		withClusterIP(svc)
		hasKubernetes = hasKubernetes || (svc.Namespace == metav1.NamespaceDefault && svc.Name == "kubernetes")
		objs = append(objs, svc)
	}
	if !hasKubernetes {
		objs = append(objs, &v1.Service{
			ObjectMeta: metav1.ObjectMeta{Name: "kubernetes", Namespace: metav1.NamespaceDefault},
			Spec: v1.ServiceSpec{ClusterIP: "10.96.0.1", ClusterIPs: []string{"10.96.0.1"}, Ports: []v1.ServicePort{{
				Name: "https", Port: 443, Protocol: v1.ProtocolTCP,
			}}},
		})
	}
	refs := objectRefs(pod)
	for _, id := range slices.Sorted(maps.Keys(refs)) {
		ref := refs[id]
		if have[id] || !ref.required {
			continue
		}
		kind, name, _ := strings.Cut(id, " ")
		_, name, _ = strings.Cut(name, "/")
		meta := metav1.ObjectMeta{Namespace: pod.Namespace, Name: name}
		if kind == "ConfigMap" {
			data := map[string]string{}
			for _, key := range ref.keys {
				data[key] = "placeholder of " + id + " key " + key
			}
			objs = append(objs, &v1.ConfigMap{ObjectMeta: meta, Data: data})
		} else {
			data := map[string][]byte{}
			for _, key := range ref.keys {
				data[key] = []byte("placeholder of " + id + " key " + key)
			}
			objs = append(objs, &v1.Secret{ObjectMeta: meta, Data: data})
		}
	}
	return objs
}

// objectRef is what a pod reads of one ConfigMap or Secret.
type objectRef struct {
	keys     []string
	required bool
}

// objectRefs are the ConfigMaps and Secrets pod refers to, by "Kind namespace/name": the keys its
// containers' env and its volumes' items name, and whether any reference is not optional.
func objectRefs(pod *v1.Pod) map[string]*objectRef {
	refs := map[string]*objectRef{}
	add := func(kind, name string, optional *bool, keys ...string) {
		id := kind + " " + pod.Namespace + "/" + name
		r := refs[id]
		if r == nil {
			r = &objectRef{}
			refs[id] = r
		}
		r.required = r.required || optional == nil || !*optional
		for _, k := range keys {
			if !slices.Contains(r.keys, k) {
				r.keys = append(r.keys, k)
			}
		}
	}
	items := func(its []v1.KeyToPath) []string {
		var keys []string
		for _, it := range its {
			keys = append(keys, it.Key)
		}
		return keys
	}
	for _, c := range scenario.Containers(pod) {
		for _, e := range c.Env {
			if e.ValueFrom == nil {
				continue
			}
			if r := e.ValueFrom.ConfigMapKeyRef; r != nil {
				add("ConfigMap", r.Name, r.Optional, r.Key)
			}
			if r := e.ValueFrom.SecretKeyRef; r != nil {
				add("Secret", r.Name, r.Optional, r.Key)
			}
		}
		for _, e := range c.EnvFrom {
			if r := e.ConfigMapRef; r != nil {
				add("ConfigMap", r.Name, r.Optional)
			}
			if r := e.SecretRef; r != nil {
				add("Secret", r.Name, r.Optional)
			}
		}
	}
	for _, vol := range pod.Spec.Volumes {
		if r := vol.ConfigMap; r != nil {
			add("ConfigMap", r.Name, r.Optional, items(r.Items)...)
		}
		if r := vol.Secret; r != nil {
			add("Secret", r.SecretName, r.Optional, items(r.Items)...)
		}
		if vol.Projected == nil {
			continue
		}
		for _, s := range vol.Projected.Sources {
			if r := s.ConfigMap; r != nil {
				add("ConfigMap", r.Name, r.Optional, items(r.Items)...)
			}
			if r := s.Secret; r != nil {
				add("Secret", r.Name, r.Optional, items(r.Items)...)
			}
		}
	}
	return refs
}

// inDefault puts an object that names no namespace in "default", as kubectl apply does.
func inDefault(meta *metav1.ObjectMeta) {
	if meta.Namespace == "" {
		meta.Namespace = metav1.NamespaceDefault
	}
}

// withClusterIP gives a Service the API server would give a cluster IP (not headless, not
// ExternalName, none written) a stable one in 10.96.0.0/16 from its namespace and name, so that
// its service-link variables appear as on a cluster.
func withClusterIP(svc *v1.Service) {
	if svc.Spec.ClusterIP != "" || svc.Spec.Type == v1.ServiceTypeExternalName {
		return
	}
	h := fnv.New32a()
	h.Write([]byte(svc.Namespace + "/" + svc.Name))
	n := h.Sum32()%(256*256-512) + 256 // past 10.96.0.x, the kubernetes and DNS Services'
	ip := fmt.Sprintf("10.96.%d.%d", n/256, n%256)
	svc.Spec.ClusterIP, svc.Spec.ClusterIPs = ip, []string{ip}
}

// TestRealworld renders every pod of the real manifests with kubelet and with podconfig (its
// in-memory files) and requires the same configs, without an error on either side.
func TestRealworld(t *testing.T) {
	ctx := context.Background()
	for _, p := range realworldScenarios(t, filepath.Join(t.TempDir(), "host")) {
		if p.sc == nil {
			t.Logf("left out: %s", p.skipped)
			continue
		}
		t.Run(p.sc.Name, func(t *testing.T) {
			out, err := Run(ctx, p.sc, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range out.Diffs {
				t.Errorf("%s", d)
			}
			if err := firstError(out.Kubelet); err != nil {
				t.Errorf("kubelet: %v", err)
			}
		})
	}
}
