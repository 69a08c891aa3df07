package admission

import (
	"math"
	"slices"
	"sort"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// namespaceLimits are one namespace's LimitRanges prepared for all of its pods, so that admitting
// a pod costs its containers and resources, not the number of LimitRanges: the API server runs
// each LimitRange on each pod, and 2,000 pods in a namespace of 2,000 LimitRanges took minutes.
//
// Defaulting: a LimitRange sets a default only where the container still lacks it, so each
// default comes from the first LimitRange (in name order) that gives it, and the annotation is
// that of the last LimitRange that set anything. Validation: the pod is refused with the errors
// of the first LimitRange that has any; for each constraint and resource, the LimitRanges'
// values are indexed in order with their running minimum and maximum, so the first one a value
// fails is found by binary search, and only that LimitRange is then checked in full.
type namespaceLimits struct {
	// ranges are the LimitRanges in name order; a position is an index into ranges.
	ranges []*preparedLimitRange
	// requests and limits are the defaults, each from the first LimitRange to give it, by name.
	requests, limits []rangeDefault
	// container and pod index the constraints of the Container and Pod items.
	container, pod constraintIndex
}

// rangeDefault is a default request or limit and the position of the LimitRange it comes from.
type rangeDefault struct {
	name v1.ResourceName
	pos  int
	q    resource.Quantity
}

// constraintIndex holds, for each resource a constraint names, the LimitRanges' values of it,
// ordered by the position of the first LimitRange that names it.
type constraintIndex struct {
	min, max, ratio []*resourceConstraint
}

// resourceConstraint is one constraint (min, max or maxLimitRequestRatio) of one resource across
// the namespace's LimitRanges. The API server compares in thousandths only when the LimitRange's
// value, the request and the limit are all at most resource.MaxMilliValue (comparableValues), so
// the values within that bound (small) and beyond it (big) are indexed apart.
type resourceConstraint struct {
	name       v1.ResourceName
	first      int
	small, big constraintValues
}

// constraintValues are LimitRange values in position order, each slice of extremes holding the
// running minimum or maximum of the values up to that index.
type constraintValues struct {
	pos                []int
	minMilli, maxMilli []int64
	minValue, maxValue []int64
}

// noRefusal is the position of a LimitRange that refuses nothing.
const noRefusal = math.MaxInt

func (c *constraintValues) add(pos int, q resource.Quantity) {
	milli, value := q.MilliValue(), q.Value()
	minMilli, maxMilli, minValue, maxValue := milli, milli, value, value
	if n := len(c.pos); n > 0 {
		minMilli, maxMilli = min(minMilli, c.minMilli[n-1]), max(maxMilli, c.maxMilli[n-1])
		minValue, maxValue = min(minValue, c.minValue[n-1]), max(maxValue, c.maxValue[n-1])
	}
	c.pos = append(c.pos, pos)
	c.minMilli, c.maxMilli = append(c.minMilli, minMilli), append(c.maxMilli, maxMilli)
	c.minValue, c.maxValue = append(c.minValue, minValue), append(c.maxValue, maxValue)
}

// firstWhere is the position of the first value whose running extreme fails, noRefusal if none
// does; fails must turn true at some index and stay true, as it does on a running extreme.
func (c *constraintValues) firstWhere(extremes []int64, fails func(int64) bool) int {
	i := sort.Search(len(extremes), func(i int) bool { return fails(extremes[i]) })
	if i == len(extremes) {
		return noRefusal
	}
	return c.pos[i]
}

// firstAny is the position of the first value, noRefusal if there is none.
func (c *constraintValues) firstAny() int {
	if len(c.pos) == 0 {
		return noRefusal
	}
	return c.pos[0]
}

func isSmall(values ...int64) bool {
	for _, v := range values {
		if v > resource.MaxMilliValue {
			return false
		}
	}
	return true
}

// minRefusal is the position of the first LimitRange whose minimum the request or limit fails
// (minConstraint).
func (rc *resourceConstraint) minRefusal(requests, limits v1.ResourceList) int {
	req, hasReq := requests[rc.name]
	lim, hasLim := limits[rc.name]
	if !hasReq {
		return rc.first
	}
	reqValue, limValue := req.Value(), lim.Value()
	if isSmall(reqValue, limValue) {
		// A minimum past MaxMilliValue is compared in whole units, which neither reaches: it refuses.
		lowest := req.MilliValue()
		if hasLim {
			lowest = min(lowest, lim.MilliValue())
		}
		return min(rc.big.firstAny(), rc.small.firstWhere(rc.small.maxMilli, func(m int64) bool { return lowest < m }))
	}
	lowest := reqValue
	if hasLim {
		lowest = min(lowest, limValue)
	}
	above := func(m int64) bool { return lowest < m }
	return min(rc.small.firstWhere(rc.small.maxValue, above), rc.big.firstWhere(rc.big.maxValue, above))
}

// maxRefusal is the position of the first LimitRange whose maximum the limit or request fails
// (maxConstraint).
func (rc *resourceConstraint) maxRefusal(requests, limits v1.ResourceList) int {
	req, hasReq := requests[rc.name]
	lim, hasLim := limits[rc.name]
	if !hasLim {
		return rc.first
	}
	reqValue, limValue := req.Value(), lim.Value()
	if isSmall(reqValue, limValue) {
		// A maximum past MaxMilliValue is compared in whole units, which neither reaches: it admits.
		highest := lim.MilliValue()
		if hasReq {
			highest = max(highest, req.MilliValue())
		}
		return rc.small.firstWhere(rc.small.minMilli, func(m int64) bool { return highest > m })
	}
	highest := limValue
	if hasReq {
		highest = max(highest, reqValue)
	}
	below := func(m int64) bool { return highest > m }
	return min(rc.small.firstWhere(rc.small.minValue, below), rc.big.firstWhere(rc.big.minValue, below))
}

// ratioRefusal is the position of the first LimitRange whose maxLimitRequestRatio the limit and
// request fail (ratioConstraint), the ratio computed as it computes it.
func (rc *resourceConstraint) ratioRefusal(requests, limits v1.ResourceList) int {
	req, hasReq := requests[rc.name]
	lim, hasLim := limits[rc.name]
	if !hasReq || !hasLim {
		return rc.first
	}
	reqValue, limValue := req.Value(), lim.Value()
	// Against a ratio within MaxMilliValue, in thousandths unless the request or limit is past it.
	r, l := reqValue, limValue
	if isSmall(reqValue, limValue) {
		r, l = req.MilliValue(), lim.MilliValue()
	}
	small := rc.small.firstAny()
	if r != 0 && l != 0 {
		ratio := float64(l) / float64(r) * 1000
		small = rc.small.firstWhere(rc.small.minMilli, func(m int64) bool { return ratio > float64(m) })
	}
	// Against a ratio past MaxMilliValue, in whole units.
	big := rc.big.firstAny()
	if reqValue != 0 && limValue != 0 {
		ratio := float64(limValue) / float64(reqValue)
		big = rc.big.firstWhere(rc.big.minValue, func(m int64) bool { return ratio > float64(m) })
	}
	return min(small, big)
}

// firstRefusal lowers best to the position of the first LimitRange that refuses these requests
// and limits, looking only at resources whose first LimitRange comes before best.
func (ci *constraintIndex) firstRefusal(best int, requests, limits v1.ResourceList) int {
	for _, c := range []struct {
		list    []*resourceConstraint
		refusal func(*resourceConstraint, v1.ResourceList, v1.ResourceList) int
	}{
		{ci.min, (*resourceConstraint).minRefusal},
		{ci.max, (*resourceConstraint).maxRefusal},
		{ci.ratio, (*resourceConstraint).ratioRefusal},
	} {
		for _, rc := range c.list {
			if rc.first >= best {
				break
			}
			best = min(best, c.refusal(rc, requests, limits))
		}
	}
	return best
}

func (ci *constraintIndex) empty() bool {
	return len(ci.min) == 0 && len(ci.max) == 0 && len(ci.ratio) == 0
}

// newNamespaceLimits prepares a namespace's LimitRanges, given in name order.
func newNamespaceLimits(ranges []*v1.LimitRange) *namespaceLimits {
	nl := &namespaceLimits{}
	for _, lr := range ranges {
		nl.ranges = append(nl.ranges, prepareLimitRange(lr))
	}
	nl.requests = firstDefaults(nl.ranges, func(p *preparedLimitRange) v1.ResourceList { return p.requests })
	nl.limits = firstDefaults(nl.ranges, func(p *preparedLimitRange) v1.ResourceList { return p.limits })
	for _, ci := range []struct {
		index *constraintIndex
		typ   v1.LimitType
	}{{&nl.container, v1.LimitTypeContainer}, {&nl.pod, v1.LimitTypePod}} {
		ci.index.min = indexConstraint(nl.ranges, ci.typ, func(i *preparedItem) v1.ResourceList { return i.Min })
		ci.index.max = indexConstraint(nl.ranges, ci.typ, func(i *preparedItem) v1.ResourceList { return i.Max })
		ci.index.ratio = indexConstraint(nl.ranges, ci.typ, func(i *preparedItem) v1.ResourceList { return i.MaxLimitRequestRatio })
	}
	return nl
}

// firstDefaults are the defaults of the LimitRanges, each from the first to give it, by name.
func firstDefaults(ranges []*preparedLimitRange, of func(*preparedLimitRange) v1.ResourceList) []rangeDefault {
	var out []rangeDefault
	seen := map[v1.ResourceName]bool{}
	for pos, p := range ranges {
		for name, q := range of(p) {
			if !seen[name] {
				seen[name] = true
				out = append(out, rangeDefault{name: name, pos: pos, q: q})
			}
		}
	}
	slices.SortFunc(out, func(x, y rangeDefault) int { return compareNames(x.name, y.name) })
	return out
}

func compareNames(x, y v1.ResourceName) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// indexConstraint indexes one constraint of the items of one type, each resource's values in
// position order; the resources come in the order of their first LimitRange.
func indexConstraint(ranges []*preparedLimitRange, typ v1.LimitType, of func(*preparedItem) v1.ResourceList) []*resourceConstraint {
	var out []*resourceConstraint
	byName := map[v1.ResourceName]*resourceConstraint{}
	for pos, p := range ranges {
		for i := range p.items {
			item := &p.items[i]
			if item.Type != typ {
				continue
			}
			for name, q := range of(item) {
				rc := byName[name]
				if rc == nil {
					rc = &resourceConstraint{name: name, first: pos}
					byName[name] = rc
					out = append(out, rc)
				}
				if isSmall(q.Value()) {
					rc.small.add(pos, q)
				} else {
					rc.big.add(pos, q)
				}
			}
		}
	}
	return out
}

// preparedLimitRange is a LimitRange as its plugin reads it for every pod: the default requests
// and limits its Container items give (later items overriding earlier ones, as
// defaultContainerResourceRequirements takes them), and its items with their resource names in
// order.
type preparedLimitRange struct {
	requests, limits v1.ResourceList
	items            []preparedItem
}

// preparedItem is a defaulted LimitRangeItem with the resource names of its min, max and
// maxLimitRequestRatio sorted, the order its errors come in (the API server walks its maps in no
// set order).
type preparedItem struct {
	v1.LimitRangeItem
	min, max, ratio []v1.ResourceName
}

func prepareLimitRange(lr *v1.LimitRange) *preparedLimitRange {
	out := &preparedLimitRange{requests: v1.ResourceList{}, limits: v1.ResourceList{}}
	for _, item := range lr.Spec.Limits {
		item = *item.DeepCopy()
		defaultLimitRangeItem(&item)
		if item.Type == v1.LimitTypeContainer {
			for k, q := range item.DefaultRequest {
				out.requests[k] = q
			}
			for k, q := range item.Default {
				out.limits[k] = q
			}
		}
		out.items = append(out.items, preparedItem{
			LimitRangeItem: item,
			min:            sortedNames(item.Min),
			max:            sortedNames(item.Max),
			ratio:          sortedNames(item.MaxLimitRequestRatio),
		})
	}
	return out
}

func sortedNames(l v1.ResourceList) []v1.ResourceName {
	names := make([]v1.ResourceName, 0, len(l))
	for k := range l {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}
