package conformance

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	apiadmission "k8s.io/apiserver/pkg/admission"
	genericinitializer "k8s.io/apiserver/pkg/admission/initializer"
	"k8s.io/apiserver/pkg/authentication/user"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	core "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	apiv1 "k8s.io/kubernetes/pkg/apis/core/v1"
	_ "k8s.io/kubernetes/pkg/apis/node/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	podregistry "k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/plugin/pkg/admission/defaulttolerationseconds"
	"k8s.io/kubernetes/plugin/pkg/admission/limitranger"
	"k8s.io/kubernetes/plugin/pkg/admission/podtopologylabels"
	"k8s.io/kubernetes/plugin/pkg/admission/priority"
	"k8s.io/kubernetes/plugin/pkg/admission/runtimeclass"
	"k8s.io/kubernetes/plugin/pkg/admission/serviceaccount"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/podconfig/podconfig/admission"
	"github.com/podconfig/podconfig/conformance/scenario"
	"github.com/podconfig/podconfig/defaults"
)

// admissionCase is a pod and the cluster objects its admission reads.
type admissionCase struct {
	Name    string                 `json:"name"`
	Pod     *v1.Pod                `json:"pod"`
	Objects []runtime.RawExtension `json:"objects,omitempty"`
	// WantError, when set, is the error both sides must give.
	WantError string `json:"wantError,omitempty"`

	objects []runtime.Object
}

// TestAdmission compares package admission with the API server's own admission plugins
// (LimitRanger, ServiceAccount, Priority, DefaultTolerationSeconds, RuntimeClass,
// PodTopologyLabels, in the API server's order, then the pod create strategy and the plugins'
// validation) on the admission corpus, on the kubelet corpus's pods and on 1000 random pods in
// random clusters: the same admitted pod (the API server's after the strategy's pod-level resource
// defaulting alone), or the same error; then the same pod once defaults.PrepareForCreate has
// prepared podconfig's as the API server's real pod strategy (PrepareForCreate) prepared its own.
func TestAdmission(t *testing.T) {
	cases := loadAdmissionCorpus(t)
	for _, sc := range loadCorpus(t) {
		objs, err := sc.Decoded()
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, &admissionCase{Name: "kubelet corpus " + sc.Name, Pod: sc.Pod, objects: objs})
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("PODCONFIG_CONFORMANCE_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("random pods seed %d", seed)
	for i := 0; i < 1000; i++ { // about 1 ms each
		cases = append(cases, randomAdmissionCase(seed, i))
	}
	refused := 0
	for _, c := range cases {
		want, wantPrepared, wantErr := apiserverAdmit(t, c.Pod, c.objects)
		got, gotErr := podconfigAdmit(c.Pod, c.objects)
		switch {
		case (wantErr == nil) != (gotErr == nil) || (wantErr != nil && wantErr.Error() != gotErr.Error()):
			t.Errorf("%s: errors differ:\n  API server: %v\n  podconfig:  %v", c.Name, wantErr, gotErr)
		case c.WantError != "" && (wantErr == nil || wantErr.Error() != c.WantError):
			t.Errorf("%s: the API server gives %v, the case expects %s", c.Name, wantErr, c.WantError)
		case wantErr != nil:
			refused++
		case !apiequality.Semantic.DeepEqual(want, got):
			t.Errorf("%s: admitted pods differ (-apiserver +podconfig):\n%s", c.Name, cmp.Diff(want, got))
		default:
			defaults.PrepareForCreate(got)
			// The API server stamps the SchedulingGated condition with its clock; PrepareForCreate
			// with the pod's creationTimestamp, which the API server set a moment before.
			for i := range wantPrepared.Status.Conditions {
				wantPrepared.Status.Conditions[i].LastTransitionTime = c.Pod.CreationTimestamp
			}
			if !apiequality.Semantic.DeepEqual(wantPrepared, got) {
				t.Errorf("%s: pods prepared for create differ (-apiserver +podconfig):\n%s", c.Name, cmp.Diff(wantPrepared, got))
			}
		}
	}
	t.Logf("%d pods compared, %d refused by both with the same error", len(cases), refused)
}

func loadAdmissionCorpus(t *testing.T) []*admissionCase {
	t.Helper()
	files, err := filepath.Glob("testdata/admission/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no admission corpus: %v", err)
	}
	sort.Strings(files)
	dec := legacyscheme.Codecs.UniversalDeserializer()
	var out []*admissionCase
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var list []*admissionCase
		if err := yaml.UnmarshalStrict(data, &list); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, c := range list {
			for i, raw := range c.Objects {
				obj, _, err := dec.Decode(raw.Raw, nil, nil)
				if err != nil {
					t.Fatalf("%s: %s: object %d: %v", f, c.Name, i, err)
				}
				c.objects = append(c.objects, obj)
			}
			out = append(out, c)
		}
	}
	return out
}

// podconfigAdmit is the library's path: defaults without the create strategy, then Admit (the
// caller applies PrepareForCreate after it).
func podconfigAdmit(pod *v1.Pod, objs []runtime.Object) (*v1.Pod, error) {
	pod = pod.DeepCopy()
	defaults.SetObjectDefaultsPod(pod, defaults.ObjectDefaultsOnly())
	var o admission.Objects
	for _, obj := range objs {
		switch obj := obj.DeepCopyObject().(type) {
		case *v1.ServiceAccount:
			o.ServiceAccounts = append(o.ServiceAccounts, obj)
		case *schedulingv1.PriorityClass:
			o.PriorityClasses = append(o.PriorityClasses, obj)
		case *v1.LimitRange:
			o.LimitRanges = append(o.LimitRanges, obj)
		case *nodev1.RuntimeClass:
			o.RuntimeClasses = append(o.RuntimeClasses, obj)
		case *v1.Node:
			o.Nodes = append(o.Nodes, obj)
		}
	}
	err := admission.Admit(pod, &o)
	return pod, err
}

// apiserverAdmit runs the API server's defaulting and admission plugins on the pod, with a cluster
// holding objs (stored as the API server stores them: defaulted), each namespace's default
// ServiceAccount and the built-in PriorityClasses. It returns the admitted pod (after the mutating
// plugins and the create strategy's pod-level resource defaulting, which package admission
// applies) and the pod the real pod strategy's PrepareForCreate makes of it, which the validating
// plugins then check, as in the API server.
func apiserverAdmit(t *testing.T, pod *v1.Pod, objs []runtime.Object) (admitted, prepared *v1.Pod, err error) {
	t.Helper()
	pod = pod.DeepCopy()
	apiv1.SetObjectDefaults_Pod(pod)
	ns := pod.Namespace
	if ns == "" {
		ns = metav1.NamespaceDefault
	}
	var stored []runtime.Object
	hasDefaultSA, pcs := false, map[string]bool{}
	for _, obj := range objs {
		obj = obj.DeepCopyObject()
		if m, err := meta.Accessor(obj); err == nil && m.GetNamespace() == "" {
			switch obj.(type) {
			case *v1.ServiceAccount, *v1.LimitRange:
				m.SetNamespace(metav1.NamespaceDefault)
			}
		}
		legacyscheme.Scheme.Default(obj)
		switch o := obj.(type) {
		case *v1.ServiceAccount:
			hasDefaultSA = hasDefaultSA || (o.Name == "default" && o.Namespace == ns)
		case *schedulingv1.PriorityClass:
			pcs[o.Name] = true
		}
		stored = append(stored, obj)
	}
	if !hasDefaultSA {
		stored = append(stored, &v1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: ns}})
	}
	for _, pc := range admission.BuiltinPriorityClasses() {
		if !pcs[pc.Name] {
			stored = append(stored, pc)
		}
	}
	client := fake.NewSimpleClientset(stored...)
	factory := informers.NewSharedInformerFactory(client, 0)
	plugins := apiadmission.NewPlugins()
	limitranger.Register(plugins)
	serviceaccount.Register(plugins)
	priority.Register(plugins)
	defaulttolerationseconds.Register(plugins)
	runtimeclass.Register(plugins)
	podtopologylabels.Register(plugins)
	init := &admissionInitializer{client: client, factory: factory}
	var chain []apiadmission.Interface
	for _, name := range []string{limitranger.PluginName, serviceaccount.PluginName, priority.PluginName,
		defaulttolerationseconds.PluginName, runtimeclass.PluginName, podtopologylabels.PluginName} {
		p, err := plugins.InitPlugin(name, nil, init)
		if err != nil {
			t.Fatalf("plugin %s: %v", name, err)
		}
		if r, ok := p.(interface{ SetReadyFunc(apiadmission.ReadyFunc) }); ok {
			r.SetReadyFunc(func() bool { return true }) // the listers are filled below, not by a watch
		}
		if sa, ok := p.(*serviceaccount.Plugin); ok {
			setGenerateName(t, sa, func(string) string { return admission.TokenVolumeName(pod) })
		}
		chain = append(chain, p)
	}
	for _, obj := range stored {
		var inf cache.SharedIndexInformer
		switch obj.(type) {
		case *v1.ServiceAccount:
			inf = factory.Core().V1().ServiceAccounts().Informer()
		case *schedulingv1.PriorityClass:
			inf = factory.Scheduling().V1().PriorityClasses().Informer()
		case *v1.LimitRange:
			inf = factory.Core().V1().LimitRanges().Informer()
		case *nodev1.RuntimeClass:
			inf = factory.Node().V1().RuntimeClasses().Informer()
		case *v1.Node:
			inf = factory.Core().V1().Nodes().Informer()
		default:
			continue
		}
		if err := inf.GetIndexer().Add(obj); err != nil {
			t.Fatal(err)
		}
	}

	internal := &core.Pod{}
	if err := legacyscheme.Scheme.Convert(pod, internal, nil); err != nil {
		t.Fatal(err)
	}
	name := pod.Name
	attrs := apiadmission.NewAttributesRecord(internal, nil, schema.GroupVersionKind{Version: "v1", Kind: "Pod"},
		ns, name, schema.GroupVersionResource{Version: "v1", Resource: "pods"}, "", apiadmission.Create,
		&metav1.CreateOptions{}, false, &user.DefaultInfo{Name: "admin"})
	ctx := context.Background()
	for _, p := range chain {
		if m, ok := p.(apiadmission.MutationInterface); ok && p.Handles(apiadmission.Create) {
			if err := m.Admit(ctx, attrs, nil); err != nil {
				return nil, nil, err
			}
		}
	}
	admittedInternal := internal.DeepCopy()
	podutil.DefaultPodLevelResources(admittedInternal)
	podregistry.Strategy.PrepareForCreate(ctx, internal) // attrs holds internal: validation sees it prepared
	for _, p := range chain {
		if v, ok := p.(apiadmission.ValidationInterface); ok && p.Handles(apiadmission.Create) {
			if err := v.Validate(ctx, attrs, nil); err != nil {
				return nil, nil, err
			}
		}
	}
	admitted, prepared = &v1.Pod{}, &v1.Pod{}
	if err := legacyscheme.Scheme.Convert(admittedInternal, admitted, nil); err != nil {
		t.Fatal(err)
	}
	if err := legacyscheme.Scheme.Convert(internal, prepared, nil); err != nil {
		t.Fatal(err)
	}
	return admitted, prepared, nil
}

// admissionInitializer gives plugins what the API server's generic initializer gives them.
type admissionInitializer struct {
	client  kubernetes.Interface
	factory informers.SharedInformerFactory
}

func (i *admissionInitializer) Initialize(p apiadmission.Interface) {
	if w, ok := p.(genericinitializer.WantsExternalKubeClientSet); ok {
		w.SetExternalKubeClientSet(i.client)
	}
	if w, ok := p.(genericinitializer.WantsExternalKubeInformerFactory); ok {
		w.SetExternalKubeInformerFactory(i.factory)
	}
	if w, ok := p.(genericinitializer.WantsFeatures); ok {
		w.InspectFeatureGates(utilfeature.DefaultFeatureGate)
	}
}

// setGenerateName replaces the ServiceAccount plugin's random name generator, an unexported
// field, so that both sides name the token volume alike.
func setGenerateName(t *testing.T, p *serviceaccount.Plugin, gen func(string) string) {
	f := reflect.ValueOf(p).Elem().FieldByName("generateName")
	if !f.IsValid() {
		t.Fatal("serviceaccount.Plugin has no generateName field")
	}
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(gen))
}

// randomAdmissionCase is a random kubelet-corpus pod with random admission-relevant fields, in a
// random cluster of ServiceAccounts, PriorityClasses, LimitRanges, RuntimeClasses and a Node.
func randomAdmissionCase(seed uint64, i int) *admissionCase {
	r := rand.New(rand.NewPCG(seed, uint64(i)+1<<32))
	pod := scenario.Random(seed, i).Pod.DeepCopy()
	ns := pod.Namespace
	if ns == "" {
		ns = metav1.NamespaceDefault
	}
	chance := func(p float64) bool { return r.Float64() < p }
	pick := func(s ...string) string { return s[r.IntN(len(s))] }
	q := resource.MustParse
	never, lower := v1.PreemptNever, v1.PreemptLowerPriority

	var objs []runtime.Object
	objs = append(objs,
		&v1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "robot", Namespace: ns},
			ImagePullSecrets: []v1.LocalObjectReference{{Name: "pull-a"}, {Name: "pull-b"}}},
		&v1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "quiet", Namespace: ns}, AutomountServiceAccountToken: ptr.To(false)},
		&v1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "strict", Namespace: ns,
			Annotations: map[string]string{"kubernetes.io/enforce-mountable-secrets": "true"}},
			Secrets: []v1.ObjectReference{{Name: "sec"}}},
		&schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "batch"}, Value: 100, PreemptionPolicy: &never},
		&schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Value: 5000},
		&nodev1.RuntimeClass{ObjectMeta: metav1.ObjectMeta{Name: "kata"}, Handler: "kata",
			Overhead: &nodev1.Overhead{PodFixed: v1.ResourceList{v1.ResourceCPU: q("250m"), v1.ResourceMemory: q("160Mi")}},
			Scheduling: &nodev1.Scheduling{NodeSelector: map[string]string{"runtime": "kata"},
				Tolerations: []v1.Toleration{{Key: "kata", Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoSchedule}}}},
		&nodev1.RuntimeClass{ObjectMeta: metav1.ObjectMeta{Name: "plain"}, Handler: "runc"},
		&v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-a", Labels: map[string]string{
			"topology.kubernetes.io/zone": "zone-1", "topology.kubernetes.io/region": "region-1"}}},
	)
	if chance(0.3) {
		objs = append(objs, &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "default-low"}, Value: 10, GlobalDefault: true, PreemptionPolicy: &lower})
		if chance(0.5) {
			objs = append(objs, &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "default-high"}, Value: 20, GlobalDefault: true})
		}
	}
	if chance(0.5) {
		item := v1.LimitRangeItem{Type: v1.LimitTypeContainer}
		switch r.IntN(4) {
		case 0:
			item.Default = v1.ResourceList{v1.ResourceCPU: q("500m"), v1.ResourceMemory: q("512Mi")}
			item.DefaultRequest = v1.ResourceList{v1.ResourceCPU: q("100m"), v1.ResourceMemory: q("64Mi")}
		case 1:
			item.Max = v1.ResourceList{v1.ResourceMemory: q("8Gi")}
		case 2:
			item.Min = v1.ResourceList{v1.ResourceCPU: q("1m")}
			item.Default = v1.ResourceList{v1.ResourceEphemeralStorage: q("1Gi")}
		case 3:
			item.DefaultRequest = v1.ResourceList{v1.ResourceCPU: q("50m")}
			item.MaxLimitRequestRatio = v1.ResourceList{v1.ResourceMemory: q("4")}
		}
		items := []v1.LimitRangeItem{item}
		if chance(0.3) {
			items = append(items, v1.LimitRangeItem{Type: v1.LimitTypePod, Max: v1.ResourceList{v1.ResourceCPU: q("64")}})
		}
		// One LimitRange: the API server walks several in its cache's order, which is random.
		objs = append(objs, &v1.LimitRange{ObjectMeta: metav1.ObjectMeta{Name: "limits", Namespace: ns},
			Spec: v1.LimitRangeSpec{Limits: items}})
	}

	spec := &pod.Spec
	spec.ServiceAccountName = pick("", "", "default", "robot", "quiet", "strict")
	if chance(0.2) {
		spec.AutomountServiceAccountToken = ptr.To(chance(0.5))
	}
	if chance(0.1) {
		spec.ImagePullSecrets = []v1.LocalObjectReference{{Name: "own-pull"}}
	}
	spec.PriorityClassName = pick("", "", "system-node-critical", "system-cluster-critical", "batch", "web")
	if chance(0.05) {
		spec.Priority = ptr.To[int32](int32(r.IntN(2)) * 100)
	}
	if chance(0.05) {
		spec.PreemptionPolicy = &never
	}
	switch r.IntN(5) {
	case 0:
		spec.RuntimeClassName = ptr.To("kata")
	case 1:
		spec.RuntimeClassName = ptr.To("plain")
	}
	if chance(0.05) {
		spec.Overhead = v1.ResourceList{v1.ResourceCPU: q(pick("250m", "0.25", "1"))}
	}
	if chance(0.2) {
		spec.NodeSelector = map[string]string{"runtime": pick("kata", "gvisor"), "disk": "ssd"}
	}
	for n := r.IntN(4); n > 0; n-- {
		spec.Tolerations = append(spec.Tolerations, v1.Toleration{
			Key:      pick("", "kata", "node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable", "gpu"),
			Operator: v1.TolerationOperator(pick("Exists", "Equal", "")),
			Value:    pick("", "v"),
			Effect:   v1.TaintEffect(pick("", "NoSchedule", "NoExecute")),
		})
		if t := &spec.Tolerations[len(spec.Tolerations)-1]; t.Operator == v1.TolerationOpExists {
			t.Value = ""
		}
		if t := &spec.Tolerations[len(spec.Tolerations)-1]; t.Effect == v1.TaintEffectNoExecute && chance(0.5) {
			t.TolerationSeconds = ptr.To[int64](int64(r.IntN(600)))
		}
	}
	spec.NodeName = pick("", "node-a", "node-b")
	if chance(0.1) {
		spec.Volumes = append(spec.Volumes, v1.Volume{Name: "kube-api-access-own", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}})
	}
	if chance(0.15) && len(spec.Containers) > 0 {
		spec.Volumes = append(spec.Volumes, v1.Volume{Name: "token-own", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}})
		spec.Containers[0].VolumeMounts = append(spec.Containers[0].VolumeMounts,
			v1.VolumeMount{Name: "token-own", MountPath: admission.TokenMountPath})
	}
	if chance(0.05) {
		pod.Annotations = map[string]string{"kubernetes.io/config.mirror": "hash"}
		if chance(0.5) {
			spec.ServiceAccountName = ""
		}
	}
	addCreateStrategyFields(pod, chance, pick)
	return &admissionCase{Name: fmt.Sprintf("random pod %d (seed %d)", i, seed), Pod: pod, objects: objs}
}

// addCreateStrategyFields adds at random what the pod create strategy changes: scheduling gates,
// label keys of affinity terms and spread constraints (the node's zone among them, a label
// admission adds), AppArmor annotations, and fields v1.37's default gates drop. It draws after
// every other draw of a random case, so that a seed gives the same pod and cluster as before.
func addCreateStrategyFields(pod *v1.Pod, chance func(float64) bool, pick func(...string) string) {
	spec := &pod.Spec
	if chance(0.5) {
		if pod.Labels == nil {
			pod.Labels = map[string]string{}
		}
		pod.Labels["app"] = pick("web", "db")
		pod.Labels["pod-template-hash"] = pick("7c9d", "5f6b")
	}
	keys := func() []string {
		return []string{pick("app", "pod-template-hash", "topology.kubernetes.io/zone", "missing")}
	}
	sel := func() *metav1.LabelSelector {
		if chance(0.2) {
			return nil
		}
		return &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	}
	if chance(0.15) {
		spec.SchedulingGates = []v1.PodSchedulingGate{{Name: "example.com/wait"}}
	}
	if chance(0.2) {
		term := v1.PodAffinityTerm{LabelSelector: sel(), TopologyKey: "kubernetes.io/hostname", MatchLabelKeys: keys()}
		if chance(0.5) {
			term.MismatchLabelKeys = keys()
		}
		spec.Affinity = &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution:  []v1.PodAffinityTerm{term},
			PreferredDuringSchedulingIgnoredDuringExecution: []v1.WeightedPodAffinityTerm{{Weight: 10, PodAffinityTerm: *term.DeepCopy()}},
		}}
	}
	if chance(0.2) {
		spec.TopologySpreadConstraints = append(spec.TopologySpreadConstraints, v1.TopologySpreadConstraint{MaxSkew: 1,
			TopologyKey: "topology.kubernetes.io/zone", WhenUnsatisfiable: v1.ScheduleAnyway, LabelSelector: sel(), MatchLabelKeys: keys()})
	}
	if chance(0.2) && len(spec.Containers) > 0 {
		if pod.Annotations == nil {
			pod.Annotations = map[string]string{}
		}
		pod.Annotations["container.apparmor.security.beta.kubernetes.io/"+spec.Containers[0].Name] =
			pick("runtime/default", "unconfined", "localhost/prof", "localhost/ padded", "localhost/", "bogus")
		if chance(0.3) {
			if spec.SecurityContext == nil {
				spec.SecurityContext = &v1.PodSecurityContext{}
			}
			spec.SecurityContext.AppArmorProfile = &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeRuntimeDefault}
		}
	}
	if chance(0.2) && len(spec.Containers) > 0 {
		c := &spec.Containers[0]
		spec.Volumes = append(spec.Volumes, v1.Volume{Name: "alpha-scratch", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Mode: ptr.To[int32](0o700)}}})
		c.VolumeMounts = append(c.VolumeMounts, v1.VolumeMount{Name: "alpha-scratch", MountPath: "/alpha", BindMountOptions: []string{"nosuid"}})
		c.Lifecycle = &v1.Lifecycle{StopSignal: ptr.To(v1.SIGUSR1)}
		c.StartupProbe = &v1.Probe{ProbeHandler: v1.ProbeHandler{HTTPGet: &v1.HTTPGetAction{Port: intstr.FromInt32(8080), Protocol: ptr.To(v1.HTTPProtocol("HTTP1"))}}}
		spec.EvictionResponders = []v1.EvictionResponder{{Name: "responder"}}
		spec.SchedulingGroup = &v1.PodSchedulingGroup{}
		if pod.Annotations == nil {
			pod.Annotations = map[string]string{}
		}
		pod.Annotations["pod.beta.kubernetes.io/init-containers"] = "[]"
	}
}
