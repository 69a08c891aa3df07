package defaults

import (
	"strings"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PrepareForCreate applies to pod what the v1.37 API server's pod create strategy
// (pkg/registry/core/pod podStrategy.PrepareForCreate) applies after mutating admission and before
// validation, in its order:
//   - metadata.generation becomes 1 and the status is replaced by {phase: Pending};
//   - the fields the gates leave out are dropped (pkg/api/pod DropDisabledPodFields for a pod
//     with no previous version; the package documentation lists them);
//   - a pod with scheduling gates gets the condition PodScheduled False, reason
//     SchedulingGated (its lastTransitionTime is the pod's creationTimestamp, where the API
//     server takes its clock a moment later);
//   - the pod's labels named by matchLabelKeys and mismatchLabelKeys of pod affinity and
//     anti-affinity terms, and by matchLabelKeys of topology spread constraints, are merged into
//     their labelSelector as In (NotIn for mismatchLabelKeys) expressions;
//   - a container's deprecated AppArmor annotation becomes its securityContext.appArmorProfile
//     when it has none and the annotation is valid and differs from the pod's profile (not on a
//     Windows pod);
//   - pod-level resources are defaulted (DefaultPodLevelResources, with PodLevelResources and
//     PodLevelResourcesFixDefaulting on);
//   - status.qosClass is the QoS class the API server computes.
//
// Call it once, on a pod being created, after SetObjectDefaultsPod and admission (the labels it
// merges into selectors include those admission adds), then validate the result: the API
// server's validation sees the pod as PrepareForCreate leaves it. A pod read back from a cluster
// has passed it already; a second pass would repeat the merged selector expressions. Gates come
// from WithFeatureGates (DefaultFeatureGates when not given); ObjectDefaultsOnly is ignored. A
// nil pod is left alone.
func PrepareForCreate(pod *v1.Pod, opts ...Option) {
	if pod == nil {
		return
	}
	gates := newSettings(opts).gates

	pod.Generation = 1
	pod.Status = v1.PodStatus{Phase: v1.PodPending}
	dropDisabledFields(&pod.Spec, pod.Annotations, gates)
	addSchedulingGatedCondition(pod)
	mergePodAffinityLabelKeys(pod)
	if gates.MatchLabelKeysInPodTopologySpread && gates.MatchLabelKeysInPodTopologySpreadSelectorMerge {
		mergeTopologySpreadLabelKeys(pod)
	}
	appArmorFieldsFromAnnotations(pod)
	if gates.PodLevelResources && gates.PodLevelResourcesFixDefaulting {
		DefaultPodLevelResources(pod)
	}
	pod.Status.QOSClass = podQOS(pod, gates)
}

// addSchedulingGatedCondition mirrors applySchedulingGatedCondition on a fresh status: a gated pod
// says why it is not scheduled.
func addSchedulingGatedCondition(pod *v1.Pod) {
	if len(pod.Spec.SchedulingGates) == 0 {
		return
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == v1.PodScheduled {
			return
		}
	}
	pod.Status.Conditions = append(pod.Status.Conditions, v1.PodCondition{
		Type:               v1.PodScheduled,
		Status:             v1.ConditionFalse,
		Reason:             v1.PodReasonSchedulingGated,
		Message:            "Scheduling is blocked due to non-empty scheduling gates",
		LastTransitionTime: pod.CreationTimestamp,
	})
}

// mergePodAffinityLabelKeys mirrors mutatePodAffinity (gate MatchLabelKeysInPodAffinity, locked
// on): each term's matchLabelKeys and mismatchLabelKeys become expressions of its labelSelector,
// preferred terms before required ones, affinity before anti-affinity.
func mergePodAffinityLabelKeys(pod *v1.Pod) {
	a := pod.Spec.Affinity
	if a == nil {
		return
	}
	if pa := a.PodAffinity; pa != nil {
		mergeAffinityTerms(pa.PreferredDuringSchedulingIgnoredDuringExecution, pa.RequiredDuringSchedulingIgnoredDuringExecution, pod.Labels)
	}
	if pa := a.PodAntiAffinity; pa != nil {
		mergeAffinityTerms(pa.PreferredDuringSchedulingIgnoredDuringExecution, pa.RequiredDuringSchedulingIgnoredDuringExecution, pod.Labels)
	}
}

func mergeAffinityTerms(preferred []v1.WeightedPodAffinityTerm, required []v1.PodAffinityTerm, labels map[string]string) {
	for i := range preferred {
		mergeAffinityTerm(&preferred[i].PodAffinityTerm, labels)
	}
	for i := range required {
		mergeAffinityTerm(&required[i], labels)
	}
}

// mergeAffinityTerm leaves a term with no labelSelector alone: it selects nothing, and keys
// cannot widen it.
func mergeAffinityTerm(term *v1.PodAffinityTerm, labels map[string]string) {
	if term.LabelSelector == nil {
		return
	}
	appendLabelKeyExpressions(term.LabelSelector, term.MatchLabelKeys, metav1.LabelSelectorOpIn, labels)
	appendLabelKeyExpressions(term.LabelSelector, term.MismatchLabelKeys, metav1.LabelSelectorOpNotIn, labels)
}

// mergeTopologySpreadLabelKeys mirrors mutateTopologySpreadConstraints.
func mergeTopologySpreadLabelKeys(pod *v1.Pod) {
	for i := range pod.Spec.TopologySpreadConstraints {
		c := &pod.Spec.TopologySpreadConstraints[i]
		if c.LabelSelector != nil {
			appendLabelKeyExpressions(c.LabelSelector, c.MatchLabelKeys, metav1.LabelSelectorOpIn, pod.Labels)
		}
	}
}

// appendLabelKeyExpressions mirrors applyLabelKeysToLabelSelector: each key the pod has a label
// for becomes "key op (value)"; a key the pod lacks adds nothing.
func appendLabelKeyExpressions(sel *metav1.LabelSelector, keys []string, op metav1.LabelSelectorOperator, labels map[string]string) {
	for _, key := range keys {
		if value, ok := labels[key]; ok {
			sel.MatchExpressions = append(sel.MatchExpressions, metav1.LabelSelectorRequirement{Key: key, Operator: op, Values: []string{value}})
		}
	}
}

// Deprecated AppArmor annotation: its key prefix (followed by a container name) and values.
const (
	appArmorAnnotationPrefix  = "container.apparmor.security.beta.kubernetes.io/"
	appArmorRuntimeDefault    = "runtime/default"
	appArmorUnconfined        = "unconfined"
	appArmorLocalhostPrefix   = "localhost/"
	maxLocalhostProfileLength = 4095 // PATH_MAX - 1, as the API server's validation allows
)

// appArmorFieldsFromAnnotations mirrors applyAppArmorVersionSkew: the annotation of a container
// with no profile field becomes its field, unless the pod-level profile already says the same.
// An annotation that gives no valid profile is left for validation to judge.
func appArmorFieldsFromAnnotations(pod *v1.Pod) {
	if pod.Spec.OS != nil && pod.Spec.OS.Name == v1.Windows {
		return
	}
	var podProfile *v1.AppArmorProfile
	if pod.Spec.SecurityContext != nil {
		podProfile = pod.Spec.SecurityContext.AppArmorProfile
	}
	visitContainers(&pod.Spec, func(c *v1.Container) {
		value, ok := pod.Annotations[appArmorAnnotationPrefix+c.Name]
		if !ok || (c.SecurityContext != nil && c.SecurityContext.AppArmorProfile != nil) {
			return
		}
		profile := appArmorProfileForAnnotation(value)
		if profile == nil || sameAppArmorProfile(profile, podProfile) {
			return
		}
		if c.SecurityContext == nil {
			c.SecurityContext = &v1.SecurityContext{}
		}
		c.SecurityContext.AppArmorProfile = profile
	})
}

// appArmorProfileForAnnotation is the field an annotation value stands for (ApparmorFieldForAnnotation),
// or nil when it stands for none the API server's validation of the field would accept.
func appArmorProfileForAnnotation(value string) *v1.AppArmorProfile {
	switch value {
	case appArmorUnconfined:
		return &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeUnconfined}
	case appArmorRuntimeDefault:
		return &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeRuntimeDefault}
	}
	name, ok := strings.CutPrefix(value, appArmorLocalhostPrefix)
	if !ok || name == "" || strings.TrimSpace(name) != name || len(name) > maxLocalhostProfileLength {
		return nil
	}
	return &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeLocalhost, LocalhostProfile: &name}
}

func sameAppArmorProfile(a, b *v1.AppArmorProfile) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Type != b.Type {
		return false
	}
	if a.LocalhostProfile == nil || b.LocalhostProfile == nil {
		return a.LocalhostProfile == b.LocalhostProfile
	}
	return *a.LocalhostProfile == *b.LocalhostProfile
}

// visitContainers calls f with every init, regular and ephemeral container of spec, in that order.
func visitContainers(spec *v1.PodSpec, f func(*v1.Container)) {
	for i := range spec.InitContainers {
		f(&spec.InitContainers[i])
	}
	for i := range spec.Containers {
		f(&spec.Containers[i])
	}
	for i := range spec.EphemeralContainers {
		f((*v1.Container)(&spec.EphemeralContainers[i].EphemeralContainerCommon))
	}
}
