package admission_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/admission"
)

// manyLimitRanges are n LimitRanges of namespace ns, each giving a container default cpu and
// memory and capping its memory.
func manyLimitRanges(ns string, n int) []*v1.LimitRange {
	out := make([]*v1.LimitRange, n)
	for i := range out {
		out[i] = limitRange(fmt.Sprintf("limits-%04d", i), ns, v1.LimitRangeItem{Type: v1.LimitTypeContainer,
			Default:        v1.ResourceList{v1.ResourceCPU: q("500m"), v1.ResourceMemory: q("256Mi")},
			DefaultRequest: v1.ResourceList{v1.ResourceCPU: q("100m"), v1.ResourceMemory: q("128Mi")},
			Max:            v1.ResourceList{v1.ResourceMemory: q("1Gi")}})
	}
	return out
}

// A pod admitted against prepared objects costs its own containers and resources, not a copy of
// every LimitRange, nor a pass over them: the allocations of one Admit are the same with one
// LimitRange as with a thousand, or a thousand in other namespaces besides (give or take one, a
// collection's during the runs).
func TestPreparedAdmitDoesNotCopyTheObjects(t *testing.T) {
	other := manyLimitRanges("other", 1000)
	cases := []struct {
		name   string
		ranges []*v1.LimitRange
	}{
		{name: "a thousand LimitRanges of the pod's namespace", ranges: manyLimitRanges("ns", 1000)},
		{name: "a thousand LimitRanges of another namespace", ranges: append(manyLimitRanges("ns", 1), other...)},
	}
	allocs := func(ranges []*v1.LimitRange) float64 {
		p := admission.Prepare(&admission.Objects{LimitRanges: ranges})
		pod := newPod()
		return testing.AllocsPerRun(100, func() {
			if err := p.Admit(pod.DeepCopy()); err != nil {
				t.Fatal(err)
			}
		})
	}
	base := allocs(manyLimitRanges("ns", 1))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.InDelta(t, base, allocs(tc.ranges), 1, "allocations of one Admit with one LimitRange of its namespace")
		})
	}
}

// Prepared.Admit and Admit give the same pod, and each finds the objects the pod names among
// many, the first of a duplicate name winning, as the raw objects' search did.
func TestPreparedAdmitIsAdmit(t *testing.T) {
	objs := &admission.Objects{
		LimitRanges: append(manyLimitRanges("other", 3), manyLimitRanges("ns", 3)...),
		ServiceAccounts: []*v1.ServiceAccount{
			{ObjectMeta: metav1.ObjectMeta{Name: "robot", Namespace: "other"}},
			{ObjectMeta: metav1.ObjectMeta{Name: "robot", Namespace: "ns"}, ImagePullSecrets: []v1.LocalObjectReference{{Name: "first"}}},
			{ObjectMeta: metav1.ObjectMeta{Name: "robot", Namespace: "ns"}, ImagePullSecrets: []v1.LocalObjectReference{{Name: "second"}}},
		},
		PriorityClasses: []*schedulingv1.PriorityClass{
			{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Value: 10},
			{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Value: 20},
		},
		RuntimeClasses: []*nodev1.RuntimeClass{
			{ObjectMeta: metav1.ObjectMeta{Name: "kata"}, Handler: "kata", Scheduling: &nodev1.Scheduling{NodeSelector: map[string]string{"rt": "first"}}},
			{ObjectMeta: metav1.ObjectMeta{Name: "kata"}, Handler: "kata", Scheduling: &nodev1.Scheduling{NodeSelector: map[string]string{"rt": "second"}}},
		},
		Nodes: []*v1.Node{
			{ObjectMeta: metav1.ObjectMeta{Name: "node-a", Labels: map[string]string{"topology.kubernetes.io/zone": "first"}}},
			{ObjectMeta: metav1.ObjectMeta{Name: "node-a", Labels: map[string]string{"topology.kubernetes.io/zone": "second"}}},
		},
	}
	pod := func() *v1.Pod {
		return newPod(func(p *v1.Pod) {
			p.Spec.ServiceAccountName = "robot"
			p.Spec.PriorityClassName = "web"
			p.Spec.RuntimeClassName = ptrTo("kata")
			p.Spec.NodeName = "node-a"
		})
	}
	viaAdmit, viaPrepared := pod(), pod()
	require.NoError(t, admission.Admit(viaAdmit, objs))
	require.NoError(t, admission.Prepare(objs).Admit(viaPrepared))
	assert.Equal(t, viaAdmit, viaPrepared)
	assert.Equal(t, []v1.LocalObjectReference{{Name: "first"}}, viaPrepared.Spec.ImagePullSecrets)
	assert.Equal(t, int32(10), *viaPrepared.Spec.Priority)
	assert.Equal(t, map[string]string{"rt": "first"}, viaPrepared.Spec.NodeSelector)
	assert.Equal(t, "first", viaPrepared.Labels["topology.kubernetes.io/zone"])
	assert.Equal(t, "LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app; "+
		"cpu, memory request for init container setup; cpu, memory limit for init container setup",
		viaPrepared.Annotations[admission.LimitRangerAnnotation])
}

func ptrTo[T any](v T) *T { return &v }

// BenchmarkPreparedAdmitManyLimitRanges admits 2,000 pods in a namespace of 2,000 LimitRanges,
// preparing the objects once: the whole of it per op.
func BenchmarkPreparedAdmitManyLimitRanges(b *testing.B) {
	const pods = 2000
	objs := &admission.Objects{LimitRanges: manyLimitRanges("ns", 2000)}
	pod := newPod()
	b.ReportAllocs()
	for b.Loop() {
		p := admission.Prepare(objs)
		for range pods {
			if err := p.Admit(pod.DeepCopy()); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// One Prepared admits pods from many goroutines at once, each getting what Admit alone gives it
// (run with -race).
func TestPreparedAdmitIsSafeForConcurrentUse(t *testing.T) {
	objs := &admission.Objects{LimitRanges: append(manyLimitRanges("ns", 50), limitRange("zz-floor", "ns",
		v1.LimitRangeItem{Type: v1.LimitTypeContainer, Min: v1.ResourceList{v1.ResourceCPU: q("200m")}}))}
	want := newPod()
	wantErr := admission.Admit(want, objs)
	require.EqualError(t, wantErr, `pods "web" is forbidden: minimum cpu usage per Container is 200m, but request is 100m`)
	p := admission.Prepare(objs)
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			var err error
			for range 50 {
				if err = p.Admit(newPod()); err == nil || err.Error() != wantErr.Error() {
					break
				}
			}
			errs <- err
		}()
	}
	for range 8 {
		assert.EqualError(t, <-errs, wantErr.Error())
	}
}
