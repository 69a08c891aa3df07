package admission_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/admission"
)

func limitRange(name, ns string, items ...v1.LimitRangeItem) *v1.LimitRange {
	lr := &v1.LimitRange{Spec: v1.LimitRangeSpec{Limits: items}}
	lr.Name, lr.Namespace = name, ns
	return lr
}

func TestLimitRangerRules(t *testing.T) {
	cases := []struct {
		name           string
		pod            *v1.Pod
		ranges         []*v1.LimitRange
		wantInit       v1.ResourceRequirements
		wantApp        v1.ResourceRequirements
		wantAnnotation string
		wantErr        string
	}{
		{
			name: "default and defaultRequest fill regular and init containers, and the annotation says so",
			pod:  newPod(),
			ranges: []*v1.LimitRange{limitRange("lr", "ns", v1.LimitRangeItem{Type: v1.LimitTypeContainer,
				Default:        v1.ResourceList{v1.ResourceCPU: q("500m"), v1.ResourceMemory: q("256Mi")},
				DefaultRequest: v1.ResourceList{v1.ResourceCPU: q("100m"), v1.ResourceMemory: q("128Mi")}})},
			wantApp: v1.ResourceRequirements{
				Limits:   v1.ResourceList{v1.ResourceCPU: q("500m"), v1.ResourceMemory: q("256Mi")},
				Requests: v1.ResourceList{v1.ResourceCPU: q("100m"), v1.ResourceMemory: q("128Mi")}},
			wantInit: v1.ResourceRequirements{
				Limits:   v1.ResourceList{v1.ResourceCPU: q("500m"), v1.ResourceMemory: q("256Mi")},
				Requests: v1.ResourceList{v1.ResourceCPU: q("100m"), v1.ResourceMemory: q("128Mi")}},
			wantAnnotation: "LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app; " +
				"cpu, memory request for init container setup; cpu, memory limit for init container setup",
		},
		{
			name: "a resource the container sets, even to zero, is kept",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.InitContainers = nil
				p.Spec.Containers[0].Resources = v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: q("0")}}
			}),
			ranges: []*v1.LimitRange{limitRange("lr", "ns", v1.LimitRangeItem{Type: v1.LimitTypeContainer,
				Default: v1.ResourceList{v1.ResourceCPU: q("1")}, DefaultRequest: v1.ResourceList{v1.ResourceCPU: q("200m")}})},
			wantApp: v1.ResourceRequirements{
				Limits: v1.ResourceList{v1.ResourceCPU: q("1")}, Requests: v1.ResourceList{v1.ResourceCPU: q("0")}},
			wantAnnotation: "LimitRanger plugin set: cpu limit for container app",
		},
		{
			name: "a LimitRange is defaulted as stored: max gives the default limit, which gives the default request",
			pod:  newPod(func(p *v1.Pod) { p.Spec.InitContainers = nil }),
			ranges: []*v1.LimitRange{limitRange("lr", "ns", v1.LimitRangeItem{Type: v1.LimitTypeContainer,
				Max: v1.ResourceList{v1.ResourceMemory: q("1Gi")}})},
			wantApp: v1.ResourceRequirements{
				Limits: v1.ResourceList{v1.ResourceMemory: q("1Gi")}, Requests: v1.ResourceList{v1.ResourceMemory: q("1Gi")}},
			wantAnnotation: "LimitRanger plugin set: memory request for container app; memory limit for container app",
		},
		{
			name: "min gives the default request when there is no default",
			pod:  newPod(func(p *v1.Pod) { p.Spec.InitContainers = nil }),
			ranges: []*v1.LimitRange{limitRange("lr", "ns", v1.LimitRangeItem{Type: v1.LimitTypeContainer,
				Min: v1.ResourceList{v1.ResourceCPU: q("50m")}})},
			wantApp:        v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: q("50m")}},
			wantAnnotation: "LimitRanger plugin set: cpu request for container app",
		},
		{
			name: "a LimitRange of another namespace does nothing",
			pod:  newPod(func(p *v1.Pod) { p.Spec.InitContainers = nil }),
			ranges: []*v1.LimitRange{limitRange("lr", "other", v1.LimitRangeItem{Type: v1.LimitTypeContainer,
				Default: v1.ResourceList{v1.ResourceCPU: q("1")}})},
		},
		{
			name: "Pod-type items give no defaults",
			pod:  newPod(func(p *v1.Pod) { p.Spec.InitContainers = nil }),
			ranges: []*v1.LimitRange{limitRange("lr", "ns", v1.LimitRangeItem{Type: v1.LimitTypePod,
				Max: v1.ResourceList{v1.ResourceCPU: q("4")}})},
			wantErr: `pods "web" is forbidden: maximum cpu usage per Pod is 4.  No limit is specified`,
		},
		{
			name: "the first LimitRange by name to default a resource wins; the last to set anything writes the annotation",
			pod:  newPod(func(p *v1.Pod) { p.Spec.InitContainers = nil }),
			ranges: []*v1.LimitRange{
				limitRange("b", "ns", v1.LimitRangeItem{Type: v1.LimitTypeContainer,
					Default: v1.ResourceList{v1.ResourceCPU: q("2"), v1.ResourceMemory: q("1Gi")}}),
				limitRange("a", "ns", v1.LimitRangeItem{Type: v1.LimitTypeContainer,
					Default: v1.ResourceList{v1.ResourceCPU: q("1")}}),
			},
			wantApp: v1.ResourceRequirements{
				Limits:   v1.ResourceList{v1.ResourceCPU: q("1"), v1.ResourceMemory: q("1Gi")},
				Requests: v1.ResourceList{v1.ResourceCPU: q("1"), v1.ResourceMemory: q("1Gi")}},
			wantAnnotation: "LimitRanger plugin set: memory request for container app; memory limit for container app",
		},
		{
			name: "a container under the minimum is refused",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.InitContainers = nil
				p.Spec.Containers[0].Resources.Requests = v1.ResourceList{v1.ResourceCPU: q("10m")}
			}),
			ranges: []*v1.LimitRange{limitRange("lr", "ns", v1.LimitRangeItem{Type: v1.LimitTypeContainer,
				Min: v1.ResourceList{v1.ResourceCPU: q("50m")}})},
			wantErr: `pods "web" is forbidden: minimum cpu usage per Container is 50m, but request is 10m`,
		},
		{
			name: "a container over the maximum is refused, every failure of the LimitRange together",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.Containers[0].Resources.Limits = v1.ResourceList{v1.ResourceCPU: q("2")}
				p.Spec.InitContainers[0].Resources.Limits = v1.ResourceList{v1.ResourceCPU: q("3")}
			}),
			ranges: []*v1.LimitRange{limitRange("lr", "ns", v1.LimitRangeItem{Type: v1.LimitTypeContainer,
				Max: v1.ResourceList{v1.ResourceCPU: q("1")}})},
			wantErr: `pods "web" is forbidden: [maximum cpu usage per Container is 1, but limit is 2, maximum cpu usage per Container is 1, but limit is 3]`,
		},
		{
			name: "a limit-to-request ratio over the maximum is refused",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.InitContainers = nil
				p.Spec.Containers[0].Resources = v1.ResourceRequirements{
					Limits: v1.ResourceList{v1.ResourceMemory: q("1Gi")}, Requests: v1.ResourceList{v1.ResourceMemory: q("256Mi")}}
			}),
			ranges: []*v1.LimitRange{limitRange("lr", "ns", v1.LimitRangeItem{Type: v1.LimitTypeContainer,
				MaxLimitRequestRatio: v1.ResourceList{v1.ResourceMemory: q("2")}})},
			wantErr: `pods "web" is forbidden: memory max limit to request ratio per Container is 2, but provided ratio is 4.000000`,
		},
		{
			name: "a Pod-type maximum counts every container",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.InitContainers = nil
				p.Spec.Containers = append(p.Spec.Containers, v1.Container{Name: "b", Image: "b:1"})
				p.Spec.Containers[0].Resources.Limits = v1.ResourceList{v1.ResourceCPU: q("1")}
				p.Spec.Containers[1].Resources.Limits = v1.ResourceList{v1.ResourceCPU: q("1")}
			}),
			ranges: []*v1.LimitRange{limitRange("lr", "ns", v1.LimitRangeItem{Type: v1.LimitTypePod,
				Max: v1.ResourceList{v1.ResourceCPU: q("1500m")}})},
			wantErr: `pods "web" is forbidden: maximum cpu usage per Pod is 1500m, but limit is 2`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := admission.Admit(tc.pod, &admission.Objects{LimitRanges: tc.ranges})
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantApp, tc.pod.Spec.Containers[0].Resources)
			if len(tc.pod.Spec.InitContainers) > 0 {
				assert.Equal(t, tc.wantInit, tc.pod.Spec.InitContainers[0].Resources)
			}
			assert.Equal(t, tc.wantAnnotation, tc.pod.Annotations[admission.LimitRangerAnnotation])
		})
	}
}

func TestRuntimeClassRules(t *testing.T) {
	overhead := &nodev1.Overhead{PodFixed: v1.ResourceList{v1.ResourceCPU: q("250m"), v1.ResourceMemory: q("120Mi")}}
	cases := []struct {
		name         string
		pod          *v1.Pod
		class        *nodev1.RuntimeClass
		wantOverhead v1.ResourceList
		wantSelector map[string]string
		wantTol      []v1.Toleration
		wantErr      string
	}{
		{name: "the class's overhead becomes the pod's",
			pod:          newPod(func(p *v1.Pod) { p.Spec.RuntimeClassName = ptr.To("kata") }),
			class:        &nodev1.RuntimeClass{Handler: "kata", Overhead: overhead},
			wantOverhead: overhead.PodFixed, wantTol: notReadyAndUnreachable},
		{name: "an equal overhead on the pod is admitted",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.RuntimeClassName = ptr.To("kata")
				p.Spec.Overhead = v1.ResourceList{v1.ResourceCPU: q("0.25"), v1.ResourceMemory: q("120Mi")}
			}),
			class:        &nodev1.RuntimeClass{Handler: "kata", Overhead: overhead},
			wantOverhead: overhead.PodFixed, wantTol: notReadyAndUnreachable},
		{name: "a different overhead on the pod is refused",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.RuntimeClassName = ptr.To("kata")
				p.Spec.Overhead = v1.ResourceList{v1.ResourceCPU: q("1")}
			}),
			class:   &nodev1.RuntimeClass{Handler: "kata", Overhead: overhead},
			wantErr: `pods "web" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`},
		{name: "an overhead without a class overhead is refused",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.RuntimeClassName = ptr.To("kata")
				p.Spec.Overhead = v1.ResourceList{v1.ResourceCPU: q("1")}
			}),
			class:   &nodev1.RuntimeClass{Handler: "kata"},
			wantErr: `pods "web" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead`},
		{name: "the class's nodeSelector is taken by a pod with none, and its tolerations merged after the pod's (DefaultTolerationSeconds runs first)",
			pod: newPod(func(p *v1.Pod) { p.Spec.RuntimeClassName = ptr.To("kata") }),
			class: &nodev1.RuntimeClass{Handler: "kata", Scheduling: &nodev1.Scheduling{
				NodeSelector: map[string]string{"kata": "yes"},
				Tolerations:  []v1.Toleration{{Key: "kata", Operator: v1.TolerationOpExists}}}},
			wantSelector: map[string]string{"kata": "yes"},
			wantTol:      []v1.Toleration{notReadyAndUnreachable[0], notReadyAndUnreachable[1], {Key: "kata", Operator: v1.TolerationOpExists}}},
		{name: "a class toleration that covers one of the pod's replaces it",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.RuntimeClassName = ptr.To("kata")
				p.Spec.Tolerations = []v1.Toleration{{Key: "kata", Operator: v1.TolerationOpEqual, Value: "v", Effect: v1.TaintEffectNoSchedule}}
			}),
			class: &nodev1.RuntimeClass{Handler: "kata", Scheduling: &nodev1.Scheduling{
				Tolerations: []v1.Toleration{{Key: "kata", Operator: v1.TolerationOpExists}}}},
			wantTol: []v1.Toleration{notReadyAndUnreachable[0], notReadyAndUnreachable[1], {Key: "kata", Operator: v1.TolerationOpExists}}},
		{name: "the class's nodeSelector is added to the pod's",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.RuntimeClassName = ptr.To("kata")
				p.Spec.NodeSelector = map[string]string{"disk": "ssd", "kata": "yes"}
			}),
			class: &nodev1.RuntimeClass{Handler: "kata", Scheduling: &nodev1.Scheduling{
				NodeSelector: map[string]string{"kata": "yes", "zone": "a"}}},
			wantSelector: map[string]string{"disk": "ssd", "kata": "yes", "zone": "a"}, wantTol: notReadyAndUnreachable},
		{name: "a conflicting nodeSelector is refused",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.RuntimeClassName = ptr.To("kata")
				p.Spec.NodeSelector = map[string]string{"kata": "no"}
			}),
			class: &nodev1.RuntimeClass{Handler: "kata", Scheduling: &nodev1.Scheduling{
				NodeSelector: map[string]string{"kata": "yes"}}},
			wantErr: `pods "web" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[kata] = yes; pod.spec.nodeSelector[kata] = no`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.class.Name = "kata"
			err := admission.Admit(tc.pod, &admission.Objects{RuntimeClasses: []*nodev1.RuntimeClass{tc.class}})
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantOverhead, tc.pod.Spec.Overhead)
			assert.Equal(t, tc.wantSelector, tc.pod.Spec.NodeSelector)
			assert.Equal(t, tc.wantTol, tc.pod.Spec.Tolerations)
		})
	}
}

func TestMergeTolerations(t *testing.T) {
	exists := func(key string, effect v1.TaintEffect) v1.Toleration {
		return v1.Toleration{Key: key, Operator: v1.TolerationOpExists, Effect: effect}
	}
	cases := []struct {
		name          string
		first, second []v1.Toleration
		want          []v1.Toleration
	}{
		{name: "equal tolerations keep the first", first: []v1.Toleration{exists("a", "")}, second: []v1.Toleration{exists("a", "")},
			want: []v1.Toleration{exists("a", "")}},
		{name: "an empty key with Exists covers every key", first: []v1.Toleration{exists("a", "NoSchedule")}, second: []v1.Toleration{exists("", "")},
			want: []v1.Toleration{exists("", "")}},
		{name: "an empty effect covers every effect", first: []v1.Toleration{exists("a", "NoSchedule")}, second: []v1.Toleration{exists("a", "")},
			want: []v1.Toleration{exists("a", "")}},
		{name: "a NoExecute toleration with seconds does not cover one without",
			first:  []v1.Toleration{exists("a", v1.TaintEffectNoExecute)},
			second: []v1.Toleration{{Key: "a", Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute, TolerationSeconds: ptr.To[int64](5)}},
			want:   []v1.Toleration{exists("a", v1.TaintEffectNoExecute)}},
		{name: "Equal does not cover Exists",
			first:  []v1.Toleration{exists("a", "")},
			second: []v1.Toleration{{Key: "a", Operator: v1.TolerationOpEqual, Value: "v"}},
			want:   []v1.Toleration{exists("a", "")}},
		{name: "different keys are all kept",
			first: []v1.Toleration{exists("a", "")}, second: []v1.Toleration{exists("b", "")},
			want: []v1.Toleration{exists("a", ""), exists("b", "")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, admission.MergeTolerations(tc.first, tc.second))
		})
	}
}

func TestPodLevelResourcesAreDefaultedAfterLimitRanger(t *testing.T) {
	// The pod create strategy defaults pod-level requests after admission, so they include the
	// container request a LimitRange gave.
	pod := newPod(func(p *v1.Pod) {
		p.Spec.InitContainers = nil
		p.Spec.Resources = &v1.ResourceRequirements{Limits: v1.ResourceList{v1.ResourceCPU: q("2")}}
	})
	lr := limitRange("lr", "ns", v1.LimitRangeItem{Type: v1.LimitTypeContainer,
		DefaultRequest: v1.ResourceList{v1.ResourceCPU: q("300m")}})
	require.NoError(t, admission.Admit(pod, &admission.Objects{LimitRanges: []*v1.LimitRange{lr}}))
	assert.Equal(t, v1.ResourceList{v1.ResourceCPU: q("300m")}, pod.Spec.Resources.Requests)
}

// The API server compares a quantity with a LimitRange's in thousandths only while neither is
// past resource.MaxMilliValue, and in whole units beyond: a huge limit must not slip under a
// maximum (or a huge request be taken below a minimum) through a MilliValue that overflowed.
func TestLimitRangerComparesHugeQuantitiesAsTheAPIServer(t *testing.T) {
	memory := func(requests, limits string) func(*v1.Pod) {
		return func(p *v1.Pod) {
			p.Spec.InitContainers = nil
			r := &p.Spec.Containers[0].Resources
			if requests != "" {
				r.Requests = v1.ResourceList{v1.ResourceMemory: q(requests)}
			}
			if limits != "" {
				r.Limits = v1.ResourceList{v1.ResourceMemory: q(limits)}
			}
		}
	}
	twoContainers := func(limits string) func(*v1.Pod) {
		return func(p *v1.Pod) {
			p.Spec.InitContainers = nil
			p.Spec.Containers = append(p.Spec.Containers, v1.Container{Name: "b", Image: "b:1"})
			for i := range p.Spec.Containers {
				p.Spec.Containers[i].Resources.Limits = v1.ResourceList{v1.ResourceMemory: q(limits)}
			}
		}
	}
	containerItem := func(edit func(*v1.LimitRangeItem)) *v1.LimitRange {
		item := v1.LimitRangeItem{Type: v1.LimitTypeContainer}
		edit(&item)
		return limitRange("lr", "ns", item)
	}
	maxMemory := containerItem(func(i *v1.LimitRangeItem) { i.Max = v1.ResourceList{v1.ResourceMemory: q("1Gi")} })
	minMemory := containerItem(func(i *v1.LimitRangeItem) { i.Min = v1.ResourceList{v1.ResourceMemory: q("1Gi")} })
	ratio := containerItem(func(i *v1.LimitRangeItem) { i.MaxLimitRequestRatio = v1.ResourceList{v1.ResourceMemory: q("4")} })
	podMax := limitRange("lr", "ns", v1.LimitRangeItem{Type: v1.LimitTypePod, Max: v1.ResourceList{v1.ResourceMemory: q("1Gi")}})
	podMin := limitRange("lr", "ns", v1.LimitRangeItem{Type: v1.LimitTypePod, Min: v1.ResourceList{v1.ResourceMemory: q("1Gi")}})
	cases := []struct {
		name    string
		edit    func(*v1.Pod)
		lr      *v1.LimitRange
		wantErr string
	}{
		{name: "a limit of 2Gi is over a maximum of 1Gi", edit: memory("", "2Gi"), lr: maxMemory,
			wantErr: `pods "web" is forbidden: maximum memory usage per Container is 1Gi, but limit is 2Gi`},
		{name: "a limit of 9300T, past MaxMilliValue, is over a maximum of 1Gi", edit: memory("", "9300000000000000"), lr: maxMemory,
			wantErr: `pods "web" is forbidden: maximum memory usage per Container is 1Gi, but limit is 9300T`},
		{name: "a limit of 2^63-1 is over a maximum of 1Gi", edit: memory("", "9223372036854775807"), lr: maxMemory,
			wantErr: `pods "web" is forbidden: maximum memory usage per Container is 1Gi, but limit is 9223372036854775807`},
		{name: "a limit of 1E is over a maximum of 1Gi", edit: memory("", "1E"), lr: maxMemory,
			wantErr: `pods "web" is forbidden: maximum memory usage per Container is 1Gi, but limit is 1E`},
		{name: "a request of 1E under a limit within the maximum is over it", edit: memory("1E", "1Gi"), lr: maxMemory,
			wantErr: `pods "web" is forbidden: maximum memory usage per Container is 1Gi, but request is 1E`},
		{name: "a limit past int64 is admitted, as the API server admits it: its Value is 0", edit: memory("", "1e19"), lr: maxMemory},
		{name: "a request of 9300T is not under a minimum of 1Gi", edit: memory("9300000000000000", ""), lr: minMemory},
		{name: "a request of 1E is not under a minimum of 1Gi", edit: memory("1E", ""), lr: minMemory},
		{name: "a request of 512Mi is under a minimum of 1Gi", edit: memory("512Mi", ""), lr: minMemory,
			wantErr: `pods "web" is forbidden: minimum memory usage per Container is 1Gi, but request is 512Mi`},
		{name: "a ratio of 9300T to 1Gi is over a maximum ratio of 4", edit: memory("1Gi", "9300000000000000"), lr: ratio,
			wantErr: `pods "web" is forbidden: memory max limit to request ratio per Container is 4, but provided ratio is 8661299.943924`},
		{name: "a ratio of 1E to 1 is over a maximum ratio of 4", edit: memory("1", "1E"), lr: ratio,
			wantErr: `pods "web" is forbidden: memory max limit to request ratio per Container is 4, but provided ratio is 1000000000000000000.000000`},
		{name: "a ratio of 4E to 1E is within a maximum ratio of 4", edit: memory("1E", "4E"), lr: ratio},
		{name: "two limits of 1E sum over a Pod maximum of 1Gi", edit: twoContainers("1E"), lr: podMax,
			wantErr: `pods "web" is forbidden: maximum memory usage per Pod is 1Gi, but limit is 2E`},
		{name: "two limits of 9300T sum over a Pod maximum of 1Gi", edit: twoContainers("9300000000000000"), lr: podMax,
			wantErr: `pods "web" is forbidden: maximum memory usage per Pod is 1Gi, but limit is 18600T`},
		{name: "two requests of 1E are not under a Pod minimum of 1Gi", edit: twoContainers("1E"), lr: podMin},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pod := newPod(tc.edit)
			err := admission.Admit(pod, &admission.Objects{LimitRanges: []*v1.LimitRange{tc.lr}})
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
		})
	}
}
