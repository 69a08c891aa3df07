// Package node is minikubelet's node: it runs pods on a CRI runtime (containerd,
// CRI-O) with podconfig generating every config, the way a custom kubelet would. It prepares the
// pod's directories and volumes (emptyDir, hostPath, configMap, secret, downwardAPI and projected
// with podconfig's volumes package, service-account tokens included; image volumes),
// runs the sandbox, pulls images by pull policy, runs init containers in order, sidecars and
// regular containers, restarts them by restart policy, streams their logs, reads termination
// messages back, and tears everything down when the pod ends or its context is cancelled.
//
// It is internal to the example: copy from it, it cannot be imported. What a node needs and is
// not specific to this example (volume set-up, termination messages, back-off, pod identities,
// the configs themselves) is podconfig's library, which it calls. It is not a kubelet: it has no
// API server, probes, eviction, or network set-up beyond what the runtime's CNI does; see the
// README of examples/minikubelet.
package node
