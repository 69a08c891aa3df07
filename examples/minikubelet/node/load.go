package node

import (
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/manifest"
)

// Input is what a manifest gives a node: the pods to run and the objects they refer to.
type Input struct {
	Pods    []*v1.Pod
	Objects Objects
	// Warnings name the documents that were skipped (kinds that make no pods) and why.
	Warnings []string
}

// Load reads manifests with podconfig's manifest package: Pods, and the Pods that Deployments,
// StatefulSets, DaemonSets, ReplicaSets, Jobs and CronJobs would create (opts.Replicas of each),
// with the ConfigMaps, Secrets and Services they use. Workload templates get the API server's
// defaults, as in a cluster. Node and RenderContext documents, which describe a node to the
// offline renderer, are not used: a Node runs on the facts of its own host.
func Load(opts manifest.Options, inputs ...manifest.Input) (*Input, error) {
	opts.DefaultTemplates = true
	b, err := manifest.Read(opts, inputs...)
	if err != nil {
		return nil, err
	}
	in := &Input{
		Objects:  Objects{ConfigMaps: b.ConfigMaps, Secrets: b.Secrets, Services: b.Services},
		Warnings: b.Warnings,
	}
	for _, p := range b.Pods {
		in.Pods = append(in.Pods, p.Pod)
	}
	return in, nil
}
