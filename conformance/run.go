package conformance

import (
	"context"
	"os"
	"path/filepath"

	v1 "k8s.io/api/core/v1"
	apiv1 "k8s.io/kubernetes/pkg/apis/core/v1"

	"github.com/podconfig/podconfig/conformance/internal/kubeletside"
	"github.com/podconfig/podconfig/conformance/internal/podconfigside"
	"github.com/podconfig/podconfig/conformance/internal/result"
	"github.com/podconfig/podconfig/conformance/scenario"
)

// Outcome is a scenario rendered by both sides, normalised, and their differences.
type Outcome struct {
	Kubelet, Podconfig *result.Result
	Diffs              []Diff
}

// PodFor returns the pod both sides render: a copy of the scenario's, defaulted by the API
// server's own v1 defaulting unless the scenario asks for the raw pod.
func PodFor(sc *scenario.Scenario) *v1.Pod {
	pod := sc.Pod.DeepCopy()
	if !sc.RawPod {
		apiv1.SetObjectDefaults_Pod(pod)
	}
	return pod
}

// Run renders sc with kubelet and with podconfig, in a temporary directory under tmp, and
// compares them.
func Run(ctx context.Context, sc *scenario.Scenario, tmp string) (*Outcome, error) {
	dir, err := os.MkdirTemp(tmp, "scenario")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	root, logs := filepath.Join(dir, "root"), filepath.Join(dir, "logs")
	pod := PodFor(sc)

	k, err := kubeletside.Render(ctx, sc, pod.DeepCopy(), kubeletside.Dirs{Root: root, Logs: logs})
	if err != nil {
		return nil, err
	}
	node, err := podconfigside.New(sc, pod, root, logs, usernsHostID(k))
	if err != nil {
		return nil, err
	}
	p := node.Render(ctx, pod.DeepCopy())
	podDir := filepath.Join(root, "pods", string(pod.UID))
	Normalise(k, podDir, podconfigside.TerminationMessageName)
	Normalise(p, podDir, podconfigside.TerminationMessageName)
	return &Outcome{Kubelet: k, Podconfig: p, Diffs: Compare(k, p)}, nil
}

// usernsHostID is the first host id of the user namespace kubelet allocated for the pod, or 0.
func usernsHostID(r *result.Result) uint32 {
	if r.Sandbox == nil {
		return 0
	}
	ns := r.Sandbox.GetLinux().GetSecurityContext().GetNamespaceOptions().GetUsernsOptions()
	if len(ns.GetUids()) == 0 {
		return 0
	}
	return ns.GetUids()[0].GetHostId()
}
