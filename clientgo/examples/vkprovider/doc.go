// Command vkprovider is a provider-shaped consumer of podconfig, as a virtual-kubelet provider
// would embed it, with no virtual-kubelet dependency: it watches the pods bound to its node
// through client-go informers (over a fake clientset, so it runs anywhere), resolves the
// environment and volume mounts of every container with podconfig's whole-pod helpers, writes
// the resolved environment into a copy of the pod in one call (PodEnv.ApplyTo), checks
// runAsNonRoot against the images' users it knows, records podconfig's warnings as Kubernetes
// events, and prints what a remote runtime would receive.
//
//	go run ./examples/vkprovider   # from the clientgo module
package main
