package admission

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"

	"github.com/podconfig/podconfig/defaults"
)

// Objects are the cluster objects the admission plugins read. An object with no namespace is in
// "default", as kubectl apply puts it. Nil slices are fine: the built-in PriorityClasses and each
// namespace's default ServiceAccount exist without being listed.
type Objects struct {
	ServiceAccounts []*v1.ServiceAccount
	PriorityClasses []*schedulingv1.PriorityClass
	LimitRanges     []*v1.LimitRange
	RuntimeClasses  []*nodev1.RuntimeClass
	// Nodes give PodTopologyLabels the labels of the node a pod is bound to.
	Nodes []*v1.Node
}

// An Option changes how Admit treats a pod.
type Option func(*settings)

type settings struct {
	gates   defaults.FeatureGates
	assumed func(kind, namespace, name string) bool
}

// WithFeatureGates admits as an API server with these gates does: PodLevelResources and
// PodLevelResourcesFixDefaulting decide the pod-level resource defaulting after admission and the
// pod-level LimitRange checks. The default is defaults.DefaultFeatureGates().
func WithFeatureGates(gates defaults.FeatureGates) Option {
	return func(s *settings) { s.gates = gates }
}

// AssumeMissing makes a ServiceAccount or RuntimeClass the objects lack count as one that exists
// with no settings (no pull secrets, automount unset; no overhead, no scheduling), instead of the
// API server's not-found error. decide, if not nil, is asked once per Admit for each missing
// object (kind "ServiceAccount" or "RuntimeClass"; namespace empty for a RuntimeClass) whether to
// assume it, and can record the assumption; nil assumes every one. A missing PriorityClass is
// still an error: its value cannot be guessed.
func AssumeMissing(decide func(kind, namespace, name string) bool) Option {
	return func(s *settings) {
		if decide == nil {
			decide = func(string, string, string) bool { return true }
		}
		s.assumed = decide
	}
}

// Admit applies to pod what the v1.37 API server's default mutating admission plugins and the pod
// create strategy's resource defaulting apply on create, then the same plugins' validation (see
// the package documentation). pod should have its namespace set and be defaulted with
// defaults.SetObjectDefaultsPod(pod, defaults.ObjectDefaultsOnly()); with full defaults the
// result differs only for a pod with pod-level resources that a LimitRange gives container
// defaults. On error pod is unchanged. Admit is safe for concurrent use on distinct pods.
//
// Admit prepares objs on every call; to admit many pods against the same objects, Prepare them
// once and call Prepared.Admit.
func Admit(pod *v1.Pod, objs *Objects, opts ...Option) error {
	if pod == nil {
		return fmt.Errorf("admission: nil pod")
	}
	return Prepare(objs).Admit(pod, opts...)
}

// Admit is the package's Admit against the prepared objects: the same result, at the cost of the
// pod's own containers and resources, and a binary search among its namespace's LimitRanges,
// whatever the number of objects. A nil Prepared has no objects. It is safe for concurrent use on
// distinct pods.
func (p *Prepared) Admit(pod *v1.Pod, opts ...Option) error {
	if pod == nil {
		return fmt.Errorf("admission: nil pod")
	}
	if p == nil {
		p = Prepare(nil)
	}
	s := settings{gates: defaults.DefaultFeatureGates()}
	for _, o := range opts {
		if o != nil {
			o(&s)
		}
	}
	a := &admitter{pod: pod.DeepCopy(), objs: p, settings: s}
	if err := a.run(); err != nil {
		return err
	}
	*pod = *a.pod
	return nil
}

// admitter is one pod's pass through the plugins; it works on a copy.
type admitter struct {
	pod  *v1.Pod
	objs *Prepared
	settings
	decided map[string]bool
}

// assume says whether to take a missing object as existing, asking AssumeMissing's decide once.
func (a *admitter) assume(kind, namespace, name string) bool {
	if a.assumed == nil {
		return false
	}
	key := kind + "\x00" + namespace + "\x00" + name
	if yes, ok := a.decided[key]; ok {
		return yes
	}
	if a.decided == nil {
		a.decided = map[string]bool{}
	}
	a.decided[key] = a.assumed(kind, namespace, name)
	return a.decided[key]
}

func (a *admitter) run() error {
	// Mutating phase, in the API server's plugin order.
	for _, admit := range []func() error{
		a.limitRangerAdmit,
		a.serviceAccountAdmit,
		a.priorityAdmit,
		a.defaultTolerationSecondsAdmit,
		a.runtimeClassAdmit,
		a.podTopologyLabelsAdmit,
	} {
		if err := admit(); err != nil {
			return err
		}
	}
	// The pod create strategy. What the plugins add needs no other defaulting: they write every
	// field the API server would default, and a LimitRange never adds a limit without its request.
	if a.gates.PodLevelResources && a.gates.PodLevelResourcesFixDefaulting {
		defaults.DefaultPodLevelResources(a.pod)
	}
	// Validating phase.
	for _, validate := range []func() error{
		a.limitRangerValidate,
		a.serviceAccountValidate,
		a.runtimeClassValidate,
	} {
		if err := validate(); err != nil {
			return err
		}
	}
	return nil
}

// namespace is the pod's namespace, "default" when unset.
func (a *admitter) namespace() string {
	return namespaceOf(a.pod.Namespace)
}

func namespaceOf(ns string) string {
	if ns == "" {
		return "default"
	}
	return ns
}

// ForbiddenError is the API server's refusal of a pod, worded as it words it.
type ForbiddenError struct {
	// Pod is the pod's name, else its generateName, else "Unknown", as the API server names it.
	Pod string
	// Err is the plugin's reason.
	Err error
}

// Error reads `pods "<name>" is forbidden: <reason>`.
func (e *ForbiddenError) Error() string {
	return fmt.Sprintf("pods %q is forbidden: %v", e.Pod, e.Err)
}

// Unwrap returns the plugin's reason.
func (e *ForbiddenError) Unwrap() error { return e.Err }

func (a *admitter) forbidden(err error) error {
	name := a.pod.Name
	if name == "" {
		name = a.pod.GenerateName
	}
	if name == "" {
		name = "Unknown"
	}
	return &ForbiddenError{Pod: name, Err: err}
}
