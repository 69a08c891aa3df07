package admission

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The built-in PriorityClasses every API server creates at start-up.
const (
	SystemNodeCritical    = "system-node-critical"
	SystemClusterCritical = "system-cluster-critical"
	// SystemCriticalPriority is system-cluster-critical's value; system-node-critical's is 1000
	// more.
	SystemCriticalPriority int32 = 2000000000
)

// BuiltinPriorityClasses are system-node-critical and system-cluster-critical as the API server
// creates them (scheduling/v1 SystemPriorityClasses).
func BuiltinPriorityClasses() []*schedulingv1.PriorityClass {
	preempt := v1.PreemptLowerPriority
	return []*schedulingv1.PriorityClass{
		{
			ObjectMeta:       metav1.ObjectMeta{Name: SystemNodeCritical},
			Value:            SystemCriticalPriority + 1000,
			PreemptionPolicy: &preempt,
			Description:      "Used for system critical pods that must not be moved from their current node.",
		},
		{
			ObjectMeta:       metav1.ObjectMeta{Name: SystemClusterCritical},
			Value:            SystemCriticalPriority,
			PreemptionPolicy: &preempt,
			Description:      "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.",
		},
	}
}

// priorityAdmit is priority.Plugin.admitPod on a pod CREATE.
func (a *admitter) priorityAdmit() error {
	spec := &a.pod.Spec
	name, value, policy := "", int32(0), ptrPolicy(v1.PreemptLowerPriority)
	if spec.PriorityClassName == "" {
		if pc := a.objs.defaultPriority; pc != nil {
			name, value, policy = pc.Name, pc.Value, classPolicy(pc)
		}
	} else {
		pc, ok := a.objs.priorityClasses[spec.PriorityClassName]
		if !ok {
			return a.forbidden(fmt.Errorf("no PriorityClass with name %v was found", spec.PriorityClassName))
		}
		name, value, policy = pc.Name, pc.Value, classPolicy(pc)
	}
	if spec.Priority != nil && *spec.Priority != value {
		return a.forbidden(fmt.Errorf("the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", *spec.Priority, value))
	}
	if policy != nil && spec.PreemptionPolicy != nil && *spec.PreemptionPolicy != *policy {
		return a.forbidden(fmt.Errorf("the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name", *spec.PreemptionPolicy, *policy))
	}
	spec.PriorityClassName = name
	spec.Priority = &value
	if policy != nil {
		spec.PreemptionPolicy = ptrPolicy(*policy)
	}
	return nil
}

// classPolicy is the class's preemptionPolicy as the API server stores it: PreemptLowerPriority
// when the document leaves it out.
func classPolicy(pc *schedulingv1.PriorityClass) *v1.PreemptionPolicy {
	if pc.PreemptionPolicy == nil {
		return ptrPolicy(v1.PreemptLowerPriority)
	}
	return ptrPolicy(*pc.PreemptionPolicy)
}

func ptrPolicy(p v1.PreemptionPolicy) *v1.PreemptionPolicy { return &p }
