// Package node is minikubelet's node: it runs pods on a CRI runtime (containerd,
// CRI-O) with podconfig generating every config, the way a custom kubelet would. It prepares the
// pod's directories and volumes (emptyDir, hostPath, configMap, secret, downwardAPI and projected
// with podconfig's volumes package, service-account tokens included), as kubelet's volume manager
// does, then runs its own pod worker's loop over podruntime, kubelet's runtime manager: read what
// the runtime holds, generate the pod's status as kubelet does, sync the pod (sandbox, image
// pulls and image volumes, init containers in order, sidecars, regular containers, restarts
// with the crash-loop back-off) until its phase is terminal or its context is cancelled; then
// stop it within its grace period, remove it from the runtime and tear the host down. It
// streams the containers' logs and keeps each attempt's end.
//
// It is internal to the example: copy from it, it cannot be imported. What a node needs and is
// not specific to this example (the pod lifecycle on CRI, volume set-up, termination messages,
// pod identities, the configs themselves) is podconfig's library, which it calls. It is not a
// kubelet: it has no API server, probes, eviction, or network set-up beyond what the runtime's
// CNI does; see the README of examples/minikubelet.
package node
