package main

import (
	"fmt"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/admission"
	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/defaults"
)

// prepare makes a pod read from a file into the pod kubelet would receive: the render identity
// (namespace "default", a stable UID) always, the API server's defaults unless
// --apply-defaults=false, and its admission unless --admission=false, in the API server's order
// (the pod create strategy's pod-level resource defaulting comes after admission).
func (r *renderer) prepare(pod *v1.Pod, warn func(configgen.Warning)) error {
	defaults.SetRenderIdentity(pod)
	gates := defaults.DefaultFeatureGates()
	gates.PodLevelResources = r.cfg.featureGates.gates.PodLevelResources
	if r.cfg.applyDefaults {
		opts := []defaults.Option{defaults.WithFeatureGates(gates)}
		if r.cfg.admission {
			opts = append(opts, defaults.ObjectDefaultsOnly())
		}
		defaults.SetObjectDefaultsPod(pod, opts...)
	}
	if !r.cfg.admission {
		return nil
	}
	// A ServiceAccount is often kept in another file than its workload; its settings rarely change
	// the configs, so a missing one is assumed with a warning. A missing RuntimeClass, whose
	// overhead changes the sandbox's resources, is only assumed under --allow-missing.
	assume := func(kind, namespace, name string) bool {
		if kind != "ServiceAccount" && !r.cfg.allowMissing {
			return false
		}
		if namespace != "" {
			name = namespace + "/" + name
		}
		warn(configgen.Warning{Reason: reasonAssumedObject, Message: fmt.Sprintf("%s %s is not in the input: assumed to exist with no settings", kind, name)})
		return true
	}
	opts := []admission.Option{admission.WithFeatureGates(gates), admission.AssumeMissing(assume)}
	return r.admissionObjects().Admit(pod, opts...)
}

// admissionObjects are the input's objects the admission plugins read, and the Node pods are
// bound to, prepared once for all the pods of the input.
func (r *renderer) admissionObjects() *admission.Prepared {
	if r.admission != nil {
		return r.admission
	}
	b := r.bundle
	objs := &admission.Objects{
		ServiceAccounts: b.ServiceAccounts, PriorityClasses: b.PriorityClasses,
		LimitRanges: b.LimitRanges, RuntimeClasses: b.RuntimeClasses,
	}
	if b.Node != nil {
		objs.Nodes = []*v1.Node{b.Node}
	}
	r.admission = admission.Prepare(objs)
	return r.admission
}
