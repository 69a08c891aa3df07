package admission

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// The quantities the random LimitRanges and pods draw from: around MaxMilliValue, past int64,
// negative, and below a thousandth, where the API server's comparisons change precision or
// overflow.
var indexQuantities = []string{
	"0", "1", "-1", "2", "4", "100m", "500m", "0.5", "-0.5", "-1.5", "1n", "-1n", "1Gi", "2Gi",
	"1E", "4E", "9300000000000000", "-9300000000000000", "9223372036854775807", "9223372036854775",
	"9223372036854776", "1e19",
}

var indexResources = []v1.ResourceName{v1.ResourceCPU, v1.ResourceMemory, "example.com/gpu"}

func randomList(r *rand.Rand, p float64) v1.ResourceList {
	var l v1.ResourceList
	for _, name := range indexResources {
		if r.Float64() < p {
			if l == nil {
				l = v1.ResourceList{}
			}
			l[name] = resource.MustParse(indexQuantities[r.IntN(len(indexQuantities))])
		}
	}
	return l
}

func randomLimitRanges(r *rand.Rand) []*v1.LimitRange {
	out := make([]*v1.LimitRange, 1+r.IntN(6))
	for i := range out {
		lr := &v1.LimitRange{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("lr-%d", r.IntN(4)), Namespace: "ns"}}
		for range 1 + r.IntN(2) {
			item := v1.LimitRangeItem{Type: v1.LimitTypeContainer}
			if r.IntN(3) == 0 {
				item.Type = v1.LimitTypePod
			}
			item.Min, item.Max, item.MaxLimitRequestRatio = randomList(r, 0.1), randomList(r, 0.1), randomList(r, 0.05)
			item.Default, item.DefaultRequest = randomList(r, 0.3), randomList(r, 0.3)
			lr.Spec.Limits = append(lr.Spec.Limits, item)
		}
		out[i] = lr
	}
	return out
}

func randomIndexPod(r *rand.Rand) *v1.Pod {
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}}
	for i := range 1 + r.IntN(3) {
		pod.Spec.Containers = append(pod.Spec.Containers, v1.Container{Name: fmt.Sprintf("c%d", i),
			Resources: v1.ResourceRequirements{Requests: randomList(r, 0.4), Limits: randomList(r, 0.4)}})
	}
	for i := range r.IntN(3) {
		c := v1.Container{Name: fmt.Sprintf("i%d", i),
			Resources: v1.ResourceRequirements{Requests: randomList(r, 0.4), Limits: randomList(r, 0.4)}}
		if r.IntN(2) == 0 {
			c.RestartPolicy = ptr.To(v1.ContainerRestartPolicyAlways)
		}
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, c)
	}
	if r.IntN(4) == 0 {
		pod.Spec.Resources = &v1.ResourceRequirements{Requests: randomList(r, 0.4), Limits: randomList(r, 0.4)}
	}
	return pod
}

// linearAdmit is the LimitRanger plugin's defaulting, one LimitRange after the other.
func linearAdmit(pod *v1.Pod, ranges []*preparedLimitRange) {
	add := func(dst *v1.ResourceList, defaults v1.ResourceList) []string {
		var set []string
		for _, k := range sortedNames(defaults) {
			if _, ok := (*dst)[k]; !ok {
				if *dst == nil {
					*dst = v1.ResourceList{}
				}
				(*dst)[k] = defaults[k].DeepCopy()
				set = append(set, string(k))
			}
		}
		return set
	}
	for _, lr := range ranges {
		var notes []string
		for _, group := range []struct {
			kind string
			cs   []v1.Container
		}{{"container", pod.Spec.Containers}, {"init container", pod.Spec.InitContainers}} {
			for i := range group.cs {
				c := &group.cs[i]
				limits := add(&c.Resources.Limits, lr.limits)
				if requests := add(&c.Resources.Requests, lr.requests); len(requests) > 0 {
					notes = append(notes, strings.Join(requests, ", ")+" request for "+group.kind+" "+c.Name)
				}
				if len(limits) > 0 {
					notes = append(notes, strings.Join(limits, ", ")+" limit for "+group.kind+" "+c.Name)
				}
			}
		}
		if len(notes) > 0 {
			if pod.Annotations == nil {
				pod.Annotations = map[string]string{}
			}
			pod.Annotations[LimitRangerAnnotation] = "LimitRanger plugin set: " + strings.Join(notes, "; ")
		}
	}
}

// The index gives what running every LimitRange on the pod in turn gives: the same defaults and
// annotation, and the first LimitRange to refuse the pod, on random LimitRanges and pods whose
// quantities sit around the precision and overflow edges of the API server's comparisons.
func TestNamespaceLimitsIsEveryLimitRangeInTurn(t *testing.T) {
	refused, refusedLater := 0, 0
	for i := range 4000 {
		r := rand.New(rand.NewPCG(uint64(i), 7))
		ranges := randomLimitRanges(r)
		p := Prepare(&Objects{LimitRanges: ranges})
		nl := p.limitRanges["ns"]
		require.NotNil(t, nl)
		for _, podLevel := range []bool{false, true} {
			pod := randomIndexPod(r)
			want := pod.DeepCopy()
			linearAdmit(want, nl.ranges)
			a := &admitter{pod: pod, objs: p}
			require.NoError(t, a.limitRangerAdmit())
			require.Equal(t, want, pod, "case %d: defaults", i)

			wantPos := noRefusal
			for pos, lr := range nl.ranges {
				if len(lr.check(pod, podLevel)) > 0 {
					wantPos = pos
					break
				}
			}
			if wantPos != noRefusal {
				refused++
			}
			if wantPos != noRefusal && wantPos > 0 {
				refusedLater++
			}
			require.Equal(t, wantPos, nl.firstRefusal(pod, podLevel), "case %d (pod-level resources %v): the first LimitRange to refuse", i, podLevel)
		}
	}
	t.Logf("%d of 8000 pods refused, %d by a LimitRange after the first", refused, refusedLater)
	assert.Greater(t, refused, 1000, "the random pods exercise refusals")
	assert.Greater(t, refusedLater, 500, "the random pods exercise refusals by later LimitRanges")
	assert.Less(t, refused, 7000, "the random pods exercise admissions")
}

// A namespace's defaults come each from the first LimitRange in name order that gives it, and
// the constraints are indexed in the order of the first LimitRange that names them.
func TestNamespaceLimitsOrder(t *testing.T) {
	lr := func(name string, item v1.LimitRangeItem) *v1.LimitRange {
		return &v1.LimitRange{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: v1.LimitRangeSpec{Limits: []v1.LimitRangeItem{item}}}
	}
	q := resource.MustParse
	nl := newNamespaceLimits([]*v1.LimitRange{
		lr("a", v1.LimitRangeItem{Type: v1.LimitTypeContainer, Default: v1.ResourceList{v1.ResourceMemory: q("1Gi")}}),
		lr("b", v1.LimitRangeItem{Type: v1.LimitTypeContainer, Max: v1.ResourceList{v1.ResourceMemory: q("2Gi"), v1.ResourceCPU: q("2")}}),
		lr("c", v1.LimitRangeItem{Type: v1.LimitTypePod, Max: v1.ResourceList{v1.ResourceCPU: q("8")}}),
	})
	assert.Equal(t, []rangeDefault{{name: v1.ResourceCPU, pos: 1, q: q("2")}, {name: v1.ResourceMemory, pos: 0, q: q("1Gi")}}, nl.limits)
	assert.Equal(t, []rangeDefault{{name: v1.ResourceCPU, pos: 1, q: q("2")}, {name: v1.ResourceMemory, pos: 0, q: q("1Gi")}}, nl.requests)
	names := func(list []*resourceConstraint) []string {
		var out []string
		for _, rc := range list {
			out = append(out, fmt.Sprintf("%s@%d", rc.name, rc.first))
		}
		slices.Sort(out)
		return out
	}
	assert.Equal(t, []string{"cpu@1", "memory@1"}, names(nl.container.max))
	assert.Equal(t, []string{"cpu@2"}, names(nl.pod.max))
	assert.Empty(t, nl.container.min)
}
