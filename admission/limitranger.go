package admission

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"

	"github.com/podconfig/podconfig/internal/resourcelist"
)

// LimitRangerAnnotation records on a pod which defaults the LimitRanger plugin set.
const LimitRangerAnnotation = "kubernetes.io/limit-ranger"

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

// limitRangerAdmit is limitranger.PodMutateLimitFunc for each LimitRange in name order: a
// container gets each default it lacks from the first LimitRange that gives it, and the
// annotation says what the last LimitRange that set anything set.
func (a *admitter) limitRangerAdmit() error {
	nl := a.objs.limitRanges[a.namespace()]
	if nl == nil {
		return nil
	}
	type setBy struct {
		requests, limits []rangeDefault
	}
	spec := &a.pod.Spec
	set := make([]setBy, len(spec.Containers)+len(spec.InitContainers))
	last := -1
	for i := range set {
		c := a.container(i)
		set[i].requests = addDefaults(&c.Resources.Requests, nl.requests)
		set[i].limits = addDefaults(&c.Resources.Limits, nl.limits)
		for _, d := range append(set[i].requests, set[i].limits...) {
			last = max(last, d.pos)
		}
	}
	if last < 0 {
		return nil
	}
	var notes []string
	for i, s := range set {
		kind := "container"
		if i >= len(spec.Containers) {
			kind = "init container"
		}
		name := a.container(i).Name
		if names := namesFrom(s.requests, last); names != "" {
			notes = append(notes, names+" request for "+kind+" "+name)
		}
		if names := namesFrom(s.limits, last); names != "" {
			notes = append(notes, names+" limit for "+kind+" "+name)
		}
	}
	if a.pod.Annotations == nil {
		a.pod.Annotations = map[string]string{}
	}
	a.pod.Annotations[LimitRangerAnnotation] = "LimitRanger plugin set: " + strings.Join(notes, "; ")
	return nil
}

// container is the i-th of the regular containers, then of the init containers, as the
// LimitRanger plugin walks them.
func (a *admitter) container(i int) *v1.Container {
	if n := len(a.pod.Spec.Containers); i >= n {
		return &a.pod.Spec.InitContainers[i-n]
	}
	return &a.pod.Spec.Containers[i]
}

// addDefaults sets each default dst lacks and returns those it set, in name order.
func addDefaults(dst *v1.ResourceList, defaults []rangeDefault) []rangeDefault {
	var set []rangeDefault
	for _, d := range defaults {
		if _, ok := (*dst)[d.name]; ok {
			continue
		}
		if *dst == nil {
			*dst = v1.ResourceList{}
		}
		(*dst)[d.name] = d.q.DeepCopy()
		set = append(set, d)
	}
	return set
}

// namesFrom joins the names of the defaults the LimitRange at pos set.
func namesFrom(set []rangeDefault, pos int) string {
	var names []string
	for _, d := range set {
		if d.pos == pos {
			names = append(names, string(d.name))
		}
	}
	return strings.Join(names, ", ")
}

// limitRangerValidate is limitranger.PodValidateLimitFunc for each LimitRange in name order: the
// first LimitRange with any error refuses the pod with all of its errors together.
func (a *admitter) limitRangerValidate() error {
	nl := a.objs.limitRanges[a.namespace()]
	if nl == nil {
		return nil
	}
	pos := nl.firstRefusal(a.pod, a.gates.PodLevelResources)
	if pos == noRefusal {
		return nil
	}
	if err := utilerrors.NewAggregate(nl.ranges[pos].check(a.pod, a.gates.PodLevelResources)); err != nil {
		return a.forbidden(err)
	}
	return nil
}

// check is PodValidateLimitFunc for one LimitRange: the errors of its items, each item's
// containers then init containers, or the pod's totals.
func (p *preparedLimitRange) check(pod *v1.Pod, podLevel bool) []error {
	var errs []error
	for i := range p.items {
		item := &p.items[i]
		switch item.Type {
		case v1.LimitTypeContainer:
			for _, cs := range [][]v1.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
				for j := range cs {
					errs = checkItem(errs, item, cs[j].Resources.Requests, cs[j].Resources.Limits)
				}
			}
		case v1.LimitTypePod:
			errs = checkItem(errs, item, podRequests(pod, podLevel), podLimits(pod, podLevel))
		}
	}
	return errs
}

// firstRefusal is the position of the first LimitRange that refuses the pod, noRefusal if none.
func (nl *namespaceLimits) firstRefusal(pod *v1.Pod, podLevel bool) int {
	best := noRefusal
	for _, cs := range [][]v1.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for j := range cs {
			best = nl.container.firstRefusal(best, cs[j].Resources.Requests, cs[j].Resources.Limits)
		}
	}
	if !nl.pod.empty() {
		best = nl.pod.firstRefusal(best, podRequests(pod, podLevel), podLimits(pod, podLevel))
	}
	return best
}

// checkItem appends to errs the failures of min, max and maxLimitRequestRatio of one item, each
// in resource-name order.
func checkItem(errs []error, item *preparedItem, requests, limits v1.ResourceList) []error {
	kind := string(item.Type)
	for _, k := range item.min {
		errs = appendErr(errs, minConstraint(kind, k, item.Min[k], requests, limits))
	}
	for _, k := range item.max {
		errs = appendErr(errs, maxConstraint(kind, k, item.Max[k], requests, limits))
	}
	for _, k := range item.ratio {
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
		resourcelist.Add(total, of(c.Resources))
	}
	sidecars, inits := v1.ResourceList{}, v1.ResourceList{}
	for _, c := range pod.Spec.InitContainers {
		this := of(c.Resources)
		if c.RestartPolicy != nil && *c.RestartPolicy == v1.ContainerRestartPolicyAlways {
			resourcelist.Add(total, this)
			resourcelist.Add(sidecars, this)
			this = sidecars
		} else {
			tmp := v1.ResourceList{}
			resourcelist.Add(tmp, this)
			resourcelist.Add(tmp, sidecars)
			this = tmp
		}
		resourcelist.Max(inits, this)
	}
	resourcelist.Max(total, inits)
	if podLevel && pod.Spec.Resources != nil {
		for k, q := range of(*pod.Spec.Resources) {
			if k == v1.ResourceCPU || k == v1.ResourceMemory {
				total[k] = q
			}
		}
	}
	return total
}
