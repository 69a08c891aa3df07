package defaults

import (
	"fmt"
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/randfill"
)

// randomPod fills a pod at random, leaving about half of the optional fields unset, with values
// chosen to reach the defaulting rules: empty strings, zeros, "latest" images, sidecars, quantities
// finer than a milli unit. With keepable set, it avoids the values that the API server rewrites
// (sub-milli quantities, negative grace periods, a serviceAccount that disagrees with
// serviceAccountName, a podIP that disagrees with podIPs).
func randomPod(seed int64, keepable bool) *v1.Pod {
	strs := []string{"", "", "", "Always", "latest", "nginx", "nginx:latest", "nginx:1.2", "v1", "TCP", "/x"}
	qs := []string{"0", "1", "100m", "1.5", "100Mi", "2Gi", "7k", "0.0001", "1.0005"}
	if keepable {
		qs = qs[:7]
	}
	names := []v1.ResourceName{"cpu", "memory", "hugepages-2Mi", "hugepages-1Gi", "ephemeral-storage", "example.com/gpu"}
	f := randfill.NewWithSeed(seed).NilChance(0.4).NumElements(0, 3).Funcs(
		func(s *string, c randfill.Continue) { *s = strs[c.Intn(len(strs))] },
		func(q *resource.Quantity, c randfill.Continue) { *q = resource.MustParse(qs[c.Intn(len(qs))]) },
		func(i *int32, c randfill.Continue) { *i = int32(c.Intn(3) * c.Intn(50)) },
		func(i *int64, c randfill.Continue) {
			*i = int64(c.Intn(3) * c.Intn(50))
			if !keepable && c.Intn(4) == 0 {
				*i = -*i
			}
		},
		func(l *v1.ResourceList, c randfill.Continue) {
			if c.Intn(3) == 0 {
				*l = nil
				return
			}
			*l = v1.ResourceList{}
			for n := c.Intn(4); n > 0; n-- {
				(*l)[names[c.Intn(len(names))]] = resource.MustParse(qs[c.Intn(len(qs))])
			}
		},
		func(p *v1.ContainerRestartPolicy, c randfill.Continue) {
			*p = []v1.ContainerRestartPolicy{v1.ContainerRestartPolicyAlways, "Never"}[c.Intn(2)]
		},
	)
	pod := &v1.Pod{}
	f.Fill(pod)
	if keepable {
		if pod.Spec.ServiceAccountName != "" && pod.Spec.DeprecatedServiceAccount != "" {
			pod.Spec.DeprecatedServiceAccount = pod.Spec.ServiceAccountName
		}
		if pod.Status.PodIP != "" && len(pod.Status.PodIPs) > 0 {
			pod.Status.PodIPs[0].IP = pod.Status.PodIP
		}
	}
	return pod
}

func TestIdempotent(t *testing.T) {
	fixOff := DefaultFeatureGates()
	fixOff.PodLevelResourcesFixDefaulting = false
	allOn := FeatureGates{PodLevelResources: true, PodLevelResourcesFixDefaulting: true, H2CContainerProbe: true}
	for _, opts := range [][]Option{nil, {ObjectDefaultsOnly()}, {WithFeatureGates(fixOff)}, {WithFeatureGates(allOn)}, {WithFeatureGates(FeatureGates{})}} {
		for seed := int64(0); seed < 80; seed++ {
			once := randomPod(seed, false)
			SetObjectDefaultsPod(once, opts...)
			twice := once.DeepCopy()
			SetObjectDefaultsPod(twice, opts...)
			if !equality.Semantic.DeepEqual(once, twice) {
				assertSemantic(t, once, twice, "seed %d: applying twice differs from once", seed)
				return
			}
		}
	}
}

func TestTemplateIdempotent(t *testing.T) {
	for seed := int64(0); seed < 150; seed++ {
		pod := randomPod(seed, false)
		once := &v1.PodTemplateSpec{ObjectMeta: pod.ObjectMeta, Spec: pod.Spec}
		SetDefaultsPodTemplateSpec(once)
		twice := once.DeepCopy()
		SetDefaultsPodTemplateSpec(twice)
		if !equality.Semantic.DeepEqual(once, twice) {
			assertSemantic(t, once, twice, "seed %d", seed)
			return
		}
	}
}

// TestNeverOverwrites checks on random pods that every field set before defaulting has the same
// value after it.
func TestNeverOverwrites(t *testing.T) {
	for seed := int64(0); seed < 300; seed++ {
		before := randomPod(seed, true)
		after := before.DeepCopy()
		SetObjectDefaultsPod(after)
		if path, ok := keptSetFields(reflect.ValueOf(before).Elem(), reflect.ValueOf(after).Elem(), "pod"); !ok {
			t.Fatalf("seed %d: %s was set and changed", seed, path)
		}
	}
}

func TestNeverOverwritesCheckerCatchesChanges(t *testing.T) {
	before := podWith(func(p *v1.Pod) { p.Spec.DNSPolicy = v1.DNSDefault })
	after := before.DeepCopy()
	after.Spec.DNSPolicy = v1.DNSClusterFirst
	path, ok := keptSetFields(reflect.ValueOf(before).Elem(), reflect.ValueOf(after).Elem(), "pod")
	if ok || path != "pod.Spec.DNSPolicy" {
		t.Fatalf("the checker missed a changed field: %q %v", path, ok)
	}
}

var quantityType = reflect.TypeFor[resource.Quantity]()

// keptSetFields reports whether every field set in before (non-nil, non-empty, non-zero) is equal
// in after, and if not, the path of the first that is not.
func keptSetFields(before, after reflect.Value, path string) (string, bool) {
	if before.Type() == quantityType {
		b, a := before.Interface().(resource.Quantity), after.Interface().(resource.Quantity)
		return path, b.Cmp(a) == 0
	}
	switch before.Kind() {
	case reflect.Pointer, reflect.Interface:
		if before.IsNil() {
			return "", true
		}
		if after.IsNil() {
			return path, false
		}
		return keptSetFields(before.Elem(), after.Elem(), path)
	case reflect.Struct:
		for i := 0; i < before.NumField(); i++ {
			if !before.Type().Field(i).IsExported() {
				if !reflect.DeepEqual(before.Interface(), after.Interface()) {
					return path, false
				}
				return "", true
			}
			if p, ok := keptSetFields(before.Field(i), after.Field(i), path+"."+before.Type().Field(i).Name); !ok {
				return p, false
			}
		}
		return "", true
	case reflect.Slice:
		if before.Len() == 0 {
			return "", true
		}
		if after.Len() != before.Len() {
			return path, false
		}
		for i := 0; i < before.Len(); i++ {
			if p, ok := keptSetFields(before.Index(i), after.Index(i), fmt.Sprintf("%s[%d]", path, i)); !ok {
				return p, false
			}
		}
		return "", true
	case reflect.Map:
		for _, k := range before.MapKeys() {
			v := after.MapIndex(k)
			if !v.IsValid() {
				return fmt.Sprintf("%s[%v]", path, k), false
			}
			if p, ok := keptSetFields(before.MapIndex(k), v, fmt.Sprintf("%s[%v]", path, k)); !ok {
				return p, false
			}
		}
		return "", true
	default:
		if before.IsZero() {
			return "", true
		}
		return path, before.Equal(after)
	}
}

// TestPrepareForCreateOnRandomPods checks on random defaulted pods that PrepareForCreate leaves a
// fresh status with the QoS class of the prepared spec, and nothing its drops would drop again.
func TestPrepareForCreateOnRandomPods(t *testing.T) {
	for seed := int64(0); seed < 300; seed++ {
		pod := randomPod(seed, false)
		SetObjectDefaultsPod(pod)
		PrepareForCreate(pod)
		if pod.Generation != 1 || pod.Status.Phase != v1.PodPending || len(pod.Status.PodIPs) != 0 {
			t.Fatalf("seed %d: generation %d, status %+v", seed, pod.Generation, pod.Status)
		}
		if want := podQOS(pod, DefaultFeatureGates()); pod.Status.QOSClass != want {
			t.Fatalf("seed %d: qosClass %s, the prepared spec is %s", seed, pod.Status.QOSClass, want)
		}
		again := pod.DeepCopy()
		dropDisabledFields(&again.Spec, again.Annotations, DefaultFeatureGates())
		if !equality.Semantic.DeepEqual(pod, again) {
			assertSemantic(t, pod, again, "seed %d: a second drop changed the pod", seed)
			return
		}
	}
}

// randomWorkloads are one object of each kind SetObjectDefaultsWorkload handles, filled at random.
func randomWorkloads(seed int64) []runtime.Object {
	qs := []string{"0", "1", "100m", "1.5", "100Mi", "0.0001"}
	f := randfill.NewWithSeed(seed).NilChance(0.4).NumElements(0, 2).Funcs(
		func(q *resource.Quantity, c randfill.Continue) { *q = resource.MustParse(qs[c.Intn(len(qs))]) },
		func(tm *metav1.Time, c randfill.Continue) { *tm = metav1.Time{} },
		func(s *string, c randfill.Continue) {
			*s = []string{"", "", "a", "RollingUpdate", "OnDelete", "25%"}[c.Intn(6)]
		},
		func(m *map[string]string, c randfill.Continue) {
			if c.Intn(3) == 0 {
				*m = nil
				return
			}
			*m = map[string]string{"app": "web"}
		},
	)
	objs := []runtime.Object{&appsv1.Deployment{}, &appsv1.ReplicaSet{}, &appsv1.StatefulSet{}, &appsv1.DaemonSet{},
		&batchv1.Job{}, &batchv1.CronJob{}, &v1.ReplicationController{}, &v1.PodTemplate{}}
	for _, o := range objs {
		f.Fill(o)
	}
	return objs
}

// TestWorkloadsOnRandomObjects checks on random workloads that SetObjectDefaultsWorkload applied
// twice gives what it gives once, and that preparing them for create does not fail.
func TestWorkloadsOnRandomObjects(t *testing.T) {
	for seed := int64(0); seed < 100; seed++ {
		for _, obj := range randomWorkloads(seed) {
			SetObjectDefaultsWorkload(obj)
			twice := obj.DeepCopyObject()
			SetObjectDefaultsWorkload(twice)
			if !equality.Semantic.DeepEqual(obj, twice) {
				assertSemantic(t, obj, twice, "seed %d: %T defaulted twice differs from once", seed, obj)
				return
			}
			PrepareWorkloadForCreate(obj)
		}
	}
}
