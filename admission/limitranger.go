package admission

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
)

// LimitRangerAnnotation records on a pod which defaults the LimitRanger plugin set.
const LimitRangerAnnotation = "kubernetes.io/limit-ranger"

// limitRanges are the LimitRanges of the pod's namespace, in name order, each defaulted as the
// API server stores it. The API server walks its cache in no set order; name order makes the
// result repeatable, and it only matters when two LimitRanges default the same resource.
func (a *admitter) limitRanges() []*v1.LimitRange {
	var out []*v1.LimitRange
	for _, lr := range a.objs.LimitRanges {
		if lr != nil && namespaceOf(lr.Namespace) == a.namespace() {
			lr = lr.DeepCopy()
			for i := range lr.Spec.Limits {
				defaultLimitRangeItem(&lr.Spec.Limits[i])
			}
			out = append(out, lr)
		}
	}
	slices.SortStableFunc(out, func(x, y *v1.LimitRange) int { return strings.Compare(x.Name, y.Name) })
	return out
}

// defaultLimitRangeItem is SetDefaults_LimitRangeItem: a Container item's missing default limit
// comes from max, a missing default request from the default limit, then from min.
func defaultLimitRangeItem(item *v1.LimitRangeItem) {
	if item.Type != v1.LimitTypeContainer {
		return
	}
	if item.Default == nil {
		item.Default = v1.ResourceList{}
	}
	if item.DefaultRequest == nil {
		item.DefaultRequest = v1.ResourceList{}
	}
	fill := func(dst, src v1.ResourceList) {
		for k, q := range src {
			if _, ok := dst[k]; !ok {
				dst[k] = q.DeepCopy()
			}
		}
	}
	fill(item.Default, item.Max)
	fill(item.DefaultRequest, item.Default)
	fill(item.DefaultRequest, item.Min)
}

// limitRangerAdmit is limitranger.PodMutateLimitFunc for each LimitRange.
func (a *admitter) limitRangerAdmit() error {
	for _, lr := range a.limitRanges() {
		requests, limits := v1.ResourceList{}, v1.ResourceList{}
		for _, item := range lr.Spec.Limits {
			if item.Type != v1.LimitTypeContainer {
				continue
			}
			for k, q := range item.DefaultRequest {
				requests[k] = q.DeepCopy()
			}
			for k, q := range item.Default {
				limits[k] = q.DeepCopy()
			}
		}
		var notes []string
		for i := range a.pod.Spec.Containers {
			notes = mergeContainerResources(&a.pod.Spec.Containers[i], requests, limits, "container", notes)
		}
		for i := range a.pod.Spec.InitContainers {
			notes = mergeContainerResources(&a.pod.Spec.InitContainers[i], requests, limits, "init container", notes)
		}
		if len(notes) > 0 {
			if a.pod.Annotations == nil {
				a.pod.Annotations = map[string]string{}
			}
			a.pod.Annotations[LimitRangerAnnotation] = "LimitRanger plugin set: " + strings.Join(notes, "; ")
		}
	}
	return nil
}

// mergeContainerResources adds each default the container lacks and notes what it set.
func mergeContainerResources(c *v1.Container, requests, limits v1.ResourceList, kind string, notes []string) []string {
	add := func(dst *v1.ResourceList, defaults v1.ResourceList) []string {
		var set []string
		for k, q := range defaults {
			if _, ok := (*dst)[k]; ok {
				continue
			}
			if *dst == nil {
				*dst = v1.ResourceList{}
			}
			(*dst)[k] = q.DeepCopy()
			set = append(set, string(k))
		}
		sort.Strings(set)
		return set
	}
	setLimits := add(&c.Resources.Limits, limits)
	setRequests := add(&c.Resources.Requests, requests)
	if len(setRequests) > 0 {
		notes = append(notes, strings.Join(setRequests, ", ")+" request for "+kind+" "+c.Name)
	}
	if len(setLimits) > 0 {
		notes = append(notes, strings.Join(setLimits, ", ")+" limit for "+kind+" "+c.Name)
	}
	return notes
}

// limitRangerValidate is limitranger.PodValidateLimitFunc for each LimitRange: the errors of one
// LimitRange together, the first LimitRange with any refusing the pod.
func (a *admitter) limitRangerValidate() error {
	for _, lr := range a.limitRanges() {
		var errs []error
		for _, item := range lr.Spec.Limits {
			switch item.Type {
			case v1.LimitTypeContainer:
				for _, cs := range [][]v1.Container{a.pod.Spec.Containers, a.pod.Spec.InitContainers} {
					for _, c := range cs {
						errs = append(errs, checkItem(item, c.Resources.Requests, c.Resources.Limits)...)
					}
				}
			case v1.LimitTypePod:
				errs = append(errs, checkItem(item, podRequests(a.pod, a.gates.PodLevelResources), podLimits(a.pod, a.gates.PodLevelResources))...)
			}
		}
		if err := utilerrors.NewAggregate(errs); err != nil {
			return a.forbidden(err)
		}
	}
	return nil
}

// checkItem checks min, max and maxLimitRequestRatio of one item, each in resource-name order
// (the API server walks its maps in no set order).
func checkItem(item v1.LimitRangeItem, requests, limits v1.ResourceList) []error {
	var errs []error
	kind := string(item.Type)
	for _, k := range sortedNames(item.Min) {
		errs = appendErr(errs, minConstraint(kind, k, item.Min[k], requests, limits))
	}
	for _, k := range sortedNames(item.Max) {
		errs = appendErr(errs, maxConstraint(kind, k, item.Max[k], requests, limits))
	}
	for _, k := range sortedNames(item.MaxLimitRequestRatio) {
		errs = appendErr(errs, ratioConstraint(kind, k, item.MaxLimitRequestRatio[k], requests, limits))
	}
	return errs
}

func appendErr(errs []error, err error) []error {
	if err != nil {
		return append(errs, err)
	}
	return errs
}

func sortedNames(l v1.ResourceList) []v1.ResourceName {
	names := make([]v1.ResourceName, 0, len(l))
	for k := range l {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// comparableValues are a request, a limit and a LimitRange's value at the precision the API server
// compares them (LimitRanger's requestLimitEnforcedValues): thousandths while none of the three is
// past resource.MaxMilliValue, whole units otherwise, so that a huge quantity is not compared by a
// MilliValue that overflowed (9300T, 2^63-1 and 1E all came out below 1Gi). A missing request or
// limit is the zero Quantity.
func comparableValues(req, lim, enforced resource.Quantity) (r, l, e int64) {
	r, l, e = req.Value(), lim.Value(), enforced.Value()
	if r <= resource.MaxMilliValue && l <= resource.MaxMilliValue && e <= resource.MaxMilliValue {
		return req.MilliValue(), lim.MilliValue(), enforced.MilliValue()
	}
	return r, l, e
}

func minConstraint(kind string, name v1.ResourceName, enforced resource.Quantity, requests, limits v1.ResourceList) error {
	req, hasReq := requests[name]
	lim, hasLim := limits[name]
	reqValue, limValue, minValue := comparableValues(req, lim, enforced)
	if !hasReq {
		return fmt.Errorf("minimum %s usage per %s is %s.  No request is specified", name, kind, enforced.String())
	}
	if reqValue < minValue {
		return fmt.Errorf("minimum %s usage per %s is %s, but request is %s", name, kind, enforced.String(), req.String())
	}
	if hasLim && limValue < minValue {
		return fmt.Errorf("minimum %s usage per %s is %s, but limit is %s", name, kind, enforced.String(), lim.String())
	}
	return nil
}

func maxConstraint(kind string, name v1.ResourceName, enforced resource.Quantity, requests, limits v1.ResourceList) error {
	req, hasReq := requests[name]
	lim, hasLim := limits[name]
	reqValue, limValue, maxValue := comparableValues(req, lim, enforced)
	if !hasLim {
		return fmt.Errorf("maximum %s usage per %s is %s.  No limit is specified", name, kind, enforced.String())
	}
	if limValue > maxValue {
		return fmt.Errorf("maximum %s usage per %s is %s, but limit is %s", name, kind, enforced.String(), lim.String())
	}
	if hasReq && reqValue > maxValue {
		return fmt.Errorf("maximum %s usage per %s is %s, but request is %s", name, kind, enforced.String(), req.String())
	}
	return nil
}

// ratioConstraint is limitRequestRatioConstraint: the observed ratio is taken from the request and
// limit at comparableValues' precision, and compared in thousandths unless the LimitRange's ratio
// is itself past resource.MaxMilliValue.
func ratioConstraint(kind string, name v1.ResourceName, enforced resource.Quantity, requests, limits v1.ResourceList) error {
	req, hasReq := requests[name]
	lim, hasLim := limits[name]
	reqValue, limValue, _ := comparableValues(req, lim, enforced)
	if !hasReq || reqValue == 0 {
		return fmt.Errorf("%s max limit to request ratio per %s is %s, but no request is specified or request is 0", name, kind, enforced.String())
	}
	if !hasLim || limValue == 0 {
		return fmt.Errorf("%s max limit to request ratio per %s is %s, but no limit is specified or limit is 0", name, kind, enforced.String())
	}
	ratio := float64(limValue) / float64(reqValue)
	shown := ratio
	max := float64(enforced.Value())
	if enforced.Value() <= resource.MaxMilliValue {
		ratio *= 1000
		max = float64(enforced.MilliValue())
	}
	if ratio > max {
		return fmt.Errorf("%s max limit to request ratio per %s is %s, but provided ratio is %f", name, kind, enforced.String(), shown)
	}
	return nil
}

// podRequests and podLimits are the pod's effective requests and limits as the LimitRanger plugin
// sums them: regular and sidecar containers add up, an init container counts beside the sidecars
// started before it, the larger of the two wins, and pod-level cpu and memory replace the sum.
func podRequests(pod *v1.Pod, podLevel bool) v1.ResourceList {
	return podTotal(pod, podLevel, func(r v1.ResourceRequirements) v1.ResourceList { return r.Requests })
}

func podLimits(pod *v1.Pod, podLevel bool) v1.ResourceList {
	return podTotal(pod, podLevel, func(r v1.ResourceRequirements) v1.ResourceList { return r.Limits })
}

func podTotal(pod *v1.Pod, podLevel bool, of func(v1.ResourceRequirements) v1.ResourceList) v1.ResourceList {
	total := v1.ResourceList{}
	for _, c := range pod.Spec.Containers {
		addResourceList(total, of(c.Resources))
	}
	sidecars, inits := v1.ResourceList{}, v1.ResourceList{}
	for _, c := range pod.Spec.InitContainers {
		this := of(c.Resources)
		if c.RestartPolicy != nil && *c.RestartPolicy == v1.ContainerRestartPolicyAlways {
			addResourceList(total, this)
			addResourceList(sidecars, this)
			this = sidecars
		} else {
			tmp := v1.ResourceList{}
			addResourceList(tmp, this)
			addResourceList(tmp, sidecars)
			this = tmp
		}
		maxResourceList(inits, this)
	}
	maxResourceList(total, inits)
	if podLevel && pod.Spec.Resources != nil {
		for k, q := range of(*pod.Spec.Resources) {
			if k == v1.ResourceCPU || k == v1.ResourceMemory {
				total[k] = q
			}
		}
	}
	return total
}

func addResourceList(list, add v1.ResourceList) {
	for k, q := range add {
		if v, ok := list[k]; ok {
			v.Add(q)
			list[k] = v
		} else {
			list[k] = q.DeepCopy()
		}
	}
}

func maxResourceList(list, other v1.ResourceList) {
	for k, q := range other {
		if v, ok := list[k]; !ok || q.Cmp(v) > 0 {
			list[k] = q.DeepCopy()
		}
	}
}
