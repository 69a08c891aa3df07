package validation

// The label selectors the API server's pod create strategy builds from matchLabelKeys and
// mismatchLabelKeys before it validates a pod.

import (
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// mergeLabelKeysForCreate returns pod as the API server's pod create strategy leaves its scheduling
// selectors before validation (PrepareForCreate's mutatePodAffinity and
// mutateTopologySpreadConstraints, gates MatchLabelKeysInPodAffinity, MatchLabelKeysInPodTopologySpread
// and MatchLabelKeysInPodTopologySpreadSelectorMerge, all on in v1.37): each pod (anti-)affinity
// term and each topology spread constraint that has a label selector gets, for every
// matchLabelKeys key the pod has a label for, the requirement key In (the pod's value), and for
// every mismatchLabelKeys key of an affinity term, key NotIn (the value), appended to its
// matchExpressions. validateMatchLabelKeys then sees a key named both in matchLabelKeys and in the
// selector twice, as the API server does.
//
// pod is not changed: a pod that gains a requirement is returned as a copy whose affinity and
// constraints are its own; one that gains none is returned as it is. Apply it once, to a pod being
// created: a pod read back from a cluster already holds the merged requirements.
func mergeLabelKeysForCreate(pod *v1.Pod) *v1.Pod {
	if pod == nil || !needsLabelKeyMerge(&pod.Spec, pod.Labels) {
		return pod
	}
	out := *pod
	out.Spec.Affinity = pod.Spec.Affinity.DeepCopy()
	if pod.Spec.TopologySpreadConstraints != nil {
		out.Spec.TopologySpreadConstraints = make([]v1.TopologySpreadConstraint, len(pod.Spec.TopologySpreadConstraints))
		for i := range pod.Spec.TopologySpreadConstraints {
			pod.Spec.TopologySpreadConstraints[i].DeepCopyInto(&out.Spec.TopologySpreadConstraints[i])
		}
	}
	forEachAffinityTerm(out.Spec.Affinity, func(term *v1.PodAffinityTerm) {
		if term.LabelSelector == nil {
			return
		}
		appendLabelKeyRequirements(term.LabelSelector, term.MatchLabelKeys, metav1.LabelSelectorOpIn, pod.Labels)
		appendLabelKeyRequirements(term.LabelSelector, term.MismatchLabelKeys, metav1.LabelSelectorOpNotIn, pod.Labels)
	})
	for i := range out.Spec.TopologySpreadConstraints {
		c := &out.Spec.TopologySpreadConstraints[i]
		if c.LabelSelector != nil {
			appendLabelKeyRequirements(c.LabelSelector, c.MatchLabelKeys, metav1.LabelSelectorOpIn, pod.Labels)
		}
	}
	return &out
}

// needsLabelKeyMerge reports whether mergeLabelKeysForCreate would add a requirement to spec: a
// term or constraint with a selector names a key the pod has a label for. It keeps the common pod
// from being copied.
func needsLabelKeyMerge(spec *v1.PodSpec, podLabels map[string]string) bool {
	labeled := func(keys []string) bool {
		for _, k := range keys {
			if _, ok := podLabels[k]; ok {
				return true
			}
		}
		return false
	}
	found := false
	forEachAffinityTerm(spec.Affinity, func(term *v1.PodAffinityTerm) {
		found = found || (term.LabelSelector != nil && (labeled(term.MatchLabelKeys) || labeled(term.MismatchLabelKeys)))
	})
	for _, c := range spec.TopologySpreadConstraints {
		found = found || (c.LabelSelector != nil && labeled(c.MatchLabelKeys))
	}
	return found
}

// forEachAffinityTerm calls fn on each pod affinity term of affinity in the create strategy's
// order: pod affinity's preferred then required terms, then pod anti-affinity's.
func forEachAffinityTerm(affinity *v1.Affinity, fn func(*v1.PodAffinityTerm)) {
	if affinity == nil {
		return
	}
	if a := affinity.PodAffinity; a != nil {
		for i := range a.PreferredDuringSchedulingIgnoredDuringExecution {
			fn(&a.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm)
		}
		for i := range a.RequiredDuringSchedulingIgnoredDuringExecution {
			fn(&a.RequiredDuringSchedulingIgnoredDuringExecution[i])
		}
	}
	if a := affinity.PodAntiAffinity; a != nil {
		for i := range a.PreferredDuringSchedulingIgnoredDuringExecution {
			fn(&a.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm)
		}
		for i := range a.RequiredDuringSchedulingIgnoredDuringExecution {
			fn(&a.RequiredDuringSchedulingIgnoredDuringExecution[i])
		}
	}
}

// appendLabelKeyRequirements appends to selector, for each key the pod has a label for, the
// requirement key op [value].
func appendLabelKeyRequirements(selector *metav1.LabelSelector, keys []string, op metav1.LabelSelectorOperator, podLabels map[string]string) {
	for _, k := range keys {
		if value, ok := podLabels[k]; ok {
			selector.MatchExpressions = append(selector.MatchExpressions, metav1.LabelSelectorRequirement{Key: k, Operator: op, Values: []string{value}})
		}
	}
}
