// Command minikubelet runs the pods of a manifest on a CRI runtime, with podconfig generating
// every sandbox and container config. It is an example for authors of custom kubelets and runtime
// shims: see the README beside it for what it does and does not do.
//
//	go run ./examples/minikubelet -endpoint unix:///run/containerd/containerd.sock -f pod.yaml
package main
