package defaults

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// createdPod is a pod with one container, as PrepareForCreate would leave it with nothing to
// do, after edit has changed it.
func createdPod(edit func(*v1.Pod)) *v1.Pod {
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Labels: map[string]string{"app": "web", "tier": "front"}},
		Spec:       v1.PodSpec{Containers: []v1.Container{{Name: "app", Image: "nginx:1.27"}}},
		Status:     v1.PodStatus{Phase: v1.PodPending, QOSClass: v1.PodQOSBestEffort},
	}
	pod.Generation = 1
	if edit != nil {
		edit(pod)
	}
	return pod
}

func selector(match map[string]string, exprs ...metav1.LabelSelectorRequirement) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: match, MatchExpressions: exprs}
}

func in(key, value string) metav1.LabelSelectorRequirement {
	return metav1.LabelSelectorRequirement{Key: key, Operator: metav1.LabelSelectorOpIn, Values: []string{value}}
}

func notIn(key, value string) metav1.LabelSelectorRequirement {
	return metav1.LabelSelectorRequirement{Key: key, Operator: metav1.LabelSelectorOpNotIn, Values: []string{value}}
}

func TestPrepareForCreate(t *testing.T) {
	created := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	cpuMem := func(cpu, mem string) v1.ResourceList {
		return v1.ResourceList{v1.ResourceCPU: resourceMust(cpu), v1.ResourceMemory: resourceMust(mem)}
	}
	tests := []struct {
		name  string
		opts  []Option
		input func(*v1.Pod)
		want  func(*v1.Pod)
	}{
		{"an already prepared pod is unchanged", nil, nil, nil},
		{"generation becomes 1 and the status only phase Pending and the QoS class",
			nil,
			func(p *v1.Pod) {
				p.Generation = 7
				p.Status = v1.PodStatus{Phase: v1.PodRunning, PodIP: "10.0.0.1", PodIPs: []v1.PodIP{{IP: "10.0.0.1"}},
					QOSClass: v1.PodQOSGuaranteed, Conditions: []v1.PodCondition{{Type: v1.PodReady, Status: v1.ConditionTrue}}}
			},
			nil},
		{"a pod with scheduling gates is PodScheduled False, SchedulingGated, since its creation",
			nil,
			func(p *v1.Pod) {
				p.CreationTimestamp = created
				p.Spec.SchedulingGates = []v1.PodSchedulingGate{{Name: "example.com/wait"}}
				p.Status.Conditions = []v1.PodCondition{{Type: v1.PodScheduled, Status: v1.ConditionTrue}}
			},
			func(p *v1.Pod) {
				p.CreationTimestamp = created
				p.Spec.SchedulingGates = []v1.PodSchedulingGate{{Name: "example.com/wait"}}
				p.Status.Conditions = []v1.PodCondition{{Type: v1.PodScheduled, Status: v1.ConditionFalse, Reason: "SchedulingGated",
					Message: "Scheduling is blocked due to non-empty scheduling gates", LastTransitionTime: created}}
			}},
		{"pod affinity matchLabelKeys and mismatchLabelKeys become In and NotIn expressions of the pod's labels, a key it lacks none",
			nil,
			func(p *v1.Pod) {
				p.Spec.Affinity = &v1.Affinity{PodAffinity: &v1.PodAffinity{
					RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{{
						LabelSelector: selector(map[string]string{"x": "y"}), TopologyKey: "zone",
						MatchLabelKeys: []string{"app", "missing"}, MismatchLabelKeys: []string{"tier"}}},
				}}
			},
			func(p *v1.Pod) {
				p.Spec.Affinity = &v1.Affinity{PodAffinity: &v1.PodAffinity{
					RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{{
						LabelSelector: selector(map[string]string{"x": "y"}, in("app", "web"), notIn("tier", "front")), TopologyKey: "zone",
						MatchLabelKeys: []string{"app", "missing"}, MismatchLabelKeys: []string{"tier"}}},
				}}
			}},
		{"preferred anti-affinity terms merge their keys, a term with no labelSelector stays without one",
			nil,
			func(p *v1.Pod) {
				p.Spec.Affinity = &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{
					PreferredDuringSchedulingIgnoredDuringExecution: []v1.WeightedPodAffinityTerm{
						{Weight: 1, PodAffinityTerm: v1.PodAffinityTerm{LabelSelector: selector(nil), TopologyKey: "host", MatchLabelKeys: []string{"app"}}},
						{Weight: 2, PodAffinityTerm: v1.PodAffinityTerm{TopologyKey: "host", MatchLabelKeys: []string{"app"}}},
					},
				}}
			},
			func(p *v1.Pod) {
				p.Spec.Affinity = &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{
					PreferredDuringSchedulingIgnoredDuringExecution: []v1.WeightedPodAffinityTerm{
						{Weight: 1, PodAffinityTerm: v1.PodAffinityTerm{LabelSelector: selector(nil, in("app", "web")), TopologyKey: "host", MatchLabelKeys: []string{"app"}}},
						{Weight: 2, PodAffinityTerm: v1.PodAffinityTerm{TopologyKey: "host", MatchLabelKeys: []string{"app"}}},
					},
				}}
			}},
		{"topology spread matchLabelKeys become In expressions of the pod's labels",
			nil,
			func(p *v1.Pod) {
				p.Spec.TopologySpreadConstraints = []v1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "zone",
					WhenUnsatisfiable: v1.DoNotSchedule, LabelSelector: selector(map[string]string{"app": "web"}), MatchLabelKeys: []string{"tier"}}}
			},
			func(p *v1.Pod) {
				p.Spec.TopologySpreadConstraints = []v1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "zone",
					WhenUnsatisfiable: v1.DoNotSchedule, LabelSelector: selector(map[string]string{"app": "web"}, in("tier", "front")), MatchLabelKeys: []string{"tier"}}}
			}},
		{"without MatchLabelKeysInPodTopologySpreadSelectorMerge topology spread keys stay out of the selector",
			gatesWith(func(g *FeatureGates) { g.MatchLabelKeysInPodTopologySpreadSelectorMerge = false }),
			func(p *v1.Pod) {
				p.Spec.TopologySpreadConstraints = []v1.TopologySpreadConstraint{{LabelSelector: selector(nil), MatchLabelKeys: []string{"tier"}}}
			},
			func(p *v1.Pod) {
				p.Spec.TopologySpreadConstraints = []v1.TopologySpreadConstraint{{LabelSelector: selector(nil), MatchLabelKeys: []string{"tier"}}}
			}},
		{"without MatchLabelKeysInPodTopologySpread topology spread matchLabelKeys are dropped and not merged",
			gatesWith(func(g *FeatureGates) { g.MatchLabelKeysInPodTopologySpread = false }),
			func(p *v1.Pod) {
				p.Spec.TopologySpreadConstraints = []v1.TopologySpreadConstraint{{LabelSelector: selector(nil), MatchLabelKeys: []string{"tier"}}}
			},
			func(p *v1.Pod) {
				p.Spec.TopologySpreadConstraints = []v1.TopologySpreadConstraint{{LabelSelector: selector(nil)}}
			}},
		{"a container's AppArmor annotation becomes its profile field when it has none",
			nil,
			func(p *v1.Pod) {
				p.Annotations = map[string]string{
					appArmorAnnotationPrefix + "app":  "runtime/default",
					appArmorAnnotationPrefix + "init": "localhost/my-profile",
					appArmorAnnotationPrefix + "dbg":  "unconfined",
					appArmorAnnotationPrefix + "gone": "unconfined",
				}
				p.Spec.InitContainers = []v1.Container{{Name: "init", Image: "busybox"}}
				p.Spec.EphemeralContainers = []v1.EphemeralContainer{{EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: "dbg", Image: "busybox"}}}
			},
			func(p *v1.Pod) {
				p.Annotations = map[string]string{
					appArmorAnnotationPrefix + "app":  "runtime/default",
					appArmorAnnotationPrefix + "init": "localhost/my-profile",
					appArmorAnnotationPrefix + "dbg":  "unconfined",
					appArmorAnnotationPrefix + "gone": "unconfined",
				}
				p.Spec.Containers[0].SecurityContext = &v1.SecurityContext{AppArmorProfile: &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeRuntimeDefault}}
				p.Spec.InitContainers = []v1.Container{{Name: "init", Image: "busybox", SecurityContext: &v1.SecurityContext{
					AppArmorProfile: &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeLocalhost, LocalhostProfile: ptr.To("my-profile")}}}}
				p.Spec.EphemeralContainers = []v1.EphemeralContainer{{EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: "dbg", Image: "busybox",
					SecurityContext: &v1.SecurityContext{AppArmorProfile: &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeUnconfined}}}}}
			}},
		{"an AppArmor annotation the container's own field or the pod's equal profile covers adds nothing",
			nil,
			func(p *v1.Pod) {
				p.Annotations = map[string]string{appArmorAnnotationPrefix + "app": "runtime/default", appArmorAnnotationPrefix + "side": "localhost/x"}
				p.Spec.SecurityContext = &v1.PodSecurityContext{AppArmorProfile: &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeRuntimeDefault}}
				p.Spec.Containers = append(p.Spec.Containers, v1.Container{Name: "side", Image: "busybox",
					SecurityContext: &v1.SecurityContext{AppArmorProfile: &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeUnconfined}}})
			},
			func(p *v1.Pod) {
				p.Annotations = map[string]string{appArmorAnnotationPrefix + "app": "runtime/default", appArmorAnnotationPrefix + "side": "localhost/x"}
				p.Spec.SecurityContext = &v1.PodSecurityContext{AppArmorProfile: &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeRuntimeDefault}}
				p.Spec.Containers = append(p.Spec.Containers, v1.Container{Name: "side", Image: "busybox",
					SecurityContext: &v1.SecurityContext{AppArmorProfile: &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeUnconfined}}})
			}},
		{"an AppArmor annotation whose profile validation would refuse is not copied",
			nil,
			func(p *v1.Pod) {
				p.Annotations = map[string]string{appArmorAnnotationPrefix + "app": "localhost/ padded"}
				p.Spec.Containers = append(p.Spec.Containers,
					v1.Container{Name: "b", Image: "busybox"}, v1.Container{Name: "c", Image: "busybox"}, v1.Container{Name: "d", Image: "busybox"})
				p.Annotations[appArmorAnnotationPrefix+"b"] = "localhost/"
				p.Annotations[appArmorAnnotationPrefix+"c"] = "localhost/" + strings.Repeat("p", maxLocalhostProfileLength+1)
				p.Annotations[appArmorAnnotationPrefix+"d"] = "docker-default"
			},
			func(p *v1.Pod) {
				p.Annotations = map[string]string{appArmorAnnotationPrefix + "app": "localhost/ padded"}
				p.Spec.Containers = append(p.Spec.Containers,
					v1.Container{Name: "b", Image: "busybox"}, v1.Container{Name: "c", Image: "busybox"}, v1.Container{Name: "d", Image: "busybox"})
				p.Annotations[appArmorAnnotationPrefix+"b"] = "localhost/"
				p.Annotations[appArmorAnnotationPrefix+"c"] = "localhost/" + strings.Repeat("p", maxLocalhostProfileLength+1)
				p.Annotations[appArmorAnnotationPrefix+"d"] = "docker-default"
			}},
		{"a Windows pod's AppArmor annotations are not copied",
			nil,
			func(p *v1.Pod) {
				p.Annotations = map[string]string{appArmorAnnotationPrefix + "app": "runtime/default"}
				p.Spec.OS = &v1.PodOS{Name: v1.Windows}
			},
			func(p *v1.Pod) {
				p.Annotations = map[string]string{appArmorAnnotationPrefix + "app": "runtime/default"}
				p.Spec.OS = &v1.PodOS{Name: v1.Windows}
			}},
		{"the legacy init-container annotations are removed",
			nil,
			func(p *v1.Pod) {
				p.Annotations = map[string]string{"pod.beta.kubernetes.io/init-containers": "[]", "pod.alpha.kubernetes.io/init-container-statuses": "[]", "keep": "me"}
			},
			func(p *v1.Pod) { p.Annotations = map[string]string{"keep": "me"} }},
		{"containers with equal non-zero cpu and memory requests and limits make the pod Guaranteed",
			nil,
			func(p *v1.Pod) {
				p.Spec.Containers[0].Resources = v1.ResourceRequirements{Requests: cpuMem("1", "1Gi"), Limits: cpuMem("1", "1Gi")}
				p.Status.QOSClass = ""
			},
			func(p *v1.Pod) {
				p.Spec.Containers[0].Resources = v1.ResourceRequirements{Requests: cpuMem("1", "1Gi"), Limits: cpuMem("1", "1Gi")}
				p.Status.QOSClass = v1.PodQOSGuaranteed
			}},
		{"a Guaranteed container beside a BestEffort init container makes the pod Burstable; an ephemeral container does not count",
			nil,
			func(p *v1.Pod) {
				p.Spec.Containers[0].Resources = v1.ResourceRequirements{Requests: cpuMem("1", "1Gi"), Limits: cpuMem("1", "1Gi")}
				p.Spec.InitContainers = []v1.Container{{Name: "init", Image: "busybox"}}
			},
			func(p *v1.Pod) {
				p.Spec.Containers[0].Resources = v1.ResourceRequirements{Requests: cpuMem("1", "1Gi"), Limits: cpuMem("1", "1Gi")}
				p.Spec.InitContainers = []v1.Container{{Name: "init", Image: "busybox"}}
				p.Status.QOSClass = v1.PodQOSBurstable
			}},
		{"pod-level cpu and memory decide the class, and pod-level requests are defaulted from the limits",
			nil,
			func(p *v1.Pod) { p.Spec.Resources = &v1.ResourceRequirements{Limits: cpuMem("2", "1Gi")} },
			func(p *v1.Pod) {
				p.Spec.Resources = &v1.ResourceRequirements{Limits: cpuMem("2", "1Gi"), Requests: cpuMem("2", "1Gi")}
				p.Status.QOSClass = v1.PodQOSGuaranteed
			}},
		{"pod-level resources that name no cpu, memory or hugepages leave the class to the containers",
			nil,
			func(p *v1.Pod) {
				p.Spec.Resources = &v1.ResourceRequirements{}
				p.Spec.Containers[0].Resources = v1.ResourceRequirements{Requests: cpuMem("1", "1Gi"), Limits: cpuMem("1", "1Gi")}
			},
			func(p *v1.Pod) {
				p.Spec.Resources = &v1.ResourceRequirements{}
				p.Spec.Containers[0].Resources = v1.ResourceRequirements{Requests: cpuMem("1", "1Gi"), Limits: cpuMem("1", "1Gi")}
				p.Status.QOSClass = v1.PodQOSGuaranteed
			}},
		{"without PodLevelResourcesFixKubeletQOSClass empty pod-level resources make the pod BestEffort",
			gatesWith(func(g *FeatureGates) { g.PodLevelResourcesFixKubeletQOSClass = false }),
			func(p *v1.Pod) {
				p.Spec.Resources = &v1.ResourceRequirements{}
				p.Spec.Containers[0].Resources = v1.ResourceRequirements{Requests: cpuMem("1", "1Gi"), Limits: cpuMem("1", "1Gi")}
			},
			func(p *v1.Pod) {
				p.Spec.Resources = &v1.ResourceRequirements{}
				p.Spec.Containers[0].Resources = v1.ResourceRequirements{Requests: cpuMem("1", "1Gi"), Limits: cpuMem("1", "1Gi")}
			}},
		{"without PodLevelResources pod-level resources are dropped and not defaulted",
			gatesWith(func(g *FeatureGates) { g.PodLevelResources = false }),
			func(p *v1.Pod) { p.Spec.Resources = &v1.ResourceRequirements{Limits: cpuMem("2", "1Gi")} },
			nil},
		{"without PodLevelResourcesFixDefaulting pod-level resources are not defaulted here",
			gatesWith(func(g *FeatureGates) { g.PodLevelResourcesFixDefaulting = false }),
			func(p *v1.Pod) { p.Spec.Resources = &v1.ResourceRequirements{Limits: cpuMem("2", "1Gi")} },
			func(p *v1.Pod) {
				p.Spec.Resources = &v1.ResourceRequirements{Limits: cpuMem("2", "1Gi")}
				p.Status.QOSClass = v1.PodQOSBurstable
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := createdPod(tt.input)
			PrepareForCreate(got, tt.opts...)
			assertSemantic(t, createdPod(tt.want), got)
		})
	}
}

func gatesWith(edit func(*FeatureGates)) []Option {
	g := DefaultFeatureGates()
	edit(&g)
	return []Option{WithFeatureGates(g)}
}

func TestPrepareForCreateLeavesNilAlone(t *testing.T) {
	assert.NotPanics(t, func() { PrepareForCreate(nil) })
}
