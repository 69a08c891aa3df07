package main

import (
	"fmt"
	"slices"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/podconfig/podconfig/admission"
	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/defaults"
	"github.com/podconfig/podconfig/manifest"
)

// prepare makes a pod read from a file into the pod kubelet would receive: the render identity
// (namespace "default", a stable UID) always, the API server's defaults unless
// --apply-defaults=false, its admission unless --admission=false, then the pod create strategy
// (defaults.PrepareForCreate), in the API server's order.
func (r *renderer) prepare(pod *v1.Pod, warn func(configgen.Warning)) error {
	defaults.SetRenderIdentity(pod)
	gates := r.cfg.apiServerGates()
	if err := r.admit(pod, gates, warn); err != nil {
		return err
	}
	// The pod create strategy runs after admission, once, on a pod being created; a pod read back
	// from a cluster (it has a resourceVersion) went through it when it was created.
	if r.cfg.applyDefaults && pod.ResourceVersion == "" {
		// Render takes the pod's IPs from its status when no flag gives them; the strategy
		// resets the status, as a cluster's would before the node reports the pod's IPs.
		podIP, podIPs, hostIP, hostIPs := pod.Status.PodIP, pod.Status.PodIPs, pod.Status.HostIP, pod.Status.HostIPs
		defaults.PrepareForCreate(pod, defaults.WithFeatureGates(gates))
		pod.Status.PodIP, pod.Status.PodIPs, pod.Status.HostIP, pod.Status.HostIPs = podIP, podIPs, hostIP, hostIPs
	}
	return nil
}

// apiServerGates are the API server's feature gates as render takes them: v1.37's defaults, with
// the gates --feature-gates sets for kubelet that the API server has too set alike, as a cluster
// that enables one enables it on both.
func (c *renderConfig) apiServerGates() defaults.FeatureGates {
	gates := defaults.DefaultFeatureGates()
	gates.PodLevelResources = c.featureGates.gates.PodLevelResources
	gates.EnvFiles = c.featureGates.gates.EnvFiles
	gates.ContainerStopSignals = c.featureGates.gates.ContainerStopSignals
	return gates
}

// checkWorkload validates a workload read from the input as the API server validates it on
// create (manifest.ValidateWorkload), unless --validate=false or --apply-defaults=false.
func (c *renderConfig) checkWorkload(obj runtime.Object) error {
	if !c.validation || !c.applyDefaults {
		return nil
	}
	return manifest.ValidateWorkload(obj, defaults.WithFeatureGates(c.apiServerGates()))
}

// admit applies the API server's defaults unless --apply-defaults=false, and its admission
// unless --admission=false.
func (r *renderer) admit(pod *v1.Pod, gates defaults.FeatureGates, warn func(configgen.Warning)) error {
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
		// --priority-class's come first: of two of one name, admission takes the first.
		ServiceAccounts: b.ServiceAccounts, PriorityClasses: append(slices.Clone(r.cfg.priorityClasses), b.PriorityClasses...),
		LimitRanges: b.LimitRanges, RuntimeClasses: b.RuntimeClasses,
	}
	if b.Node != nil {
		objs.Nodes = []*v1.Node{b.Node}
	}
	r.admission = admission.Prepare(objs)
	return r.admission
}
