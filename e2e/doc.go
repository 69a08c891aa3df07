// Package e2e is podconfig's end-to-end suite: it runs real pods on a CRI runtime with the
// minikubelet example's binary, podconfig generating every sandbox and container config, and
// checks each behaviour from inside a container (its output), on the host, and through the
// runtime. It also runs pods with crictl alone, from `podconfig render -o crictl`'s files: the
// bundled example pod, and one whose container reads its configMap, secret, downwardAPI and
// token files. It holds tests only.
//
// .ci/stages/30-e2e.sh runs it on containerd 1.6 and 2.x in turn, each started privately, after
// building minikubelet and podconfig. It reads:
//
//	PODCONFIG_E2E_ENDPOINT     the runtime's CRI socket (unix://...), with the stage's images
//	PODCONFIG_E2E_ROOT         a directory for the node's root and pod log directories
//	PODCONFIG_E2E_CGROUP_ROOT  minikubelet's -cgroup-root
//	PODCONFIG_E2E_MINIKUBELET  the minikubelet binary (go build ./examples/minikubelet)
//	PODCONFIG_E2E_PODCONFIG    the podconfig binary (go build ./cmd/podconfig)
//	PODCONFIG_E2E_CRICTL       crictl
//
// Without a runtime, root or the binaries, every test skips and says why.
package e2e
