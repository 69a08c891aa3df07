package admission

import (
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
)

// Prepared are Objects made ready to admit many pods: each namespace's LimitRanges defaulted as
// the API server stores them, in name order, with the defaults and checks they give every pod;
// the other objects indexed by name. Preparing costs the objects once, where admitting each pod
// against the raw Objects costs them all again. A Prepared holds the objects' own ServiceAccounts,
// classes and Nodes, not copies: they must not change while it is in use. It is safe for
// concurrent use.
type Prepared struct {
	// limitRanges are each namespace's LimitRanges.
	limitRanges map[string]*namespaceLimits
	// serviceAccounts are by namespace and name, the first of a name kept.
	serviceAccounts map[namespacedName]*v1.ServiceAccount
	// priorityClasses are the objects' classes and the built-in ones they do not redefine, by
	// name, the first of a name kept; defaultPriority is the class a pod naming none gets.
	priorityClasses map[string]*schedulingv1.PriorityClass
	defaultPriority *schedulingv1.PriorityClass
	runtimeClasses  map[string]*nodev1.RuntimeClass
	nodes           map[string]*v1.Node
}

type namespacedName struct{ namespace, name string }

// Prepare indexes objs for admitting pods with Prepared.Admit; nil is no objects. An object with
// no namespace is in "default", as kubectl apply puts it.
func Prepare(objs *Objects) *Prepared {
	if objs == nil {
		objs = &Objects{}
	}
	p := &Prepared{
		limitRanges:     map[string]*namespaceLimits{},
		serviceAccounts: map[namespacedName]*v1.ServiceAccount{},
		priorityClasses: map[string]*schedulingv1.PriorityClass{},
		runtimeClasses:  map[string]*nodev1.RuntimeClass{},
		nodes:           map[string]*v1.Node{},
	}
	p.prepareLimitRanges(objs.LimitRanges)
	for _, sa := range objs.ServiceAccounts {
		if sa != nil {
			addFirst(p.serviceAccounts, namespacedName{namespaceOf(sa.Namespace), sa.Name}, sa)
		}
	}
	for _, pc := range objs.PriorityClasses {
		if pc == nil {
			continue
		}
		addFirst(p.priorityClasses, pc.Name, pc)
		if isBetterDefault(pc, p.defaultPriority) {
			p.defaultPriority = pc
		}
	}
	for _, pc := range BuiltinPriorityClasses() {
		addFirst(p.priorityClasses, pc.Name, pc) // neither is a globalDefault
	}
	for _, rc := range objs.RuntimeClasses {
		if rc != nil {
			addFirst(p.runtimeClasses, rc.Name, rc)
		}
	}
	for _, n := range objs.Nodes {
		if n != nil {
			addFirst(p.nodes, n.Name, n)
		}
	}
	return p
}

// addFirst adds v under k unless k is there already, and reports whether it did.
func addFirst[K comparable, V any](m map[K]V, k K, v V) bool {
	if _, ok := m[k]; ok {
		return false
	}
	m[k] = v
	return true
}

// isBetterDefault reports whether pc is a globalDefault class that takes the place of def: the
// lowest value wins, then the first by name (the API server takes whichever its cache lists
// first).
func isBetterDefault(pc, def *schedulingv1.PriorityClass) bool {
	if !pc.GlobalDefault {
		return false
	}
	return def == nil || pc.Value < def.Value || (pc.Value == def.Value && pc.Name < def.Name)
}

// prepareLimitRanges copies, defaults and indexes each namespace's LimitRanges once, in name
// order. The API server walks its cache in no set order; name order makes the result repeatable,
// and it only matters when two LimitRanges default the same resource.
func (p *Prepared) prepareLimitRanges(ranges []*v1.LimitRange) {
	byNamespace := map[string][]*v1.LimitRange{}
	for _, lr := range ranges {
		if lr != nil {
			ns := namespaceOf(lr.Namespace)
			byNamespace[ns] = append(byNamespace[ns], lr)
		}
	}
	for ns, list := range byNamespace {
		slices.SortStableFunc(list, func(x, y *v1.LimitRange) int { return strings.Compare(x.Name, y.Name) })
		p.limitRanges[ns] = newNamespaceLimits(list)
	}
}
