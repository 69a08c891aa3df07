// Package kubernetes is empty: its module only pins the Kubernetes binaries (kube-apiserver,
// kube-controller-manager, kube-scheduler, kubectl, agnhost) and the e2e.test suite that the
// control-plane stage (.ci/stages/40-controlplane.sh) builds.
package kubernetes
