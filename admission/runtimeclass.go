package admission

import (
	"fmt"
	"slices"

	nodev1 "k8s.io/api/node/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// runtimeClass is the pod's RuntimeClass: nil when it names none (or AssumeMissing stands in for
// a missing one), a refusal when the class is missing.
func (a *admitter) runtimeClass() (*nodev1.RuntimeClass, error) {
	name := a.pod.Spec.RuntimeClassName
	if name == nil {
		return nil, nil
	}
	if rc, ok := a.objs.runtimeClasses[*name]; ok {
		return rc, nil
	}
	if a.assume("RuntimeClass", "", *name) {
		return nil, nil
	}
	notFound := apierrors.NewNotFound(schema.GroupResource{Group: "node.k8s.io", Resource: "runtimeclasses"}, *name)
	return nil, a.forbidden(&wrapped{msg: fmt.Sprintf("pod rejected: RuntimeClass %q not found", *name), err: notFound})
}

// wrapped is an error with its own text that still unwraps to its cause.
type wrapped struct {
	msg string
	err error
}

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return w.err }

// runtimeClassAdmit is runtimeclass.RuntimeClass.Admit: setOverhead, then setScheduling.
func (a *admitter) runtimeClassAdmit() error {
	rc, err := a.runtimeClass()
	if err != nil || rc == nil {
		return err
	}
	spec := &a.pod.Spec
	if rc.Overhead != nil {
		if len(spec.Overhead) > 0 && !apiequality.Semantic.DeepEqual(rc.Overhead.PodFixed, spec.Overhead) {
			return a.forbidden(fmt.Errorf("pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"))
		}
		spec.Overhead = rc.Overhead.PodFixed.DeepCopy()
	}
	if s := rc.Scheduling; s != nil {
		selector := spec.NodeSelector
		if selector == nil {
			selector = copyMap(s.NodeSelector)
		} else {
			for _, k := range sortedKeys(s.NodeSelector) {
				if v, ok := selector[k]; ok && v != s.NodeSelector[k] {
					return a.forbidden(fmt.Errorf("conflict: runtimeClass.scheduling.nodeSelector[%s] = %s; pod.spec.nodeSelector[%s] = %s", k, s.NodeSelector[k], k, v))
				}
			}
			selector = copyMap(selector)
			for k, v := range s.NodeSelector {
				selector[k] = v
			}
		}
		spec.NodeSelector = selector
		spec.Tolerations = MergeTolerations(spec.Tolerations, s.Tolerations)
	}
	return nil
}

// runtimeClassValidate is runtimeclass.RuntimeClass.Validate: the pod's overhead is the class's,
// or there is none without a class overhead.
func (a *admitter) runtimeClassValidate() error {
	rc, err := a.runtimeClass()
	if err != nil {
		return err
	}
	if rc != nil && rc.Overhead != nil {
		if !apiequality.Semantic.DeepEqual(rc.Overhead.PodFixed, a.pod.Spec.Overhead) {
			return a.forbidden(fmt.Errorf("pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"))
		}
	} else if a.pod.Spec.Overhead != nil {
		return a.forbidden(fmt.Errorf("pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead"))
	}
	return nil
}

func copyMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
