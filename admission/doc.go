// Package admission applies to a defaulted v1.Pod what the Kubernetes v1.37 API server's
// default-enabled mutating admission plugins apply when the pod is created, the part that reaches
// kubelet: the service-account token volume and its mounts, the priority, default resources from
// LimitRanges, the RuntimeClass's overhead and scheduling, the not-ready and unreachable
// tolerations, and the node's topology labels. It also runs the same plugins' validation of the
// pod, so a pod the API server would refuse is refused here with the API server's words.
//
// A pod read from a manifest passes, on a cluster, through defaulting, admission, the pod create
// strategy and validation before kubelet sees it. Admit is the admission step, with the create
// strategy's pod-level resource defaulting after it, in the API server's order:
//
//	defaults.SetRenderIdentity(pod) // offline only: namespace and UID
//	defaults.SetObjectDefaultsPod(pod, defaults.ObjectDefaultsOnly())
//	err := admission.Admit(pod, objects)
//
// Admit prepares the objects on every call. To admit many pods, Prepare them once and call
// Prepared.Admit for each pod: a pod then costs its own containers and resources, not a pass over
// the objects (2,000 pods in a namespace of 2,000 LimitRanges took minutes when each pod copied,
// defaulted and checked every LimitRange).
//
// The plugins run in the API server's order (LimitRanger, ServiceAccount, Priority,
// DefaultTolerationSeconds, RuntimeClass, PodTopologyLabels), each as its source in
// k8s.io/kubernetes/plugin/pkg/admission does on a pod CREATE:
//
// LimitRanger (limitranger.PodMutateLimitFunc): each LimitRange of the pod's namespace, in name
// order, fills every resource its Container-type items give a default (limit) or defaultRequest
// (request) for and a regular or init container leaves out; values that are set, even to zero, are
// kept; ephemeral containers and pod-level resources are not defaulted. A LimitRange is first
// defaulted as the API server stores it (default from max, defaultRequest from default, then from
// min). The annotation kubernetes.io/limit-ranger records what was set. The validation phase
// checks min, max and maxLimitRequestRatio per container and per pod, comparing quantities as
// the API server does: in thousandths while the request, the limit and the LimitRange's value are
// all at most resource.MaxMilliValue, in whole units beyond.
//
// ServiceAccount (serviceaccount.Plugin.Admit): an empty serviceAccountName becomes "default"
// (serviceAccount too). The ServiceAccount must exist in the pod's namespace; "default" always
// does unless the objects define it, as the service-account controller creates it in every
// namespace. Unless automountServiceAccountToken is false on the pod, or else on the
// ServiceAccount, every init and regular container (not ephemeral ones) that mounts nothing at
// /var/run/secrets/kubernetes.io/serviceaccount gets a read-only mount of a projected volume
// kube-api-access-<suffix> there: a token (expirationSeconds 3607), ca.crt from the ConfigMap
// kube-root-ca.crt and the namespace from the downward API. A volume already named
// kube-api-access-* is reused. The API server picks the five-character suffix at random; Admit
// derives it from the pod's namespace, name and generateName, so a render is repeatable. A pod
// with no imagePullSecrets gets the ServiceAccount's. A mirror pod is left alone and may not
// name a ServiceAccount or Secrets.
//
// Priority (priority.Plugin.admitPod): priorityClassName resolves to its class's value and
// preemptionPolicy, from the objects or the built-in system-node-critical (2000001000) and
// system-cluster-critical (2000000000); an empty name takes the globalDefault class with the
// lowest value (then the first by name), or priority 0 and PreemptLowerPriority with no default
// class. A pod that states a different priority or preemptionPolicy is refused.
//
// DefaultTolerationSeconds: a pod that does not tolerate node.kubernetes.io/not-ready or
// node.kubernetes.io/unreachable with effect NoExecute gets an Exists toleration for it with
// tolerationSeconds 300.
//
// RuntimeClass (runtimeclass.RuntimeClass.Admit): the class's overhead becomes the pod's
// (a different overhead on the pod is refused), and its scheduling nodeSelector and tolerations
// are merged into the pod's (a conflicting nodeSelector value is refused; tolerations merge as
// k8s.io/kubernetes/pkg/util/tolerations.MergeTolerations does).
//
// PodTopologyLabels: a pod bound to a node gets that node's topology.kubernetes.io/zone and
// topology.kubernetes.io/region labels. On a cluster the labels come with the binding; the result
// is the same.
//
// Errors read as the API server words them (pods "<name>" is forbidden: ...) and are a
// *ForbiddenError; a missing object also satisfies apierrors.IsNotFound. On error the pod is left
// as it was. MutatingAdmissionPolicies and webhooks are the cluster's own and are not applied.
package admission
