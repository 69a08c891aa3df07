package node

import (
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/podconfig/podconfig/defaults"
	"github.com/podconfig/podconfig/manifest"
	"github.com/podconfig/podconfig/offline"
)

// Input is what a manifest gives a node: the pods to run and the objects they refer to.
type Input struct {
	Pods []*v1.Pod
	// Objects serves the input's ConfigMaps, Secrets and Services: the node has no API server,
	// so the manifest is its whole truth, held in the in-memory store podconfig render uses too.
	Objects *offline.Objects
	// Warnings name the documents that were skipped (kinds that make no pods) and why.
	Warnings []string

	// volumeObjects are the ConfigMaps and Secrets in Objects, for UpdateObjects.
	volumeObjects []any
}

// Load reads manifests with podconfig's manifest package: Pods, and the Pods that Deployments,
// StatefulSets, DaemonSets, ReplicaSets, Jobs and CronJobs would create (opts.Replicas of each),
// with the ConfigMaps, Secrets and Services they use. Workload templates get the API server's
// defaults, as in a cluster, and a workload the API server would refuse is refused with its
// words. Two Pods with one UID, or one namespace and name, are refused
// (manifest.CheckPods): on a node one pod's run would rewrite and then delete the other's.
// Node and RenderContext documents, which describe a node to the offline renderer, are not
// used: a Node runs on the facts of its own host.
func Load(opts manifest.Options, inputs ...manifest.Input) (*Input, error) {
	opts.DefaultTemplates = true
	// What the API server refuses, the node refuses: each workload as `kubectl apply` would send
	// it (each pod is validated when it is run).
	opts.CheckWorkload = func(obj runtime.Object) error { return manifest.ValidateWorkload(obj) }
	b, err := manifest.Read(opts, inputs...)
	if err != nil {
		return nil, err
	}
	in := &Input{Objects: offline.NewObjects(), Warnings: b.Warnings}
	for _, cm := range b.ConfigMaps {
		in.volumeObjects = append(in.volumeObjects, inNamespace(cm))
	}
	for _, s := range b.Secrets {
		in.volumeObjects = append(in.volumeObjects, inNamespace(s))
	}
	for _, obj := range in.volumeObjects {
		in.Objects.Add(obj)
	}
	for _, svc := range b.Services {
		in.Objects.Add(inNamespace(svc))
	}
	for _, p := range b.Pods {
		in.Pods = append(in.Pods, p.Pod)
	}
	return in, nil
}

// inNamespace returns obj, or a copy of it in the namespace "default" when it names none, where
// the API server would have put it; the store looks objects up by the namespace they name.
func inNamespace[T interface {
	metav1.Object
	DeepCopy() T
}](obj T) T {
	if obj.GetNamespace() != "" {
		return obj
	}
	c := obj.DeepCopy()
	c.SetNamespace(defaults.DefaultNamespace)
	return c
}
