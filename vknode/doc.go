// Package vknode is a virtual-kubelet provider that runs the pods an API server binds to its
// node on a CRI runtime, with podconfig doing what kubelet does: configgen generates the
// sandbox and container configs, volumes.Manager writes the configMap, secret, downwardAPI,
// projected and emptyDir volumes from the API server's objects and service-account tokens,
// podruntime's Manager drives each pod with SyncPod, KillPod and GarbageCollectPod and
// generates its status as kubelet does. Provider is virtual-kubelet's PodLifecycleHandler and
// PodNotifier; ContainerLogs and RunInContainer serve the kubelet API's /containerLogs and
// /exec through virtual-kubelet's node/api handlers; the runtime's container logs are rotated
// by logs.ContainerLogManager as kubelet rotates them. cmd/vknode registers a node with it.
//
// It is a module of its own, so that the core module depends neither on client-go nor on
// virtual-kubelet.
package vknode
