package main

import (
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/defaults"
)

// prepare makes a pod read from a file into the pod kubelet would receive: the render identity
// (namespace "default", a stable UID) always, and the API server's defaults unless
// --apply-defaults=false.
func (r *renderer) prepare(pod *v1.Pod) {
	defaults.SetRenderIdentity(pod)
	if r.cfg.applyDefaults {
		gates := defaults.DefaultFeatureGates()
		gates.PodLevelResources = r.cfg.featureGates.gates.PodLevelResources
		defaults.SetObjectDefaultsPod(pod, defaults.WithFeatureGates(gates))
	}
}
