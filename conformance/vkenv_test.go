package conformance

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/conformance/internal/sidebyside"
	"github.com/podconfig/podconfig/conformance/internal/vkside"
)

// vkNamespace is the namespace of the pod virtual-kubelet's environment is compared on.
const vkNamespace = "shop"

// vkCluster is one cluster's ConfigMaps, Secrets and Services in client-go listers, read by
// virtual-kubelet's resource manager and, through configgen's getter adapters, by podconfig, as a
// provider reads them from its informers.
type vkCluster struct {
	vk *vkside.Populator
	in configgen.PodEnvInput // getters only
}

func newVKCluster(tb testing.TB, objects ...any) *vkCluster {
	tb.Helper()
	index := func() cache.Indexer {
		return cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	}
	cms, secrets, services := index(), index(), index()
	for _, o := range objects {
		var err error
		switch o.(type) {
		case *v1.ConfigMap:
			err = cms.Add(o)
		case *v1.Secret:
			err = secrets.Add(o)
		case *v1.Service:
			err = services.Add(o)
		default:
			err = fmt.Errorf("unexpected object %T", o)
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
	cmLister, secretLister, serviceLister := corelisters.NewConfigMapLister(cms), corelisters.NewSecretLister(secrets), corelisters.NewServiceLister(services)
	// A FakeRecorder with no channel drops the events; the pods here cause none.
	vk, err := vkside.New(secretLister, cmLister, serviceLister, &record.FakeRecorder{})
	if err != nil {
		tb.Fatal(err)
	}
	return &vkCluster{vk: vk, in: configgen.PodEnvInput{
		ConfigMaps: configgen.ConfigMapGetterFunc(func(_ context.Context, ns, name string) (*v1.ConfigMap, error) {
			return cmLister.ConfigMaps(ns).Get(name)
		}),
		Secrets: configgen.SecretGetterFunc(func(_ context.Context, ns, name string) (*v1.Secret, error) {
			return secretLister.Secrets(ns).Get(name)
		}),
		Services: configgen.ServiceListerFunc(func(_ context.Context, ns string) ([]*v1.Service, error) {
			return serviceLister.Services(ns).List(labels.Everything())
		}),
	}}
}

// vkBenchObjects are the benchmark pod's cluster: 20 Services in its namespace (one TCP port
// each, as virtual-kubelet's test Services), default/kubernetes, and the ConfigMaps and Secrets
// its containers read.
func vkBenchObjects() []any {
	objects := []any{
		&v1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: metav1.NamespaceDefault, Name: "kubernetes"},
			Spec: v1.ServiceSpec{ClusterIP: "10.96.0.1", Ports: []v1.ServicePort{{Name: "https", Port: 443, Protocol: v1.ProtocolTCP}}}},
		&v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: vkNamespace, Name: "app-config"}, Data: map[string]string{}},
		&v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: vkNamespace, Name: "features"}, Data: map[string]string{"mode": "fast", "log-level": "info"}},
		&v1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: vkNamespace, Name: "db"}, Data: map[string][]byte{"user": []byte("cart"), "password": []byte("s3cret")}},
		&v1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: vkNamespace, Name: "proxy-creds"}, Data: map[string][]byte{"TOKEN": []byte("t0ken"), "CA": []byte("-----BEGIN CERTIFICATE-----")}},
	}
	for i := range 10 {
		objects[2].(*v1.ConfigMap).Data[fmt.Sprintf("SETTING_%02d", i)] = fmt.Sprintf("value-%d", i)
	}
	for i := range 20 {
		objects = append(objects, &v1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: vkNamespace, Name: fmt.Sprintf("backend-%02d", i)},
			Spec: v1.ServiceSpec{ClusterIP: fmt.Sprintf("10.0.1.%d", i+1), Ports: []v1.ServicePort{{Port: int32(8000 + i), Protocol: v1.ProtocolTCP}}}})
	}
	return objects
}

// vkBenchPod is one pod with an init container, two regular containers and an ephemeral one,
// using what virtual-kubelet resolves as kubelet does: literal values with $(VAR) references to
// other variables and to the Services', fieldRefs to metadata and spec, configMapKeyRef,
// secretKeyRef, and envFrom a ConfigMap and, with a prefix, a Secret.
func vkBenchPod() *v1.Pod {
	field := func(name, path string) v1.EnvVar {
		return v1.EnvVar{Name: name, ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: path}}}
	}
	cmKey := func(name, cm, key string) v1.EnvVar {
		return v1.EnvVar{Name: name, ValueFrom: &v1.EnvVarSource{ConfigMapKeyRef: &v1.ConfigMapKeySelector{
			LocalObjectReference: v1.LocalObjectReference{Name: cm}, Key: key}}}
	}
	secretKey := func(name, secret, key string) v1.EnvVar {
		return v1.EnvVar{Name: name, ValueFrom: &v1.EnvVarSource{SecretKeyRef: &v1.SecretKeySelector{
			LocalObjectReference: v1.LocalObjectReference{Name: secret}, Key: key}}}
	}
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: vkNamespace, Name: "cart-7d9f8-x2k4q", UID: "0f6f5e54-1c1d-4b7e-9d35-7f1f0e6c2a11",
			Labels: map[string]string{"app": "cart", "tier": "backend"}},
		Spec: v1.PodSpec{
			EnableServiceLinks: ptr.To(true),
			NodeName:           "vk-node",
			ServiceAccountName: "cart",
			InitContainers: []v1.Container{{Name: "migrate", Image: "registry.example/shop/db-migrate:1.4", Env: []v1.EnvVar{
				secretKey("DB_USER", "db", "user"),
				secretKey("DB_PASSWORD", "db", "password"),
				{Name: "DB_URL", Value: "postgres://$(DB_USER)@$(BACKEND_00_SERVICE_HOST):$(BACKEND_00_SERVICE_PORT)/cart"},
				cmKey("LOG_LEVEL", "features", "log-level"),
			}}},
			Containers: []v1.Container{
				{Name: "cart", Image: "registry.example/shop/cart:1.4",
					EnvFrom: []v1.EnvFromSource{{ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "app-config"}}}},
					Env: []v1.EnvVar{
						field("POD_NAME", "metadata.name"),
						field("POD_NAMESPACE", "metadata.namespace"),
						field("NODE_NAME", "spec.nodeName"),
						field("SERVICE_ACCOUNT", "spec.serviceAccountName"),
						field("APP", "metadata.labels['app']"),
						cmKey("MODE", "features", "mode"),
						secretKey("DB_PASSWORD", "db", "password"),
						{Name: "PAYMENTS_URL", Value: "http://$(BACKEND_01_SERVICE_HOST):$(BACKEND_01_SERVICE_PORT)/v1"},
						{Name: "GREETING", Value: "$(POD_NAME) in $(POD_NAMESPACE), $(MODE) mode"},
					}},
				{Name: "proxy", Image: "registry.example/envoy:1.30",
					EnvFrom: []v1.EnvFromSource{{Prefix: "PROXY_", SecretRef: &v1.SecretEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "proxy-creds"}}}},
					Env: []v1.EnvVar{
						field("POD_NAME", "metadata.name"),
						{Name: "UPSTREAM", Value: "$(BACKEND_02_PORT)"},
						{Name: "ADMIN_PORT", Value: "9901"},
					}},
			},
			EphemeralContainers: []v1.EphemeralContainer{{TargetContainerName: "cart", EphemeralContainerCommon: v1.EphemeralContainerCommon{
				Name: "debug", Image: "busybox:1.36", Env: []v1.EnvVar{
					field("POD_NAME", "metadata.name"),
					{Name: "TARGET", Value: "$(POD_NAME)/cart"},
				}}}},
		},
	}
}

// vkEnvSets is each container's environment, in PodContainers' order, as sorted NAME=value
// strings, and an error when a container has a name twice.
func vkEnvSets(pod *v1.Pod) ([][]string, error) {
	var out [][]string
	for i, pc := range configgen.PodContainers(pod) {
		set := make([]string, 0, len(pc.Container.Env))
		for _, e := range pc.Container.Env {
			if e.ValueFrom != nil {
				return nil, fmt.Errorf("container %d (%q): %s is not a plain value", i, pc.Container.Name, e.Name)
			}
			set = append(set, e.Name+"="+e.Value)
		}
		sort.Strings(set)
		for j := 1; j < len(set); j++ {
			if set[j] == set[j-1] {
				return nil, fmt.Errorf("container %d (%q): %s twice", i, pc.Container.Name, set[j])
			}
		}
		if len(pc.Container.EnvFrom) != 0 {
			return nil, fmt.Errorf("container %d (%q): envFrom left", i, pc.Container.Name)
		}
		out = append(out, set)
	}
	return out, nil
}

// vkCompare resolves pod with virtual-kubelet and with podconfig (MakePodEnvironmentVariables,
// then ApplyTo on a copy), and fails unless every container, by position, gets the same
// variables (as a set: virtual-kubelet's order is a Go map's).
func vkCompare(ctx context.Context, c *vkCluster, in configgen.PodEnvInput, pod *v1.Pod) error {
	byVK := pod.DeepCopy()
	if err := c.vk.Populate(ctx, byVK); err != nil {
		return fmt.Errorf("virtual-kubelet: %w", err)
	}
	in.Pod = pod
	envs, warnings, err := configgen.MakePodEnvironmentVariables(ctx, in)
	if err != nil {
		return fmt.Errorf("podconfig: %w", err)
	}
	if len(warnings) != 0 {
		return fmt.Errorf("podconfig warns: %v", warnings)
	}
	byPodconfig := pod.DeepCopy()
	if err := envs.ApplyTo(byPodconfig); err != nil {
		return fmt.Errorf("podconfig: %w", err)
	}
	want, err := vkEnvSets(byVK)
	if err != nil {
		return fmt.Errorf("virtual-kubelet: %w", err)
	}
	got, err := vkEnvSets(byPodconfig)
	if err != nil {
		return fmt.Errorf("podconfig: %w", err)
	}
	if len(got) != len(want) {
		return fmt.Errorf("%d containers, virtual-kubelet %d", len(got), len(want))
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			return fmt.Errorf("container %d: podconfig %q, virtual-kubelet %q", i, got[i], want[i])
		}
	}
	return nil
}

// The pods the benchmark and virtual-kubelet's own tests run, resolved by virtual-kubelet's code
// and by podconfig's public calls, give every container the same variables.
func TestVirtualKubeletEnvMatches(t *testing.T) {
	ctx := context.Background()
	unnamed := func(env ...v1.EnvVar) v1.Container { return v1.Container{Env: env} }
	lit := func(name, value string) v1.EnvVar { return v1.EnvVar{Name: name, Value: value} }
	fromCM := v1.EnvVar{Name: "BAR", ValueFrom: &v1.EnvVarSource{ConfigMapKeyRef: &v1.ConfigMapKeySelector{
		LocalObjectReference: v1.LocalObjectReference{Name: "configmap-1"}, Key: "FOO"}}}
	fromSecret := v1.EnvVar{Name: "BAR", ValueFrom: &v1.EnvVarSource{SecretKeyRef: &v1.SecretKeySelector{
		LocalObjectReference: v1.LocalObjectReference{Name: "secret-1"}, Key: "BAZ"}}}
	vkTestPod := func(spec v1.PodSpec) *v1.Pod {
		spec.EnableServiceLinks = ptr.To(false)
		return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "foo", Name: "pod-0"}, Spec: spec}
	}
	vkTestObjects := []any{
		&v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "foo", Name: "configmap-1"}, Data: map[string]string{"FOO": "__foo__"}},
		&v1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "foo", Name: "secret-1"}, Data: map[string][]byte{"BAZ": []byte("__baz__")}},
	}
	tests := []struct {
		name    string
		objects []any
		pod     *v1.Pod
	}{
		{"the benchmark pod: init, regular and ephemeral containers, 20 Services", vkBenchObjects(), vkBenchPod()},
		{"unnamed init and regular containers, each its own env (virtual-kubelet's TestPopulatePodWithInitContainersUsingEnv)", vkTestObjects,
			vkTestPod(v1.PodSpec{
				InitContainers: []v1.Container{unnamed(lit("FOO", "foo_value"), fromCM), unnamed(lit("FOO", "foo_value"), fromSecret)},
				Containers:     []v1.Container{unnamed(lit("FOO", "foo_value"), fromCM), unnamed(lit("FOO", "foo_value"), fromSecret)},
			})},
		{"unnamed ephemeral containers, each its own env (virtual-kubelet's TestPopulatePodWithEphemeralContainersUsingEnv)", vkTestObjects,
			vkTestPod(v1.PodSpec{
				Containers: []v1.Container{unnamed(lit("FOO", "foo_value"))},
				EphemeralContainers: []v1.EphemeralContainer{
					{EphemeralContainerCommon: v1.EphemeralContainerCommon{Env: []v1.EnvVar{lit("FOO", "foo_value"), fromCM}}},
					{EphemeralContainerCommon: v1.EphemeralContainerCommon{Env: []v1.EnvVar{lit("FOO", "foo_value"), fromSecret}}},
				},
			})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newVKCluster(t, tt.objects...)
			if err := vkCompare(ctx, c, c.in, tt.pod); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// vkSide is one way of resolving the benchmark pod's environment; pod is a fresh copy of it.
type vkSide struct {
	name string
	call func(ctx context.Context, pod *v1.Pod) error
}

// vkSides are virtual-kubelet's PopulateEnvironmentVariables, then podconfig's calls a provider
// would make: MakePodEnvironmentVariables with the ServiceEnvCache the provider keeps, the same
// followed by ApplyTo (the resolved pod virtual-kubelet gives), and MakePodEnvironmentVariables
// with no cache (the service variables built on every call).
func vkSides(c *vkCluster) []vkSide {
	cache := &configgen.ServiceEnvCache{}
	resolve := func(ctx context.Context, pod *v1.Pod, cache *configgen.ServiceEnvCache) (configgen.PodEnv, error) {
		in := c.in
		in.Pod, in.ServiceEnvCache = pod, cache
		envs, _, err := configgen.MakePodEnvironmentVariables(ctx, in)
		return envs, err
	}
	return []vkSide{
		{"virtual-kubelet", c.vk.Populate},
		{"podconfig", func(ctx context.Context, pod *v1.Pod) error {
			_, err := resolve(ctx, pod, cache)
			return err
		}},
		{"podconfig+ApplyTo", func(ctx context.Context, pod *v1.Pod) error {
			envs, err := resolve(ctx, pod, cache)
			if err == nil {
				err = envs.ApplyTo(pod)
			}
			return err
		}},
		{"podconfig-uncached", func(ctx context.Context, pod *v1.Pod) error {
			_, err := resolve(ctx, pod, nil)
			return err
		}},
	}
}

// vkBatch is how many calls a side makes in a row, each on its own copy of the pod made
// beforehand, untimed: virtual-kubelet writes into the pod it is given, as its PodController
// does into a copy.
const vkBatch = 256

// BenchmarkVirtualKubeletEnv resolves the environment of one pod (an init container, two regular
// containers and an ephemeral one, 20 Services in its namespace; vkBenchPod) with
// virtual-kubelet v1.14.1's own code (internal/podutils.PopulateEnvironmentVariables, through
// internal/vkside) and with podconfig's public calls, after checking that both give every
// container the same variables. Both read the same client-go listers. podconfig is
// MakePodEnvironmentVariables alone (a provider that builds its runtime's request from the
// result), and with ApplyTo (a provider that passes the resolved pod on, virtual-kubelet's
// output).
//
// Each side's sub-benchmark times it alone; "interleaved" times the sides in turn, vkBatch calls
// each (the order rotating every round), and reports the median over rounds of each side's time
// and allocations per call over virtual-kubelet's (podconfig/vk-time, ...), its time and
// allocations per call, and the 1-minute load average: on a shared machine the ratios are what
// holds. -benchtime sets the rounds (e.g. 30x).
func BenchmarkVirtualKubeletEnv(b *testing.B) {
	ctx := context.Background()
	c := newVKCluster(b, vkBenchObjects()...)
	pod := vkBenchPod()
	// Without a cache, then with one as it is first filled and as it is reused.
	cached := c.in
	cached.ServiceEnvCache = &configgen.ServiceEnvCache{}
	for _, in := range []configgen.PodEnvInput{c.in, cached, cached} {
		if err := vkCompare(ctx, c, in, pod); err != nil {
			b.Fatal(err)
		}
	}
	sides := vkSides(c)
	copies := make([]*v1.Pod, vkBatch)
	fresh := func(n int) []*v1.Pod {
		for i := range n {
			copies[i] = pod.DeepCopy()
		}
		return copies[:n]
	}
	for _, side := range sides {
		b.Run(side.name, func(b *testing.B) {
			b.ReportAllocs()
			b.StopTimer()
			for done := 0; done < b.N; {
				batch := fresh(min(vkBatch, b.N-done))
				b.StartTimer()
				for _, p := range batch {
					if err := side.call(ctx, p); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				done += len(batch)
			}
		})
	}
	b.Run("interleaved", func(b *testing.B) {
		timePerCall := make([][]float64, len(sides))
		allocsPerCall := make([][]float64, len(sides))
		round := 0
		for b.Loop() {
			for k := range sides {
				s := (k + round) % len(sides)
				batch := fresh(vkBatch)
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				start := time.Now()
				for _, p := range batch {
					if err := sides[s].call(ctx, p); err != nil {
						b.Fatal(err)
					}
				}
				elapsed := time.Since(start)
				runtime.ReadMemStats(&after)
				timePerCall[s] = append(timePerCall[s], float64(elapsed.Nanoseconds())/vkBatch)
				allocsPerCall[s] = append(allocsPerCall[s], float64(after.Mallocs-before.Mallocs)/vkBatch)
			}
			round++
		}
		for s := 1; s < len(sides); s++ {
			b.ReportMetric(medianRatio(timePerCall[s], timePerCall[0]), sides[s].name+"/vk-time")
			b.ReportMetric(medianRatio(allocsPerCall[s], allocsPerCall[0]), sides[s].name+"/vk-allocs")
		}
		for s := range sides {
			b.ReportMetric(sidebyside.Median(timePerCall[s]), sides[s].name+"-ns/call")
			b.ReportMetric(sidebyside.Median(allocsPerCall[s]), sides[s].name+"-allocs/call")
		}
		b.ReportMetric(loadAverage()[0], "load1")
	})
}

// medianRatio is the median over rounds of a[i]/b[i].
func medianRatio(a, b []float64) float64 {
	r := make([]float64, len(a))
	for i := range a {
		r[i] = a[i] / b[i]
	}
	return sidebyside.Median(r)
}
