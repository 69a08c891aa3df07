package node

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

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
	if err := checkUniquePods(b.Pods); err != nil {
		return nil, err
	}
	for _, p := range b.Pods {
		in.Pods = append(in.Pods, p.Pod)
	}
	return in, nil
}

// checkUniquePods refuses an input in which two pods share a UID or a namespace and name: on a
// node, pods are keyed by UID (the pod directory, the sandbox's labels, teardown), and one pod's
// run would rewrite and then delete the other's. Kubelet's pod sources drop such duplicates and
// the API server never makes them; a file can hold anything.
func checkUniquePods(pods []manifest.Pod) error {
	byUID := map[types.UID]string{}
	byName := map[string]string{}
	for _, p := range pods {
		ns := namespaceOf(p.Pod.Namespace)
		name := ns + "/" + p.Pod.Name
		if first, ok := byName[name]; ok {
			return fmt.Errorf("%s and %s: two pods named %s", first, p.Source, name)
		}
		byName[name] = p.Source
		if p.Pod.UID == "" {
			continue
		}
		if first, ok := byUID[p.Pod.UID]; ok {
			return fmt.Errorf("%s and %s: two pods with UID %s", first, p.Source, p.Pod.UID)
		}
		byUID[p.Pod.UID] = p.Source
	}
	return nil
}
