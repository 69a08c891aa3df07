package node

import (
	"os"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/admission"
	"github.com/podconfig/podconfig/defaults"
)

// applyDefaults gives a pod read from a file what the API server and the scheduler would have
// given it before it reaches a node: the API server's defaults, and with defaults.SetRenderIdentity
// the namespace "default" and, when it has no UID, the one podconfig render gives it
// (defaults.RenderUID of its namespace and name), so a pod run twice has the same directories,
// and the paths render prints are the paths the node uses; the pod create strategy
// (defaults.PrepareForCreate); then the node's name.
func applyDefaults(pod *v1.Pod, nodeName string) {
	if nodeName == "" {
		nodeName, _ = os.Hostname()
	}
	defaults.SetObjectDefaultsPod(pod)
	defaults.SetRenderIdentity(pod)
	if pod.Spec.ServiceAccountName == "" {
		// The API server's ServiceAccount admission names the namespace's default account, which
		// validation then expects of a pod with a token projection. minikubelet runs no other
		// admission: it mounts no token volume of its own.
		pod.Spec.ServiceAccountName = admission.DefaultServiceAccountName
		pod.Spec.DeprecatedServiceAccount = admission.DefaultServiceAccountName //nolint:staticcheck // kept in step, as the API server does
	}
	if pod.ResourceVersion == "" {
		// The pod create strategy; a pod read back from a cluster went through it already.
		defaults.PrepareForCreate(pod)
	}
	if pod.Spec.NodeName == "" {
		pod.Spec.NodeName = nodeName
	}
}
